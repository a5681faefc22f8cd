// End-to-end tests of the real `otpu-lens` binary: record --sim on the board model, the
// subcommands shared with lens, exit codes and one stderr line per error.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "base/exit_codes.h"
#include "base/testing/subprocess.h"
#include "lens/otpuprof.h"

namespace otpu::host {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

class OtpuLensCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "otpu_lens_cli_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
    fs::create_directory(dir_ / "out");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string OutPath(const std::string& name) const { return (dir_ / "out" / name).string(); }
  static std::string Slurp(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  // Runs `binary args...`, capturing stdout and stderr (base/testing/subprocess.h).
  static Result Run(const char* binary, std::vector<std::string> args) {
    args.insert(args.begin(), binary);
    const testutil::ProcessResult r = testutil::RunProcess(args, {}, /*timeout_s=*/600);
    return {r.exited ? r.exit_code : -1, r.out, r.err};
  }
  Result OtpuLens(std::vector<std::string> args) const { return Run(OTPU_LENS_BINARY, args); }

  // The usage error of `args`: exit 2 and exactly one stderr line, which is returned.
  std::string UsageLine(std::vector<std::string> args) const {
    Result r = OtpuLens(args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    return r.err;
  }

  fs::path dir_;
};

// The "done when": two hw profiles with complete traces, and info shows them.
TEST_F(OtpuLensCliTest, RecordQwenTinyTwoTokensWritesTwoCompleteHwProfiles) {
  const std::string out = OutPath("q.otpuprof");
  Result r = OtpuLens({"record", "--sim", "--workload", "qwen-tiny", "--tokens", "2", "-o", out});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("qwen-tiny step 3: hw profile, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("qwen-tiny step 4: hw profile, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("drop 0, lost 0, streamed)"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("warning:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("qwen-tiny: check ok: logits 1x1000 at pos 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("wrote " + out + " (2 profiles)"), std::string::npos) << r.out;

  auto file = lens::Read(out);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file->profiles.size(), 2u);
  for (const lens::Profile& p : file->profiles) {
    EXPECT_EQ(p.kind, lens::ProfileKind::kHw) << p.name;
    ASSERT_TRUE(p.hwtrace.has_value()) << p.name;
    EXPECT_TRUE(p.hwtrace->complete) << p.name;
    EXPECT_EQ(p.hwtrace->drop, 0) << p.name;
    EXPECT_EQ(p.hwtrace->lost, 0) << p.name;
    EXPECT_EQ(p.hwtrace->records, p.hwtrace->count) << p.name;
    EXPECT_FALSE(p.instrs.empty()) << p.name;
    EXPECT_TRUE(p.board.has_value()) << p.name;
  }
  EXPECT_EQ(file->profiles[0].name, "qwen-tiny step 3");
  EXPECT_EQ(file->profiles[1].name, "qwen-tiny step 4");

  Result info = OtpuLens({"info", out});
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("profile 0: qwen-tiny step 3 (hw)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("profile 1: qwen-tiny step 4 (hw)"), std::string::npos) << info.out;
}

TEST_F(OtpuLensCliTest, RecordHelpListsItsOptionsOneLineEach) {
  Result r = OtpuLens({"record", "--help"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("usage: otpu-lens record -o FILE", 0), 0u) << r.out;
  for (const char* line : {"\n  -o, --out FILE ", "\n  --dev PREFIX ", "\n  --keep auto|stream|first|last ",
                           "\n  --open ", "\n  --port N ", "\n  --no-browser "}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << r.out;
  }
}

// SPEC 9: otpu-lens's exploring commands are lens's, with only the program name changed.
TEST_F(OtpuLensCliTest, SummaryDiffExportAndInfoJsonAreLenss) {
  const std::string a = OutPath("a.otpuprof"), b = OutPath("b.otpuprof");
  ASSERT_EQ(Run(LENS_BINARY, {"record", "mlp-small", "--isa", "-o", a}).code, 0);
  ASSERT_EQ(Run(LENS_BINARY, {"record", "mlp-small", "--isa", "--bucket", "32", "-o", b}).code, 0);
  for (std::vector<std::string> args : {std::vector<std::string>{"summary", a},
                                        {"summary", a, "--json"},
                                        {"info", a, "--json"},
                                        {"diff", a, b},
                                        {"diff", a, a, "--json"}}) {
    Result ours = OtpuLens(args), theirs = Run(LENS_BINARY, args);
    EXPECT_EQ(ours.code, theirs.code) << args[0] << ours.err;
    EXPECT_EQ(ours.out, theirs.out) << args[0];
  }
  Result exported = OtpuLens({"export", a, "--chrome-trace", "-o", OutPath("t.json")});
  ASSERT_EQ(exported.code, 0) << exported.err;
  ASSERT_EQ(Run(LENS_BINARY, {"export", a, "--chrome-trace", "-o", OutPath("u.json")}).code, 0);
  EXPECT_EQ(Slurp(OutPath("t.json")), Slurp(OutPath("u.json")));
  EXPECT_EQ(UsageLine({"summary"}), "otpu-lens summary: name a profile FILE\n");
}

// A free TCP port on 127.0.0.1 (bound, read, released).
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(addr);
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    return -1;
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

// The seed lists --port and --no-browser with record's options: record --open takes them.
TEST_F(OtpuLensCliTest, RecordOpenServesOnTheGivenPortWithoutABrowser) {
  const int port = FreePort();
  ASSERT_GT(port, 0);
  testutil::TestProcess p({OTPU_LENS_BINARY, "record", "--sim", "-o", OutPath("x.otpuprof"), "--open",
                           "--port", std::to_string(port), "--no-browser"},
                          {"BROWSER=/bin/false"});
  std::string serving;
  for (int i = 0; i < 20 && serving.empty(); ++i) {
    const std::string line = p.ReadLine(300);
    if (line.empty()) break;
    if (line.rfind("Lens is serving", 0) == 0) serving = line;
  }
  EXPECT_NE(serving.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << serving;
  EXPECT_TRUE(fs::exists(OutPath("x.otpuprof")));
}

// Off a terminal the status line comes only with --progress (the test above: no stderr), then
// as whole lines: what is being built, then the step with its cycles and records.
TEST_F(OtpuLensCliTest, RecordWithProgressPrintsStatusLinesOnStderr) {
  const std::string out = OutPath("m.otpuprof");
  Result r = OtpuLens({"record", "--sim", "--workload", "mlp-small", "--progress", "-o", out});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_EQ(r.err.rfind("otpu-lens record: building mlp-small\n", 0), 0u) << r.err;
  const size_t last = r.err.rfind("otpu-lens record: step 1/1 (traced), ");
  ASSERT_NE(last, std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" cycles, ", last), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" records, elapsed ", last), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(", about 0s left\n", last), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\r'), std::string::npos) << "no carriage returns off a terminal";
}

TEST_F(OtpuLensCliTest, ListIsLenssList) {
  Result ours = OtpuLens({"list"}), theirs = Run(LENS_BINARY, {"list"});
  ASSERT_EQ(ours.code, 0);
  EXPECT_EQ(ours.out, theirs.out);
  EXPECT_NE(ours.out.find("qwen-tiny"), std::string::npos);
}

TEST_F(OtpuLensCliTest, HelpPrintsTheExitStatusTable) {
  Result r = OtpuLens({"--help"});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find(exit_codes::ExitStatusHelp(exit_codes::Family::kLens)), std::string::npos) << r.out;
}

TEST_F(OtpuLensCliTest, BadOptionsAreUsageErrorsOfOneLine) {
  const std::string out = OutPath("x.otpuprof");
  EXPECT_EQ(UsageLine({}),
            "otpu-lens: no command (record, list, info, summary, diff, open, html, export); see "
            "otpu-lens --help\n");
  EXPECT_EQ(UsageLine({"frob"}),
            "otpu-lens: unknown command 'frob' (record, list, info, summary, diff, open, html, "
            "export)\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--port", "80"}),
            "otpu-lens record: --port: only with --open\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--no-browser"}),
            "otpu-lens record: --no-browser: only with --open\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--open", "--port", "-1"}),
            "otpu-lens record: --port -1: expected 0 (any free port) to 65535\n");
  EXPECT_EQ(UsageLine({"record", "--sim"}),
            "otpu-lens record: missing -o FILE (the profile to write)\n");
  EXPECT_NE(UsageLine({"record", "--sim", "-o", out, "--frob"})
                .find("otpu-lens record: unrecognised option '--frob'"),
            std::string::npos);
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--keep", "middle"}),
            "otpu-lens record: --keep middle: expected auto, stream, first or last\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--tokens", "0"}),
            "otpu-lens record: --tokens 0: trace at least 1 step\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--pos", "-1"}),
            "otpu-lens record: --pos -1: a position is at least 0\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--wformat", "mix"}),
            "otpu-lens record: --wformat mix: expected int8, int4 or fp4 (mix is for a "
            "checkpoint: --model)\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--workload", "nope"}),
            "otpu-lens record: unknown workload 'nope' (see otpu-lens list)\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--prompt-ids", "1,2"}),
            "otpu-lens record: --prompt-ids: only with a checkpoint (--model DIR), not a "
            "workload\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--model", "m", "--workload", "mlp"}),
            "otpu-lens record: --model and --workload: record a checkpoint or a workload\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--model", "m", "--wformat", "int2"}),
            "otpu-lens record: --wformat: weight format 'int2' is not int8|int4|fp4|mix\n");
  EXPECT_EQ(UsageLine({"record", "--sim", "-o", out, "--config", "fast"}),
            "otpu-lens record: --config: RTL configuration 'fast' is not built (built: sim, "
            "board)\n");
  EXPECT_EQ(UsageLine({"record", "--dev", "/dev/xdma9", "-o", out, "--config", "board"}),
            "otpu-lens record: --config: only with --sim (a card's configuration is its "
            "bitstream's, read from VERSION)\n");
  EXPECT_EQ(UsageLine({"record", "--dev", "/dev/xdma9", "-o", out, "--rtl-parity"}),
            "otpu-lens record: --rtl-parity: only with --sim (the rtl profile comes from the "
            "board model's core)\n");
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

