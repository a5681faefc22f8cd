#include "lens/gzip.h"

#include <gtest/gtest.h>

namespace otpu::lens {
namespace {

std::string Sample(size_t n) {
  std::string s;
  for (size_t i = 0; s.size() < n; ++i) s += "[0," + std::to_string(i * 37 % 1000) + ",\"MM\"],";
  s.resize(n);
  return s;
}

TEST(Gzip, CompressedDataInflatesToTheSameBytes) {
  std::string data = Sample(100000);
  StatusOr<std::string> gz = GzipCompress(data, 6);
  ASSERT_TRUE(gz.ok()) << gz.status().message();
  EXPECT_LT(gz->size(), data.size() / 2);
  StatusOr<std::string> back = GzipDecompress(*gz);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, data);
}

TEST(Gzip, MagicIsDetected) {
  EXPECT_TRUE(IsGzip(*GzipCompress("x", 6)));
  EXPECT_FALSE(IsGzip("{\"format\":1}"));
  EXPECT_FALSE(IsGzip("\x1f"));
}

TEST(Gzip, EmptyInputRoundTrips) {
  StatusOr<std::string> back = GzipDecompress(*GzipCompress("", 6));
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(*back, "");
}

TEST(Gzip, ConcatenatedMembersInflateInOrder) {
  std::string a = Sample(5000), b = "tail";
  StatusOr<std::string> back = GzipDecompress(*GzipCompress(a, 6) + *GzipCompress(b, 1));
  ASSERT_TRUE(back.ok()) << back.status().message();
  // The trailer names the last (4-byte) member: the first one needs the buffer to grow.
  EXPECT_EQ(*back, a + b);
}

TEST(Gzip, TruncatedDataIsDataLoss) {
  std::string gz = *GzipCompress(Sample(50000), 6);
  StatusOr<std::string> back = GzipDecompress(gz.substr(0, gz.size() / 2));
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(back.status().message().find("truncated"), std::string::npos)
      << back.status().message();
}

TEST(Gzip, ShortMemberNamesItsSize) {
  StatusOr<std::string> back = GzipDecompress(std::string("\x1f\x8b\x08\x00", 4));
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("truncated gzip data: 4 bytes"), std::string::npos)
      << back.status().message();
}

TEST(Gzip, CorruptDataIsDataLoss) {
  std::string gz = *GzipCompress(Sample(50000), 6);
  for (size_t i = 20; i < 60; ++i) gz[i] = char(gz[i] ^ 0x5A);
  StatusOr<std::string> back = GzipDecompress(gz);
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(back.status().message().find("corrupt"), std::string::npos) << back.status().message();
}

TEST(Gzip, TrailingBytesNameTheirOffset) {
  std::string gz = *GzipCompress("abc", 6);
  StatusOr<std::string> back = GzipDecompress(gz + "junk");
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.status().message().find("offset " + std::to_string(gz.size())), std::string::npos)
      << back.status().message();
}

TEST(Gzip, BadLevelIsRejected) {
  StatusOr<std::string> gz = GzipCompress("abc", 99);
  ASSERT_FALSE(gz.ok());
  EXPECT_NE(gz.status().message().find("level 99"), std::string::npos);
}

}  // namespace
}  // namespace otpu::lens
