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

}  // namespace
}  // namespace otpu
