// Reading within ReadLimits (read_limits.h): each limit on a real gzip file, and the streamed
// inflate's gzip handling (profile_text_stream.h).
#include "lens/read_limits.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lens/gzip.h"
#include "lens/otpuprof.h"
#include "lens/profile_json.h"
#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

class ReadLimitsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "read_limits_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes `data` to a file of the test directory; returns its path.
  std::string Spit(const std::string& name, const std::string& data) const {
    std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << data;
    return path;
  }
  // A valid profile's JSON with `extra` (`"key":value`) added to its first profile object.
  static std::string WithExtra(const std::string& extra) {
    std::string json = *ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 20));
    const size_t at = json.find("\"kind\"");
    return json.insert(at, extra + ",");
  }

  fs::path dir_;
};

TEST_F(ReadLimitsTest, ArrayPastTheLimitIsDataLossNamingTheFileAndLimit) {
  std::string zeros = "[0";
  for (int i = 1; i < 1001; ++i) zeros += ",0";
  const std::string path =
      Spit("big.otpuprof", *GzipCompress(WithExtra("\"pad\":" + zeros + "]"), 6));
  ReadLimits limits;
  limits.max_array_elements = 1000;
  StatusOr<ProfileFile> f = Read(path, limits);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f.status().message().rfind(path + ": at byte ", 0), 0u) << f.status().message();
  EXPECT_NE(f.status().message().find("an array of more than 1000 elements, the limit"),
            std::string::npos)
      << f.status().message();
}

TEST_F(ReadLimitsTest, ArrayAtTheLimitIsRead) {
  ReadLimits limits;
  limits.max_array_elements = 1000;
  std::string zeros = "[0";
  for (int i = 1; i < 1000; ++i) zeros += ",0";
  const std::string path =
      Spit("ok.otpuprof", *GzipCompress(WithExtra("\"pad\":" + zeros + "]"), 6));
  StatusOr<ProfileFile> f = Read(path, limits);
  EXPECT_TRUE(f.ok()) << f.status().message();
}

TEST_F(ReadLimitsTest, InstructionRowsCountAgainstTheArrayLimit) {
  const std::string path = Spit(
      "rows.otpuprof", *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 50)), 6));
  ReadLimits limits;
  limits.max_array_elements = 49;
  StatusOr<ProfileFile> f = Read(path, limits);
  ASSERT_FALSE(f.ok());
  EXPECT_NE(f.status().message().find("more than 49 elements"), std::string::npos)
      << f.status().message();
}

TEST_F(ReadLimitsTest, TooManyValuesIsDataLossNamingTheLimit) {
  const std::string path = Spit(
      "many.otpuprof", *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 50)), 6));
  ReadLimits limits;
  limits.max_values = 300;
  StatusOr<ProfileFile> f = Read(path, limits);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f.status().message().rfind(path + ": at byte ", 0), 0u) << f.status().message();
  EXPECT_NE(f.status().message().find("more than 300 values, the limit of a profile file"),
            std::string::npos)
      << f.status().message();
}

TEST_F(ReadLimitsTest, TextPastTheLimitIsDataLossWhileInflating) {
  const std::string json = *ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 8000));
  const std::string path = Spit("long.otpuprof", *GzipCompress(json, 6));
  ReadLimits limits;
  limits.max_text_bytes = 300000;  // past the first inflated chunk (256 KiB)
  ASSERT_GT(json.size(), 2 * limits.max_text_bytes);
  StatusOr<ProfileFile> f = Read(path, limits);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f.status().message(),
            path + ": the JSON text is longer than 300000 bytes, the limit of a profile file");
}

TEST_F(ReadLimitsTest, PlainTextPastTheLimitIsDataLoss) {
  const std::string json = *ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 20));
  const std::string path = Spit("long.json", json);
  ReadLimits limits;
  limits.max_text_bytes = 1000;
  StatusOr<ProfileFile> f = Read(path, limits);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(),
            path + ": the JSON text is longer than 1000 bytes, the limit of a profile file");
}

TEST_F(ReadLimitsTest, OverlongNumberAcrossInflatedChunksIsNamedByOffset) {
  // The number starts near the end of the first 256 KiB chunk and runs into the next.
  std::string json = WithExtra("\"pad\":\"" + std::string((256 << 10) - 200, 'x') + "\"");
  const size_t at = json.find("\"cycles\":") + 9;
  json.insert(at, std::string(300, '1'));
  const std::string path = Spit("num.otpuprof", *GzipCompress(json, 6));
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), path + ": invalid JSON at byte " + std::to_string(at) +
                                      ": number longer than 64 characters");
}

TEST_F(ReadLimitsTest, FractionAcrossInflatedChunksIsReadExactly) {
  // The number runs from 8 bytes before the first 256 KiB chunk's end into the next.
  const std::string value = "0.11935319286735585";
  auto with_pad = [&](size_t pad) {
    std::string json = WithExtra("\"pad\":\"" + std::string(pad, 'x') + "\"");
    const size_t at = json.find("\"efficiency\":") + 13;
    return json.replace(at, json.find_first_of(",}", at) - at, value);
  };
  const std::string probe = with_pad(0);
  const size_t at = probe.find("\"efficiency\":") + 13;
  ASSERT_LT(at, size_t{256} << 10);
  const std::string json = with_pad((size_t{256} << 10) - 8 - at);
  ASSERT_EQ(json.find(value), (size_t{256} << 10) - 8);
  const std::string path = Spit("frac.otpuprof", *GzipCompress(json, 6));
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].roofline.efficiency, 0.11935319286735585);
}

TEST_F(ReadLimitsTest, ConcatenatedGzipMembersAreOneText) {
  const ProfileFile file = SyntheticFile({ProfileKind::kRtl}, 300);
  const std::string json = *ProfileFileToJson(file);
  const size_t half = json.size() / 2;
  const std::string path = Spit("two.otpuprof", *GzipCompress(json.substr(0, half), 6) +
                                                    *GzipCompress(json.substr(half), 1));
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_TRUE(*f == file);
}

TEST_F(ReadLimitsTest, BytesAfterTheGzipDataAreDataLossNamingTheOffset) {
  const std::string gz =
      *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 5)), 6);
  const std::string path = Spit("junk.otpuprof", gz + "junk");
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(),
            path + ": not gzip data at offset " + std::to_string(gz.size()) + " (expected 1f 8b)");
}

TEST_F(ReadLimitsTest, CorruptDeflateDataIsDataLossNamingTheMember) {
  std::string gz = *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 50)), 6);
  for (size_t i = 20; i < 60; ++i) gz[i] = char(~gz[i]);
  const std::string path = Spit("bad.otpuprof", gz);
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f.status().message(), path + ": corrupt or truncated gzip data in the member at offset 0");
}

}  // namespace
}  // namespace otpu::lens
