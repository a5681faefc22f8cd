#include "lens/trace/tokenizer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace otpu::lens::decode {
namespace {

// D + 2 O, S, P + 9 V, E: four groups, 14 records.
std::vector<Record> Sample() {
  std::vector<Record> r;
  r.push_back(Dispatch{1, 5, 10}.Encode());
  for (Record o : EncodeOperands(7, 1, 2, 3)) r.push_back(o);
  r.push_back(Start{1, 0, 4, 12}.Encode());
  r.push_back(Window{RecordType::kWINDOW_P, 64, 63}.Encode());
  for (uint32_t i = 0; i < kWindowPColumns; ++i) r.push_back(EncodeValue(i, 100 + i));
  r.push_back(SlotCycle{RecordType::kEND, 1, 70}.Encode());
  return r;
}

TEST(ReaderTest, StopsAtTheEnd) {
  const std::vector<Record> data = {1, 2};
  Reader in(data);
  Record r = 0;
  EXPECT_TRUE(in.Read(&r));
  EXPECT_TRUE(in.Read(&r));
  EXPECT_EQ(r, 2u);
  EXPECT_FALSE(in.Read(&r));
  EXPECT_FALSE(in.Peek(&r));
}

TEST(TokenizerTest, GroupsHeadsWithTheirValues) {
  StatusOr<Tokens> t = Tokenize(Sample());
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->groups.size(), 4u);
  EXPECT_EQ(t->groups[0].num_values, 2);
  EXPECT_EQ(t->groups[1].num_values, 0);
  EXPECT_EQ(t->groups[2].num_values, kWindowPColumns);
  EXPECT_EQ(t->groups[2].index, 4u);
  EXPECT_EQ(ValueOf(t->groups[2].values[8]), 108u);
  EXPECT_EQ(t->cut_head + t->cut_tail, 0);
}

TEST(TokenizerTest, SkipsAGroupCutAtTheStart) {
  const std::vector<Record> all = Sample();
  const std::vector<Record> cut(all.begin() + 6, all.end());  // inside P's values
  StatusOr<Tokens> t = Tokenize(cut);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->cut_head, 1);
  ASSERT_EQ(t->groups.size(), 1u);
  EXPECT_EQ(t->groups[0].type(), uint8_t(RecordType::kEND));
}

TEST(TokenizerTest, SkipsAGroupCutAtTheEnd) {
  const std::vector<Record> all = Sample();
  const std::vector<Record> cut(all.begin(), all.begin() + 8);  // P with 3 of 9 values
  StatusOr<Tokens> t = Tokenize(cut);
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t->cut_tail, 1);
  EXPECT_EQ(t->groups.size(), 2u);
}

TEST(TokenizerTest, SaturatedStartNeedsItsReadyRecord) {
  const std::vector<Record> data = {Start{0, 1, kSaturatedDelay, 70000}.Encode(),
                                    EncodeReady(5)};
  StatusOr<Tokens> t = Tokenize(data);
  ASSERT_TRUE(t.ok());
  ASSERT_EQ(t->groups.size(), 1u);
  EXPECT_EQ(ReadyOf(t->groups[0].values[0]), 5u);
  StatusOr<Tokens> cut = Tokenize(std::span<const Record>(data).first(1));
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->cut_tail, 1);
}

TEST(TokenizerTest, RejectsAnUnknownTypeNamingTheRecord) {
  std::vector<Record> data = Sample();
  data[4] = Record{13} << 60;
  StatusOr<Tokens> t = Tokenize(data);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(t.status().message().find("record 4"), std::string::npos) << t.status().message();
  EXPECT_NE(t.status().message().find("type 13"), std::string::npos);
}

TEST(TokenizerTest, RejectsAReservedBitOfAHeadNamingTheRecordAndBits) {
  std::vector<Record> data = Sample();
  data[0] |= Record{1} << 48;  // D leaves [51:48] 0
  StatusOr<Tokens> t = Tokenize(data);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(t.status().message().find("record 0 (D): reserved bits 0x0001000000000000 are set"),
            std::string::npos)
      << t.status().message();
}

TEST(TokenizerTest, RejectsAReservedBitOfAValueNamingTheRecord) {
  std::vector<Record> data = Sample();
  data[5] |= Record{1} << 40;  // the P's first V: only [59:56] and [31:0] are fields
  StatusOr<Tokens> t = Tokenize(data);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("record 5 (V): reserved bits"), std::string::npos)
      << t.status().message();
}

TEST(TokenizerTest, RejectsAReservedBitOfAValueCutAtTheStart) {
  const std::vector<Record> all = Sample();
  std::vector<Record> cut(all.begin() + 6, all.end());
  cut[0] |= Record{1} << 55;
  StatusOr<Tokens> t = Tokenize(cut);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("record 0 (V): reserved bits"), std::string::npos)
      << t.status().message();
}