// --rtl-parity: the traced steps (1 and 2, after an untraced step 0) are held against the rtl
// profiles the board model's core event tap gives for the same runs.
TEST_F(OtpuLensCliTest, RecordWithRtlParityChecksEveryTracedStep) {
  const std::string out = OutPath("p.otpuprof");
  Result r = OtpuLens({"record", "--sim", "--workload", "qwen-tiny", "--pos", "1", "--tokens", "2",
                       "--rtl-parity", "-o", out});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("rtl parity: the 2 hw profiles equal the rtl profiles of their runs ("),
            std::string::npos)
      << r.out;
  EXPECT_TRUE(fs::exists(out));
}

// --sim --config board: a board model of the card's configuration, which the host reads from
// VERSION and builds the workload for.
TEST_F(OtpuLensCliTest, RecordOnTheBoardConfigurationOfTheModel) {
  const std::string out = OutPath("b.otpuprof");
  Result r = OtpuLens({"record", "--sim", "--config", "board", "--workload", "mlp-small", "-o",
                       out});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("config board (VERSION 0x00800208)"), std::string::npos) << r.out;
  auto file = lens::Read(out);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file->profiles.size(), 1u);
  EXPECT_EQ(file->profiles[0].config.D, 128);
  EXPECT_EQ(file->profiles[0].config.MCOLS, 2);
  EXPECT_EQ(file->profiles[0].kind, lens::ProfileKind::kHw);
}

