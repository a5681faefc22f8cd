#include "host/xdma/transfer_plan.h"

#include <gtest/gtest.h>

namespace otpu::host {
namespace {

TEST(WidenToBeats, AlignedRequestStaysAsIs) {
  BeatSpan span = WidenToBeats(128, 192);
  EXPECT_EQ(span.start, 128u);
  EXPECT_EQ(span.end, 320u);
  EXPECT_FALSE(span.partial_head);
  EXPECT_FALSE(span.partial_tail);
}

TEST(WidenToBeats, OddStartAndLengthCoverWholeBeats) {
  BeatSpan span = WidenToBeats(70, 100);  // bytes 70..169
  EXPECT_EQ(span.start, 64u);
  EXPECT_EQ(span.end, 192u);
  EXPECT_TRUE(span.partial_head);
  EXPECT_TRUE(span.partial_tail);
}

TEST(WidenToBeats, OneByteInsideOneBeat) {
  BeatSpan span = WidenToBeats(0x1000'0003, 1);
  EXPECT_EQ(span.start, 0x1000'0000u);
  EXPECT_EQ(span.end, 0x1000'0040u);
  EXPECT_TRUE(span.partial_head);
  EXPECT_TRUE(span.partial_tail);
}

TEST(WidenToBeats, EndOnBeatBoundaryIsNotPartial) {
  BeatSpan span = WidenToBeats(10, 54);
  EXPECT_EQ(span.end, 64u);
  EXPECT_TRUE(span.partial_head);
  EXPECT_FALSE(span.partial_tail);
}

TEST(PieceLimit, RoundsDownToBeatsAndKeepsOneBeat) {
  EXPECT_EQ(PieceLimit(0x7ffff000), 0x7ffff000u);
  EXPECT_EQ(PieceLimit(200), 192u);
  EXPECT_EQ(PieceLimit(10), 64u);
}

TEST(SplitSpan, PiecesCoverTheSpanInOrderBelowTheLimit) {
  std::vector<TransferPiece> pieces = SplitSpan({64, 64 + 1088, false, false}, 256);
  ASSERT_EQ(pieces.size(), 5u);
  uint64_t at = 64;
  for (const TransferPiece& p : pieces) {
    EXPECT_EQ(p.card_addr, at);
    EXPECT_LE(p.len, 256u);
    EXPECT_EQ(p.len % kBeatBytes, 0u);
    at += p.len;
  }
  EXPECT_EQ(at, 64u + 1088u);
  EXPECT_EQ(pieces.back().len, 64u);
}

TEST(SplitSpan, LargeRequestSplitsBelowTheDriverLimit) {
  const uint64_t limit = 0x7ffff000;
  std::vector<TransferPiece> pieces = SplitSpan({0, uint64_t{3} << 31, false, false}, limit);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].len, limit);
  EXPECT_EQ(pieces[3].card_addr, 3 * limit);
  EXPECT_EQ(pieces[3].len, (uint64_t{3} << 31) - 3 * limit);
}

}  // namespace
}  // namespace otpu::host
