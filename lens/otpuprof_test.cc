#include "lens/otpuprof.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "lens/gzip.h"
#include "lens/profile_json.h"
#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

class OtpuprofTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "otpuprof_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string PathOf(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static void Spit(const std::string& path, const std::string& data) {
    std::ofstream(path, std::ios::binary) << data;
  }
  // Names of the files in the test directory.
  std::vector<std::string> Listing() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }

  fs::path dir_;
};

TEST_F(OtpuprofTest, WrittenFileReadsBackEqual) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa, ProfileKind::kHw}, 1000);
  std::string path = PathOf("run.otpuprof");
  ASSERT_TRUE(Write(path, f).ok());
  StatusOr<ProfileFile> back = Read(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(*back == f);
}

TEST_F(OtpuprofTest, WrittenFileIsGzipAndLeavesNoTemporary) {
  std::string path = PathOf("run.otpuprof");
  ASSERT_TRUE(Write(path, SyntheticFile({ProfileKind::kIsa}, 10)).ok());
  EXPECT_TRUE(IsGzip(Slurp(path)));
  EXPECT_EQ(Listing(), std::vector<std::string>{"run.otpuprof"});
}

TEST_F(OtpuprofTest, PlainJsonIsAccepted) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 20);
  std::string path = PathOf("run.json");
  Spit(path, *ProfileFileToJson(f));
  StatusOr<ProfileFile> back = Read(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(*back == f);
}

TEST_F(OtpuprofTest, FileCompressedByGzipToolIsRead) {
  ProfileFile f = SyntheticFile({ProfileKind::kBoard}, 50);
  std::string json = PathOf("run.json");
  Spit(json, *ProfileFileToJson(f));
  ASSERT_EQ(std::system(("gzip -9 '" + json + "'").c_str()), 0);
  StatusOr<ProfileFile> back = Read(json + ".gz");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(*back == f);
}

TEST_F(OtpuprofTest, WrittenFileIsReadByGzipTool) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa}, 30);
  std::string path = PathOf("run.otpuprof");
  ASSERT_TRUE(Write(path, f).ok());
  std::string out = PathOf("run.json");
  ASSERT_EQ(std::system(("gzip -dc < '" + path + "' > '" + out + "'").c_str()), 0);
  EXPECT_EQ(Slurp(out), *ProfileFileToJson(f));
}

TEST_F(OtpuprofTest, FailedWriteKeepsTheOldFileAndNoTemporary) {
  std::string path = PathOf("run.otpuprof");
  fs::create_directory(path);  // rename cannot replace a directory with a file
  Status s = Write(path, SyntheticFile({ProfileKind::kIsa}, 10));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message().rfind(path + ": cannot rename", 0), 0u) << s.message();
  EXPECT_EQ(Listing(), std::vector<std::string>{"run.otpuprof"});
  EXPECT_TRUE(fs::is_directory(path));
}

TEST_F(OtpuprofTest, WriteIntoMissingDirectoryNamesTheFile) {
  std::string path = PathOf("no/such/dir/run.otpuprof");
  Status s = Write(path, SyntheticFile({ProfileKind::kIsa}, 1));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path + ".tmp."), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("No such file or directory"), std::string::npos) << s.message();
}

TEST_F(OtpuprofTest, MissingFileIsNotFound) {
  std::string path = PathOf("absent.otpuprof");
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(f.status().message(), path + ": No such file or directory");
}

TEST_F(OtpuprofTest, TruncatedFileIsDataLossNamingTheFile) {
  std::string path = PathOf("run.otpuprof");
  ASSERT_TRUE(Write(path, SyntheticFile({ProfileKind::kIsa}, 500)).ok());
  std::string gz = Slurp(path);
  Spit(path, gz.substr(0, gz.size() - 100));
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(f.status().message().rfind(path + ": corrupt or truncated gzip data", 0), 0u)
      << f.status().message();
}

TEST_F(OtpuprofTest, GzippedForeignJsonIsNotAProfile) {
  std::string path = PathOf("run.json");
  Spit(path, *GzipCompress(R"({"format":"x","version":1})", 6));
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), path + ": not an openTPU profile (format \"x\")");
}

TEST_F(OtpuprofTest, NewerVersionNamesTheFile) {
  std::string path = PathOf("new.otpuprof");
  Spit(path, *GzipCompress(R"({"format":"openTPU-profile","version":2,"profiles":[]})", 6));
  StatusOr<ProfileFile> f = Read(path);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().message(), path + ": version 2 is newer than this reader (1)");
}

}  // namespace
}  // namespace otpu::lens
