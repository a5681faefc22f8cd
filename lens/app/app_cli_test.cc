// End-to-end tests of the real `lens` binary's app commands: html, open, summary, export.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "lens/gzip.h"
#include "lens/otpuprof.h"
#include "lens/synthetic.h"
#include "rapidjson/document.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

class LensAppCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "lens_app_cli_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa, ProfileKind::kRtl}, 400)).ok());
    Spit("newer.json", R"({"format":"openTPU-profile","version":2,"profiles":[]})");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string PathOf(const std::string& name) const { return (dir_ / name).string(); }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  void Spit(const std::string& name, const std::string& data) const {
    std::ofstream(PathOf(name), std::ios::binary) << data;
  }
  // Starts `lens args...` with stdout and stderr going to files; returns its pid.
  pid_t Spawn(std::vector<std::string> args) const {
    std::string out = PathOf("stdout"), err = PathOf("stderr");
    args.insert(args.begin(), LENS_BINARY);
    pid_t pid = fork();
    if (pid == 0) {
      int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(o, 1);
      dup2(e, 2);
      unsetenv("DISPLAY");
      unsetenv("WAYLAND_DISPLAY");
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
    return pid;
  }
  Result Lens(std::vector<std::string> args) const {
    pid_t pid = Spawn(std::move(args));
    int status = 0;
    waitpid(pid, &status, 0);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, Slurp(PathOf("stdout")), Slurp(PathOf("stderr"))};
  }
  static void ExpectError(const Result& r, int code, const std::string& what) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  fs::path dir_;
};

TEST_F(LensAppCliTest, HtmlWritesAStandalonePage) {
  Result r = Lens({"html", PathOf("run.otpuprof"), "-o", PathOf("run.html")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + PathOf("run.html")), std::string::npos) << r.out;
  std::string page = Slurp(PathOf("run.html"));
  EXPECT_NE(page.find("<script data-name=\"run.otpuprof\" id=\"lens-data\""), std::string::npos);
  EXPECT_EQ(page.find("<!--@LENS_DATA@-->"), std::string::npos);
}

TEST_F(LensAppCliTest, HtmlOfANewerVersionIsABadFile) {
  ExpectError(Lens({"html", PathOf("newer.json"), "-o", PathOf("x.html")}), 4,
              "lens html: " + PathOf("newer.json") + ": version 2 is newer than this reader (1)");
  EXPECT_FALSE(fs::exists(PathOf("x.html")));
}

TEST_F(LensAppCliTest, HtmlWithoutOutIsAUsageError) {
  ExpectError(Lens({"html", PathOf("run.otpuprof")}), 2, "lens html: missing -o OUT");
}

TEST_F(LensAppCliTest, SummaryPrintsWhereTheCyclesWent) {
  Result r = Lens({"summary", PathOf("run.otpuprof")});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("where port B's cycles went"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("profile 1: synthetic-rtl (rtl)"), std::string::npos) << r.out;
}

TEST_F(LensAppCliTest, SummaryJsonIsOneObject) {
  Result r = Lens({"summary", PathOf("run.otpuprof"), "--json"});
  EXPECT_EQ(r.code, 0) << r.err;
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  ASSERT_TRUE(d.IsObject()) << r.out.substr(0, 200);
  EXPECT_EQ(d["profiles"].GetArray().Size(), 2u);
}

TEST_F(LensAppCliTest, SummaryOfAMissingFileNamesIt) {
  ExpectError(Lens({"summary", PathOf("none.otpuprof")}), 1, PathOf("none.otpuprof"));
}

TEST_F(LensAppCliTest, ExportWritesAChromeTrace) {
  Result r = Lens({"export", PathOf("run.otpuprof"), "--chrome-trace", "-o", PathOf("t.json.gz")});
  EXPECT_EQ(r.code, 0) << r.err;
  StatusOr<std::string> json = GzipDecompress(Slurp(PathOf("t.json.gz")));
  ASSERT_TRUE(json.ok());
  rapidjson::Document d;
  d.Parse(json->c_str());
  ASSERT_TRUE(d.IsObject());
  EXPECT_GT(d["traceEvents"].GetArray().Size(), 800u);
}

