#include "base/sparse_memory.h"

#include <gtest/gtest.h>

namespace otpu {
namespace {

TEST(SparseMemory, UnwrittenBytesReadZero) {
  SparseMemory m(1ull << 30);
  EXPECT_EQ(m.Read32(12345 * 4), 0u);
  EXPECT_TRUE(m.pages().empty());
}

TEST(SparseMemory, WritesAcrossPagesReadBack) {
  SparseMemory m(1ull << 30);
  std::vector<uint8_t> data(200000);
  for (size_t i = 0; i < data.size(); ++i) data[i] = uint8_t(i * 7);
  m.Write(SparseMemory::kPageBytes - 10, data.data(), data.size());
  EXPECT_EQ(m.ReadBytes(SparseMemory::kPageBytes - 10, data.size()), data);
  EXPECT_EQ(m.pages().size(), 5u);
}

TEST(SparseMemory, ContainsRejectsRangesPastTheEnd) {
  SparseMemory m(4096);
  EXPECT_TRUE(m.Contains(0, 4096));
  EXPECT_FALSE(m.Contains(4093, 4));
  EXPECT_FALSE(m.Contains(~0ull, 2));
}

TEST(SparseMemory, FirstDifferenceTreatsMissingPagesAsZero) {
  SparseMemory a(1 << 20), b(1 << 20);
  a.Write32(0x40000, 0);  // page exists but holds zeros
  EXPECT_TRUE(a.SameBytes(b));
  b.Write8(0x50003, 1);
  EXPECT_EQ(a.FirstDifference(b), 0x50003);
  SparseMemory c = b;
  EXPECT_TRUE(c.SameBytes(b));
}

TEST(SparseMemory, ClearMoveAndAssignForgetTheLastPageRead) {
  SparseMemory a(1 << 20);
  a.Write32(0x10000, 7);
  EXPECT_EQ(a.Read32(0x10000), 7u);
  a.Clear();
  EXPECT_EQ(a.Read32(0x10000), 0u);

  a.Write32(0x10000, 8);
  EXPECT_EQ(a.Read32(0x10000), 8u);
  SparseMemory b = std::move(a);
  EXPECT_EQ(b.Read32(0x10000), 8u);
  EXPECT_EQ(a.Read32(0x10000), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty

  SparseMemory c(1 << 20);
  c.Write32(0x10004, 9);
  EXPECT_EQ(c.Read32(0x10004), 9u);
  c = b;
  EXPECT_EQ(c.Read32(0x10004), 0u);
  EXPECT_EQ(c.Read32(0x10000), 8u);
  b.Write32(0x10000, 10);  // a copy owns its pages
  EXPECT_EQ(c.Read32(0x10000), 8u);
}

// A copy shares the original's pages until one of them writes a page: then that page, and
// only it, is copied, whichever side writes and whatever each read last.
TEST(SparseMemory, CopiesShareTheirPagesUntilEitherWritesOne) {
  SparseMemory a(1 << 20);
  a.Write32(0x10000, 1);
  a.Write32(0x20000, 2);
  EXPECT_EQ(a.Read32(0x10000), 1u);  // a remembers its pages
  SparseMemory b = a;
  ASSERT_EQ(b.pages().size(), 2u);
  EXPECT_EQ(b.pages().at(1).get(), a.pages().at(1).get());  // no bytes copied
  EXPECT_EQ(b.Read32(0x10000), 1u);

  a.Write32(0x10000, 3);  // the original writes a page it remembers
  EXPECT_EQ(a.Read32(0x10000), 3u);
  EXPECT_EQ(b.Read32(0x10000), 1u);
  EXPECT_NE(b.pages().at(1).get(), a.pages().at(1).get());
  EXPECT_EQ(b.pages().at(2).get(), a.pages().at(2).get());  // the other page is still shared

  b.Write32(0x20004, 4);  // the copy writes a shared page
  EXPECT_EQ(b.Read32(0x20000), 2u);
  EXPECT_EQ(b.Read32(0x20004), 4u);
  EXPECT_EQ(a.Read32(0x20004), 0u);

  {
    SparseMemory c = b;  // a third holder, gone before b writes again
  }
  b.Write32(0x20008, 5);  // b's page is its own again: written in place
  EXPECT_EQ(b.Read32(0x20008), 5u);
  EXPECT_EQ(a.Read32(0x20008), 0u);
  EXPECT_EQ(a.FirstDifference(b), 0x10000);
}

}  // namespace
}  // namespace otpu