// Steps the workload does not have are found once it is built: still a usage error.
TEST_F(OtpuLensCliTest, TokensPastTheWorkloadsStepsIsAUsageError) {
  Result r = OtpuLens({"record", "--sim", "-o", OutPath("x.otpuprof"), "--tokens", "2"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(r.err,
            "otpu-lens record: --pos -1 --tokens 2: workload mlp-small has 1 step to trace\n");
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

// An -o whose directory cannot be written fails before anything runs; so does one that names a
// directory (it used to fail at the final rename, after the whole recording).
TEST_F(OtpuLensCliTest, UnwritableOutputLeavesNothingHalfWritten) {
  std::ofstream(OutPath("file")) << "x";
  Result r = OtpuLens({"record", "--sim", "-o", OutPath("file") + "/x.otpuprof"});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "otpu-lens record: " + OutPath("file") + "/x.otpuprof: directory " +
                       OutPath("file") + " is not writable (Not a directory)\n");
  EXPECT_TRUE(r.out.empty()) << r.out;

  fs::create_directory(OutPath("taken"));
  r = OtpuLens({"record", "--sim", "-o", OutPath("taken")});
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.err,
            "otpu-lens record: -o " + OutPath("taken") + ": is a directory, not a profile file\n");
  EXPECT_TRUE(r.out.empty()) << r.out;  // nothing ran
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir_ / "out")) left.push_back(e.path().filename());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"file", "taken"}));
  EXPECT_TRUE(fs::is_empty(OutPath("taken")));
}

}  // namespace
}  // namespace otpu::host
