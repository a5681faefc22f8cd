#include "lens/app/html_export.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "lens/app/page.h"
#include "lens/gzip.h"
#include "lens/otpuprof.h"
#include "lens/profile_json.h"
#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

std::string Base64DecodeForTest(std::string_view s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
  };
  std::string out;
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    int v = val(c);
    if (v < 0) continue;
    acc = acc << 6 | uint32_t(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((acc >> bits) & 0xFF);
    }
  }
  return out;
}

// The text of the page's lens-data element.
std::string EmbeddedData(const std::string& page) {
  size_t tag = page.find("<script data-name=");
  if (tag == std::string::npos) return "";
  size_t open = page.find('>', tag) + 1;
  return page.substr(open, page.find("</script>", open) - open);
}

class HtmlExportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "html_export_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string PathOf(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void Spit(const std::string& path, const std::string& data) const {
    std::ofstream(path, std::ios::binary) << data;
  }
  fs::path dir_;
};

TEST(Base64, MatchesTheRfc4648Vectors) {
  EXPECT_EQ(Base64Encode(""), "");
  EXPECT_EQ(Base64Encode("f"), "Zg==");
  EXPECT_EQ(Base64Encode("fo"), "Zm8=");
  EXPECT_EQ(Base64Encode("foo"), "Zm9v");
  EXPECT_EQ(Base64Encode("foob"), "Zm9vYg==");
  EXPECT_EQ(Base64Encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(Base64Encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, RoundTripsEveryByteValue) {
  std::string all;
  for (int i = 0; i < 256 * 3 + 1; ++i) all += char(i * 7);
  EXPECT_EQ(Base64DecodeForTest(Base64Encode(all)), all);
}

TEST(AppPage, HoldsTheDataMarkerOnceAndItsScripts) {
  std::string_view page = AppPage();
  size_t at = page.find(kPageDataMarker);
  ASSERT_NE(at, std::string_view::npos);
  EXPECT_EQ(page.find(kPageDataMarker, at + 1), std::string_view::npos);
  EXPECT_EQ(page.find("/*@LENS_JS@*/"), std::string_view::npos) << "scripts were not inlined";
  EXPECT_NE(page.find("function runSelftest"), std::string_view::npos);
  EXPECT_NE(page.find("const TimelineView"), std::string_view::npos);
}

TEST(AppPage, LoadsNoExternalResources) {
  std::string page(AppPage());
  for (const char* bad : {"src=\"http", "href=\"http", "<link", "@import", "url(http", "src=\"//",
                          "<iframe", "<img src"}) {
    EXPECT_EQ(page.find(bad), std::string::npos) << "the page references " << bad;
  }
}

TEST(EmbedProfile, PutsTheBytesAsBase64AndTheName) {
  StatusOr<std::string> page = EmbedProfile(AppPage(), std::string("\x1f\x8b\x00zz", 5), "a&b.otpuprof");
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->find(kPageDataMarker), std::string::npos);
  EXPECT_NE(page->find("data-name=\"a&amp;b.otpuprof\""), std::string::npos);
  EXPECT_EQ(Base64DecodeForTest(EmbeddedData(*page)), std::string("\x1f\x8b\x00zz", 5));
}

TEST(EmbedBaseline, PutsTheBaselineInItsOwnElement) {
  StatusOr<std::string> page = EmbedBaseline(AppPage(), std::string("\x1f\x8bzz", 4), "base.otpuprof");
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->find(kPageBaselineMarker), std::string::npos);
  EXPECT_NE(page->find(kPageDataMarker), std::string::npos) << "the profile's marker stays for EmbedProfile";
  EXPECT_NE(page->find("<script data-name=\"base.otpuprof\" id=\"lens-baseline\""), std::string::npos);
}

TEST(SourceFilesJson, HoldsTheKernelSourcesTextSafeForAScriptElement) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa}, 3);
  // A path as the recorder writes it from the build directory, and one that does not exist.
  f.profiles[0].sources = {{"../lens/app/page.h", 1, "", ""}, {"no/such/file.cc", 2, "", ""}};
  const std::string json = SourceFilesJson(f);
  EXPECT_NE(json.find("\"../lens/app/page.h\":\"// The Lens app page"), std::string::npos) << json.substr(0, 200);
  EXPECT_NE(json.find("#include \\u003cstring_view>"), std::string::npos);
  EXPECT_EQ(json.find('<'), std::string::npos);
  EXPECT_EQ(json.find("no/such/file.cc"), std::string::npos);
  StatusOr<std::string> page = EmbedCode(AppPage(), json);
  ASSERT_TRUE(page.ok()) << page.status().message();
  EXPECT_EQ(page->find(kPageCodeMarker), std::string::npos);
}