TEST_F(LensAppCliTest, ExportWithoutAFormatIsAUsageError) {
  ExpectError(Lens({"export", PathOf("run.otpuprof"), "-o", PathOf("t.json.gz")}), 2,
              "lens export: name a format: --chrome-trace");
}

TEST_F(LensAppCliTest, OpenOfABadFileFailsBeforeServing) {
  ExpectError(Lens({"open", PathOf("newer.json"), "--no-browser"}), 4, "version 2 is newer");
}

TEST_F(LensAppCliTest, OpenServesTheFileAtThePrintedUrl) {
  pid_t pid = Spawn({"open", PathOf("run.otpuprof"), "--no-browser", "--port", "0"});
  std::smatch m;
  std::string out;
  const std::regex url(R"(http://127\.0\.0\.1:(\d+)/)");
  for (int i = 0; i < 500 && !std::regex_search(out = Slurp(PathOf("stdout")), m, url); ++i) {
    usleep(10000);
  }
  ASSERT_FALSE(m.empty()) << out << Slurp(PathOf("stderr"));
  httplib::Client client("127.0.0.1", std::stoi(m[1].str()));
  httplib::Result r = client.Get("/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->body, Slurp(PathOf("run.otpuprof")));
  EXPECT_EQ(client.Get("/other")->status, 404);
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
}

TEST_F(LensAppCliTest, HtmlWithABaselineEmbedsBothFiles) {
  ASSERT_TRUE(Write(PathOf("base.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 300)).ok());
  Result r = Lens({"html", PathOf("run.otpuprof"), "-o", PathOf("cmp.html"), "--baseline", PathOf("base.otpuprof")});
  EXPECT_EQ(r.code, 0) << r.err;
  std::string page = Slurp(PathOf("cmp.html"));
  EXPECT_NE(page.find("<script data-name=\"run.otpuprof\" id=\"lens-data\""), std::string::npos);
  EXPECT_NE(page.find("<script data-name=\"base.otpuprof\" id=\"lens-baseline\""), std::string::npos);
  EXPECT_EQ(page.find("<!--@LENS_BASELINE@-->"), std::string::npos);
}

TEST_F(LensAppCliTest, HtmlWithABadBaselineIsABadFile) {
  ExpectError(Lens({"html", PathOf("run.otpuprof"), "-o", PathOf("x.html"), "--baseline", PathOf("newer.json")}), 4,
              "lens html: " + PathOf("newer.json") + ": version 2 is newer than this reader (1)");
  EXPECT_FALSE(fs::exists(PathOf("x.html")));
}

TEST_F(LensAppCliTest, OpenWithABadBaselineFailsBeforeServing) {
  ExpectError(Lens({"open", PathOf("run.otpuprof"), "--no-browser", "--baseline", PathOf("newer.json")}), 4,
              "lens open: --baseline " + PathOf("newer.json") + ": version 2 is newer");
}

TEST_F(LensAppCliTest, OpenWithABaselineServesAPageThatCarriesIt) {
  ASSERT_TRUE(Write(PathOf("base.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 300)).ok());
  pid_t pid = Spawn({"open", PathOf("run.otpuprof"), "--no-browser", "--port", "0", "--baseline", PathOf("base.otpuprof")});
  std::smatch m;
  std::string out;
  const std::regex url(R"(http://127\.0\.0\.1:(\d+)/)");
  for (int i = 0; i < 500 && !std::regex_search(out = Slurp(PathOf("stdout")), m, url); ++i) usleep(10000);
  ASSERT_FALSE(m.empty()) << out << Slurp(PathOf("stderr"));
  httplib::Client client("127.0.0.1", std::stoi(m[1].str()));
  httplib::Result r = client.Get("/");
  ASSERT_TRUE(r);
  EXPECT_NE(r->body.find("<script data-name=\"base.otpuprof\" id=\"lens-baseline\""), std::string::npos);
  EXPECT_EQ(client.Get("/profile")->body, Slurp(PathOf("run.otpuprof")));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
}

}  // namespace
}  // namespace otpu::lens