TEST(TokenizerTest, RejectsAValueWithoutHeadInTheMiddle) {
  std::vector<Record> data = Sample();
  data.insert(data.begin() + 4, EncodeValue(0, 1));
  StatusOr<Tokens> t = Tokenize(data);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("record 4 (V)"), std::string::npos)
      << t.status().message();
}

TEST(TokenizerTest, RejectsValuesOutOfOrder) {
  std::vector<Record> data = Sample();
  std::swap(data[1], data[2]);  // O half 1 before half 0
  StatusOr<Tokens> t = Tokenize(data);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("value 0 of record 0 (D)"), std::string::npos)
      << t.status().message();
}

// Feeds `records` to a Tokenizer in chunks of `chunk` records (the last one shorter).
StatusOr<Tokens> TokenizeInChunks(const std::vector<Record>& records, size_t chunk) {
  struct Collect : GroupSink {
    Tokens* out;
    Status Add(const Group& g) override {
      out->groups.push_back(g);
      return OkStatus();
    }
  };
  Tokens out;
  Collect sink;
  sink.out = &out;
  Tokenizer t(&sink);
  for (size_t at = 0; at < records.size(); at += chunk) {
    RETURN_IF_ERROR(t.Feed(records.data() + at, std::min(chunk, records.size() - at)));
  }
  t.Finish();
  out.cut_head = t.cut_head();
  out.cut_tail = t.cut_tail();
  return out;
}

void ExpectSameTokens(const Tokens& a, const Tokens& b) {
  ASSERT_EQ(a.groups.size(), b.groups.size());
  for (size_t i = 0; i < a.groups.size(); ++i) {
    EXPECT_EQ(a.groups[i].index, b.groups[i].index);
    EXPECT_EQ(a.groups[i].head, b.groups[i].head);
    EXPECT_EQ(a.groups[i].num_values, b.groups[i].num_values);
    EXPECT_EQ(a.groups[i].values, b.groups[i].values);
  }
  EXPECT_EQ(a.cut_head, b.cut_head);
  EXPECT_EQ(a.cut_tail, b.cut_tail);
}

TEST(TokenizerTest, ChunksOfAnySizeGiveTheWholeBuffersGroups) {
  // Cut at both ends: two values of a lost head first, a P missing values last.
  std::vector<Record> records = {EncodeValue(3, 1), EncodeValue(4, 2)};
  for (Record r : Sample()) records.push_back(r);
  for (Record r : Sample()) records.push_back(r);
  records.push_back(Window{RecordType::kWINDOW_P, 64, 127}.Encode());
  records.push_back(EncodeValue(0, 5));
  StatusOr<Tokens> whole = Tokenize(records);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(whole->cut_head, 1);
  EXPECT_EQ(whole->cut_tail, 1);
  for (size_t chunk = 1; chunk <= records.size(); ++chunk) {
    SCOPED_TRACE("chunk " + std::to_string(chunk));
    StatusOr<Tokens> chunked = TokenizeInChunks(records, chunk);
    ASSERT_TRUE(chunked.ok()) << chunked.status().message();
    ExpectSameTokens(*whole, *chunked);
  }
}

TEST(TokenizerTest, ChunksGiveTheWholeBuffersErrorNamingTheSameRecord) {
  std::vector<Record> records = Sample();
  records[2] = EncodeValue(0, 1);  // the D's second O is a V
  StatusOr<Tokens> whole = Tokenize(records);
  ASSERT_FALSE(whole.ok());
  EXPECT_NE(whole.status().message().find("record 2 (V)"), std::string::npos)
      << whole.status().message();
  for (size_t chunk = 1; chunk <= records.size(); ++chunk) {
    StatusOr<Tokens> chunked = TokenizeInChunks(records, chunk);
    ASSERT_FALSE(chunked.ok());
    EXPECT_EQ(chunked.status().message(), whole.status().message()) << "chunk " << chunk;
  }
}

TEST(TokenizerTest, FeedAfterAnErrorReturnsTheErrorAgain) {
  struct Ignore : GroupSink {
    Status Add(const Group&) override { return OkStatus(); }
  } sink;
  Tokenizer t(&sink);
  const Record bad = Record{15} << 60;  // type 15 is no record of SPEC 5
  const Status first = t.Feed(&bad, 1);
  ASSERT_FALSE(first.ok());
  EXPECT_NE(first.message().find("type 15 is not a trace record"), std::string::npos);
  const std::vector<Record> good = Sample();
  const Status again = t.Feed(good.data(), good.size());
  EXPECT_EQ(again.message(), first.message());
}

}  // namespace
}  // namespace otpu::lens::decode