TEST(EmbedProfile, RejectsAPageWithoutTheMarker) {
  StatusOr<std::string> page = EmbedProfile("<html></html>", "x", "f");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(page.status().message().find(std::string(kPageDataMarker)), std::string::npos);
}

TEST_F(HtmlExportTest, EmbedsTheGzipBytesOfTheFile) {
  ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 50)).ok());
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("run.otpuprof"), PathOf("run.html"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  std::string page = Slurp(PathOf("run.html"));
  EXPECT_EQ(int64_t(page.size()), info->page_bytes);
  EXPECT_EQ(info->profiles, 1);
  EXPECT_EQ(Base64DecodeForTest(EmbeddedData(page)), Slurp(PathOf("run.otpuprof")));
  EXPECT_NE(page.find("data-name=\"run.otpuprof\""), std::string::npos);
}

TEST_F(HtmlExportTest, ParsesTheProfileOnce) {
  ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 50)).ok());
  const int64_t before = ProfileFilesParsed();
  ASSERT_TRUE(ExportHtml(PathOf("run.otpuprof"), PathOf("run.html")).ok());
  EXPECT_EQ(ProfileFilesParsed() - before, 1);
}

TEST_F(HtmlExportTest, ParsesTheProfileAndTheBaselineOnceEach) {
  ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 50)).ok());
  ASSERT_TRUE(Write(PathOf("base.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 40)).ok());
  const int64_t before = ProfileFilesParsed();
  ASSERT_TRUE(ExportHtml(PathOf("run.otpuprof"), PathOf("run.html"), PathOf("base.otpuprof")).ok());
  EXPECT_EQ(ProfileFilesParsed() - before, 2);
}

TEST_F(HtmlExportTest, CompressesAPlainJsonFile) {
  StatusOr<std::string> json = ProfileFileToJson(SyntheticFile({ProfileKind::kRtl, ProfileKind::kIsa}, 20));
  ASSERT_TRUE(json.ok());
  Spit(PathOf("run.json"), *json);
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("run.json"), PathOf("run.html"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->profiles, 2);
  std::string gz = Base64DecodeForTest(EmbeddedData(Slurp(PathOf("run.html"))));
  ASSERT_TRUE(IsGzip(gz));
  StatusOr<std::string> back = GzipDecompress(gz);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(*back, *json);
}

TEST_F(HtmlExportTest, RejectsANewerVersionNamingTheFile) {
  Spit(PathOf("new.json"), R"({"format":"openTPU-profile","version":2,"profiles":[]})");
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("new.json"), PathOf("new.html"));
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(info.status().message().find(PathOf("new.json")), std::string::npos);
  EXPECT_NE(info.status().message().find("version 2 is newer"), std::string::npos) << info.status().message();
  EXPECT_FALSE(fs::exists(PathOf("new.html")));
}

TEST_F(HtmlExportTest, RejectsAForeignFile) {
  Spit(PathOf("x.json"), R"({"format":"something-else","version":1,"profiles":[]})");
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("x.json"), PathOf("x.html"));
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().message().find("not an openTPU profile"), std::string::npos);
}

TEST_F(HtmlExportTest, MissingFileIsNotFoundNamingIt) {
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("none.otpuprof"), PathOf("x.html"));
  ASSERT_FALSE(info.ok());
  EXPECT_EQ(info.status().code(), StatusCode::kNotFound);
  EXPECT_NE(info.status().message().find(PathOf("none.otpuprof")), std::string::npos);
}

TEST_F(HtmlExportTest, UnwritableOutputNamesIt) {
  ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 5)).ok());
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("run.otpuprof"), PathOf("no/such/dir/x.html"));
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().message().find(PathOf("no/such/dir/x.html")), std::string::npos);
}

TEST_F(HtmlExportTest, LeavesNoTemporaryFileBehind) {
  ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 5)).ok());
  ASSERT_TRUE(ExportHtml(PathOf("run.otpuprof"), PathOf("run.html")).ok());
  for (const auto& e : fs::directory_iterator(dir_)) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
  }
}

}  // namespace
}  // namespace otpu::lens
