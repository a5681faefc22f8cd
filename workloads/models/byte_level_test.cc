#include "workloads/models/byte_level.h"

#include <gtest/gtest.h>

#include <set>

namespace otpu::models {
namespace {

TEST(ByteLevel, MapsEveryByteToADistinctCodePoint) {
  std::set<uint32_t> seen;
  for (int b = 0; b < 256; ++b) seen.insert(ByteToCodePoint(uint8_t(b)));
  EXPECT_EQ(seen.size(), 256u);
}

TEST(ByteLevel, KeepsPrintableBytesAndShiftsTheRest) {
  EXPECT_EQ(ByteToCodePoint('A'), uint32_t('A'));
  EXPECT_EQ(ByteToCodePoint(0xE9), 0xE9u);   // é stays é
  EXPECT_EQ(ByteToCodePoint(0x00), 0x100u);  // first unprintable byte -> U+0100
  EXPECT_EQ(ByteSymbol(' '), "\u0120");      // GPT-2's Ġ
  EXPECT_EQ(ByteSymbol('\n'), "\u010A");     // GPT-2's Ċ
  EXPECT_EQ(ByteToCodePoint(0xAD), 0x143u);  // soft hyphen, the last one shifted
}

TEST(ByteLevel, CodePointToByteInvertsTheMap) {
  for (int b = 0; b < 256; ++b) EXPECT_EQ(CodePointToByte(ByteToCodePoint(uint8_t(b))), b);
  EXPECT_EQ(CodePointToByte(0x4E2D), -1);  // 中 is not in the alphabet
}

TEST(ByteLevel, SymbolsRoundTripEveryByte) {
  std::string bytes;
  for (int b = 0; b < 256; ++b) bytes.push_back(char(b));
  EXPECT_EQ(SymbolsToBytes(BytesToSymbols(bytes)), bytes);
}

TEST(ByteLevel, SymbolsOutsideTheAlphabetStayUtf8) {
  EXPECT_EQ(SymbolsToBytes("a\u4E2Db"), "a\u4E2Db");
}

TEST(Utf8, EncodesAndDecodesEveryLength) {
  for (uint32_t cp : {0x24u, 0xA2u, 0x20ACu, 0x1F600u}) {
    std::string s;
    AppendUtf8(cp, &s);
    size_t pos = 0;
    EXPECT_EQ(NextCodePoint(s, &pos), int32_t(cp));
    EXPECT_EQ(pos, s.size());
  }
}

TEST(Utf8, FindsTheFirstMalformedSequence) {
  EXPECT_EQ(FindInvalidUtf8("h\u00e9llo \U0001F600"), std::string_view::npos);
  EXPECT_EQ(FindInvalidUtf8("ab\x80"), 2u);            // stray continuation byte
  EXPECT_EQ(FindInvalidUtf8("a\xC3"), 1u);             // cut two-byte sequence
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);          // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("x\xED\xA0\x80"), 1u);     // UTF-16 surrogate
  EXPECT_EQ(FindInvalidUtf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
}

}  // namespace
}  // namespace otpu::models
