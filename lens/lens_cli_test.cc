// End-to-end tests of the real `lens` binary: exit codes, stdout, and one stderr line per error.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "base/exit_codes.h"
#include "base/subprocess.h"
#include "lens/gzip.h"
#include "lens/read_limits.h"
#include "lens/otpuprof.h"
#include "lens/profile_json.h"
#include "lens/synthetic.h"
#include "rapidjson/document.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

struct Result {
  int code = -1;
  std::string out, err;
};

class LensCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "lens_cli_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
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

  // Runs `lens args...` with stdout and stderr captured in files, in at most `mb` MiB of
  // address space (0: no limit).
  Result Lens(std::vector<std::string> args, int64_t mb = 0) const {
    SubprocessOptions o;
    o.argv = std::move(args);
    o.argv.insert(o.argv.begin(), LENS_BINARY);
    o.out = Stream::File(PathOf("stdout"));
    o.err = Stream::File(PathOf("stderr"));
    if (mb > 0) {
      const rlimit lim{rlim_t(mb) << 20, rlim_t(mb) << 20};
      o.before_exec = [lim] { setrlimit(RLIMIT_AS, &lim); };
    }
    StatusOr<SubprocessResult> r = RunSubprocess(o);
    if (!r.ok()) return {-1, "", r.status().message()};
    return {r->exited ? r->exit_code : -1, Slurp(PathOf("stdout")), Slurp(PathOf("stderr"))};
  }

  // Expects exit `code` and exactly one stderr line holding `what`.
  static void ExpectError(const Result& r, int code, const std::string& what) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.back(), '\n');
  }

  fs::path dir_;
};

TEST_F(LensCliTest, ListNamesEveryWorkload) {
  Result r = Lens({"list"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("mlp-small       SwiGLU MLP"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("qwen-tiny"), std::string::npos) << r.out;
}

TEST_F(LensCliTest, RecordedProfileIsSummarisedByInfo) {
  std::string file = PathOf("demo.otpuprof");
  Result rec = Lens({"record", "mlp-small", "--isa", "-o", file, "--bucket", "32"});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("mlp-small: check ok"), std::string::npos) << rec.out;
  EXPECT_NE(rec.out.find("wrote " + file + " (1 profile)"), std::string::npos) << rec.out;

  Result info = Lens({"info", file});
  ASSERT_EQ(info.code, 0) << info.err;
  for (const char* want :
       {"profile 0: mlp-small (isa)", "cycles", "roofline      bound", "efficiency", "instructions",
        "config        S=1 D=32 MCOLS=8", "notes", "of the DRAM roofline"}) {
    EXPECT_NE(info.out.find(want), std::string::npos) << want << "\n" << info.out;
  }
  StatusOr<ProfileFile> f = Read(file);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->profiles[0].slices[0].buckets.c[0], 31);
}

TEST_F(LensCliTest, QwenTinyRecordsTheTracedPositionAndInfoReadsIt) {
  std::string file = PathOf("q.otpuprof");
  Result rec = Lens({"record", "qwen-tiny", "--pos", "8", "--isa", "-o", file});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("qwen-tiny: check ok: logits 1x1000 at pos 8"), std::string::npos)
      << rec.out;
  EXPECT_NE(rec.out.find("wrote " + file + " (1 profile)"), std::string::npos) << rec.out;
  Result info = Lens({"info", file});
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("profile 0: qwen-tiny (isa)"), std::string::npos) << info.out;
}

TEST_F(LensCliTest, QwenTinyRunsEarlierPositionsOnTheIsaAndRecordsThePosOnTheRtl) {
  std::string file = PathOf("q.otpuprof");
  Result rec = Lens({"record", "qwen-tiny", "--pos", "8", "-o", file});
  ASSERT_EQ(rec.code, 0) << rec.err;
  for (const char* want : {"qwen-tiny: rtl profile",
                           "qwen-tiny: 8 untraced steps on the ISA simulator, then 1 on the RTL",
                           "qwen-tiny: check ok: logits 1x1000 at pos 8"})
    EXPECT_NE(rec.out.find(want), std::string::npos) << want << "\n" << rec.out;
  Result info = Lens({"info", file});
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("profile 0: qwen-tiny (rtl)"), std::string::npos) << info.out;
}

TEST_F(LensCliTest, NegativePosIsAUsageError) {
  ExpectError(Lens({"record", "qwen-tiny", "--isa", "-o", PathOf("x"), "--pos", "-1"}), 2,
              "lens record: --pos -1: a position is at least 0");
}

TEST_F(LensCliTest, HelpListsTheCommandsOneLineEachAndHowToGetTheirHelp) {
  Result r = Lens({"--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* cmd : {"list", "record", "info", "summary", "diff", "open", "html", "export"}) {
    EXPECT_NE(r.out.find("\n  " + std::string(cmd) + " "), std::string::npos) << cmd << r.out;
  }
  EXPECT_NE(r.out.find("lens COMMAND --help"), std::string::npos) << r.out;
}

TEST_F(LensCliTest, CommandHelpListsItsOptionsOneLineEach) {
  Result r = Lens({"record", "--help"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("usage: lens record WORKLOAD... -o FILE", 0), 0u) << r.out;
  for (const char* line : {"\n  -o, --out FILE ", "\n  --stall N ", "\n  --config CONFIG ",
                           "\n  --open ", "\n  --port N ", "\n  --no-browser ", "\n  -h, --help "}) {
    EXPECT_NE(r.out.find(line), std::string::npos) << line << r.out;
  }
  EXPECT_EQ(Lens({"help", "record"}).out, r.out);
  for (const char* cmd : {"list", "info", "summary", "diff", "open", "html", "export"}) {
    Result c = Lens({cmd, "--help"});
    EXPECT_EQ(c.code, 0) << cmd << c.err;
    EXPECT_EQ(c.out.rfind("usage: lens " + std::string(cmd), 0), 0u) << c.out;
  }
}

TEST_F(LensCliTest, HelpOfAnUnknownCommandIsAUsageError) {
  ExpectError(Lens({"help", "frob"}), 2, "lens help: unknown command 'frob'");
  ExpectError(Lens({"help", "record", "info"}), 2, "lens help: one COMMAND at a time");
}

TEST_F(LensCliTest, InfoJsonHasTheDocumentedFields) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa, ProfileKind::kHw}, 20);
  Spit("x.otpuprof", *GzipCompress(*ProfileFileToJson(f), 6));
  Result r = Lens({"info", PathOf("x.otpuprof"), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  rapidjson::Document d;
  ASSERT_FALSE(d.Parse(r.out.c_str()).HasParseError()) << r.out;
  EXPECT_EQ(std::string(d["file"].GetString()), PathOf("x.otpuprof"));
  EXPECT_EQ(std::string(d["format"].GetString()), f.format);
  EXPECT_EQ(d["version"].GetInt(), f.version);
  EXPECT_TRUE(d["tool_version"].IsString());
  ASSERT_EQ(d["profiles"].Size(), 2u);
  const rapidjson::Value& p = d["profiles"][1];
  EXPECT_EQ(p["index"].GetInt(), 1);
  EXPECT_EQ(std::string(p["name"].GetString()), f.profiles[1].name);
  EXPECT_EQ(std::string(p["kind"].GetString()), "hw");
  EXPECT_EQ(p["cycles"].GetInt64(), f.profiles[1].cycles);
  EXPECT_EQ(p["roofline"]["bound"].GetInt64(), f.profiles[1].roofline.bound);
  EXPECT_EQ(p["instructions"].GetInt64(), int64_t(f.profiles[1].instrs.size()));
  EXPECT_EQ(p["config"]["D"].GetInt(), f.profiles[1].config.D);
  EXPECT_TRUE(p["hwtrace"].IsObject());
  EXPECT_EQ(p["hwtrace"]["count"].GetInt64(), f.profiles[1].hwtrace->count);
  EXPECT_TRUE(d["profiles"][0]["hwtrace"].IsNull());
  EXPECT_TRUE(p["notes"].IsArray());
}

TEST_F(LensCliTest, ExportWritesPlainJsonUnlessTheNameEndsInGz) {
  Spit("x.otpuprof", *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kHw}, 20)), 6));
  ASSERT_EQ(Lens({"export", PathOf("x.otpuprof"), "--chrome-trace", "-o", PathOf("t.json")}).code, 0);
  const std::string plain = Slurp(PathOf("t.json"));
  rapidjson::Document d;
  EXPECT_FALSE(d.Parse(plain.c_str()).HasParseError()) << plain.substr(0, 100);
  EXPECT_TRUE(d.HasMember("traceEvents"));
  ASSERT_EQ(Lens({"export", PathOf("x.otpuprof"), "--chrome-trace", "--out", PathOf("t.json.gz")}).code, 0);
  StatusOr<std::string> inflated = GzipDecompress(Slurp(PathOf("t.json.gz")));
  ASSERT_TRUE(inflated.ok()) << inflated.status().message();
  EXPECT_EQ(*inflated, plain);
}

TEST_F(LensCliTest, PortAndNoBrowserNeedOpen) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--port", "8080"}), 2,
              "lens record: --port: only with --open");
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--no-browser"}), 2,
              "lens record: --no-browser: only with --open");
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--open", "--port", "70000"}),
              2, "lens record: --port 70000: expected 0 (any free port) to 65535");
  EXPECT_FALSE(fs::exists(PathOf("x")));
}

TEST_F(LensCliTest, HelpPrintsTheExitStatusTable) {
  Result r = Lens({"--help"});
  EXPECT_NE(r.out.find(exit_codes::ExitStatusHelp(exit_codes::Family::kLens)), std::string::npos) << r.out;
}

TEST_F(LensCliTest, NoCommandIsAUsageError) { ExpectError(Lens({}), 2, "lens: no command"); }

TEST_F(LensCliTest, UnknownCommandIsNamed) {
  ExpectError(Lens({"frob"}), 2, "lens: unknown command 'frob'");
}

TEST_F(LensCliTest, UnknownOptionIsNamed) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--frob"}), 2, "'--frob'");
}

TEST_F(LensCliTest, MissingOutputIsNamed) {
  ExpectError(Lens({"record", "mlp-small", "--isa"}), 2, "lens record: missing -o FILE");
}

TEST_F(LensCliTest, MissingWorkloadIsAUsageError) {
  ExpectError(Lens({"record", "--isa", "-o", PathOf("x")}), 2, "lens record: name a workload");
}

TEST_F(LensCliTest, RecordWithoutIsaWritesAnRtlProfileWithOrderedTimingsAndFullBuckets) {
  std::string file = PathOf("r.otpuprof");
  Result rec = Lens({"record", "mlp-small", "-o", file});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("mlp-small: rtl profile"), std::string::npos) << rec.out;
  EXPECT_NE(rec.out.find("mlp-small: check ok"), std::string::npos) << rec.out;
  Result info = Lens({"info", file});
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("profile 0: mlp-small (rtl)"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("MEM=ideal"), std::string::npos) << info.out;

  StatusOr<ProfileFile> f = Read(file);
  ASSERT_TRUE(f.ok()) << f.status().message();
  const Profile& p = f->profiles[0];
  EXPECT_EQ(p.kind, ProfileKind::kRtl);
  ASSERT_FALSE(p.instrs.empty());
  for (const InstrRow& r : p.instrs) {
    EXPECT_GE(r.dispatch, 0) << "instr " << r.idx;
    EXPECT_LE(r.dispatch, r.ready) << "instr " << r.idx;
    EXPECT_LE(r.ready, r.start) << "instr " << r.idx;
    EXPECT_LE(r.start, r.end) << "instr " << r.idx;
    EXPECT_LT(r.end, p.cycles) << "instr " << r.idx;
  }
  // The windows tile the run: each ends n cycles after the one before, the last at the halt.
  const Buckets& b = p.slices[0].buckets;
  ASSERT_GT(b.size(), 1u);
  int64_t covered = 0, bm = 0;
  for (size_t w = 0; w < b.size(); ++w) {
    EXPECT_EQ(b.c[w], covered + b.n[w] - 1) << "window " << w;
    covered += b.n[w];
    bm += b.bm[w];
  }
  EXPECT_EQ(covered, p.cycles);
  EXPECT_EQ(bm, p.slices[0].ports.bmxu);
}

TEST_F(LensCliTest, RecordStallChangesTheCyclesButNotTheCheck) {
  std::string ideal = PathOf("i.otpuprof"), stall = PathOf("s.otpuprof");
  ASSERT_EQ(Lens({"record", "mlp-small", "-o", ideal}).code, 0);
  Result rec = Lens({"record", "mlp-small", "--stall", "30", "-o", stall});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("mlp-small: check ok"), std::string::npos) << rec.out;
  StatusOr<ProfileFile> a = Read(ideal), b = Read(stall);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(b->profiles[0].config.MEM, "stall 30");
  EXPECT_GT(b->profiles[0].cycles, a->profiles[0].cycles);
  EXPECT_EQ(b->profiles[0].instrs.size(), a->profiles[0].instrs.size());
}

TEST_F(LensCliTest, DiffOfTwoRecordingsNamesTheInstructionsThatMoved) {
  std::string ideal = PathOf("i.otpuprof"), stall = PathOf("s.otpuprof");
  ASSERT_EQ(Lens({"record", "mlp-small", "-o", ideal}).code, 0);
  ASSERT_EQ(Lens({"record", "mlp-small", "--stall", "30", "-o", stall}).code, 0);
  Result same = Lens({"diff", ideal, ideal});
  EXPECT_EQ(same.code, 0) << same.err;
  EXPECT_EQ(same.out, "equal: profile \"mlp-small\"\n");
  Result d = Lens({"diff", ideal, stall});
  EXPECT_EQ(d.code, 1) << d.err;
  EXPECT_NE(d.out.find("profile \"mlp-small\": differs"), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("  cycles "), std::string::npos) << d.out;
  EXPECT_NE(d.out.find("moved most:\n    pc "), std::string::npos) << d.out;
  EXPECT_NE(d.out.find(" at workloads/kernels/mlp.cc:"), std::string::npos) << d.out;
  Result j = Lens({"diff", ideal, stall, "--json"});
  EXPECT_EQ(j.code, 1);
  EXPECT_EQ(j.out.rfind("{\"equal\":false,", 0), 0u) << j.out;
}

TEST_F(LensCliTest, DiffErrorsHaveTheirCodes) {
  std::string ideal = PathOf("i.otpuprof");
  ASSERT_EQ(Lens({"record", "mlp-small", "--isa", "-o", ideal}).code, 0);
  ExpectError(Lens({"diff", ideal}), 2, "lens diff: name two profile files, BASE and NEW (got 1)");
  ExpectError(Lens({"diff", ideal, ideal, "--top", "-1"}), 2, "lens diff: --top must be >= 0");
  Spit("bad.otpuprof", "{\"format\":\"x\"}");
  ExpectError(Lens({"diff", ideal, PathOf("bad.otpuprof")}), 4, "bad.otpuprof");
  ExpectError(Lens({"diff", PathOf("none.otpuprof"), ideal}), 1, "none.otpuprof");
}

TEST_F(LensCliTest, RecordAxiRunsTheBoardsDramAlsoWithStalls) {
  std::string axi = PathOf("a.otpuprof"), both = PathOf("as.otpuprof");
  Result rec = Lens({"record", "mlp-small", "--axi", "-o", axi});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("mlp-small: check ok"), std::string::npos) << rec.out;
  rec = Lens({"record", "mlp-small", "--axi", "--stall", "20", "-o", both});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("mlp-small: check ok"), std::string::npos) << rec.out;
  StatusOr<ProfileFile> a = Read(axi), b = Read(both);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->profiles[0].config.MEM, "axi");
  EXPECT_EQ(b->profiles[0].config.MEM, "axi stall 20");
  EXPECT_GT(b->profiles[0].cycles, a->profiles[0].cycles);
}

// Both RTL configurations are in every build: --config picks the core per run.
TEST_F(LensCliTest, RecordConfigBoardRunsTheBoardConfigurationsCore) {
  std::string out = PathOf("b.otpuprof");
  Result rec = Lens({"record", "mlp-small", "--config", "board", "-o", out});
  ASSERT_EQ(rec.code, 0) << rec.err;
  EXPECT_NE(rec.out.find("mlp-small: check ok"), std::string::npos) << rec.out;
  StatusOr<ProfileFile> f = Read(out);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->profiles[0].kind, ProfileKind::kRtl);
  EXPECT_EQ(f->profiles[0].config.D, 128);
  EXPECT_EQ(f->profiles[0].config.MCOLS, 2);
  EXPECT_EQ(f->profiles[0].config.FIFO_DEPTH, 1024);
}

TEST_F(LensCliTest, RecordUnknownConfigIsAUsageError) {
  ExpectError(Lens({"record", "mlp-small", "--config", "fast", "-o", PathOf("x")}), 2,
              "lens record: --config: RTL configuration 'fast' is not built (built: sim, board)");
  EXPECT_FALSE(fs::exists(PathOf("x")));
}

TEST_F(LensCliTest, RecordAxiWithIsaIsAUsageError) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "--axi", "-o", PathOf("x")}), 2,
              "lens record: --axi selects an RTL memory; drop --isa");
}

TEST_F(LensCliTest, RecordStallOutsideAPercentIsAUsageError) {
  ExpectError(Lens({"record", "mlp-small", "--stall", "100", "-o", PathOf("x")}), 2,
              "lens record: --stall 100: expected a percent of cycles from 0 to 99");
  ExpectError(Lens({"record", "mlp-small", "--stall", "-1", "-o", PathOf("x")}), 2,
              "--stall -1");
}

TEST_F(LensCliTest, RecordStallWithIsaIsAUsageError) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "--stall", "5", "-o", PathOf("x")}), 2,
              "lens record: --stall selects an RTL memory; drop --isa");
}

TEST_F(LensCliTest, UnknownWorkloadIsNamed) {
  ExpectError(Lens({"record", "nope", "--isa", "-o", PathOf("x")}), 2, "unknown workload 'nope'");
  EXPECT_FALSE(fs::exists(PathOf("x")));
}

TEST_F(LensCliTest, BadBucketIsNamed) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--bucket", "0"}), 2,
              "lens record: --bucket 0");
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--bucket", "many"}), 2,
              "'--bucket'");
}

TEST_F(LensCliTest, PosBeyondTheStepsIsNamed) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", PathOf("x"), "--pos", "5"}), 2,
              "lens record: --pos 5: workload mlp-small has steps 0..0");
}

TEST_F(LensCliTest, UnwritableOutputIsAFailureNamingTheFile) {
  std::string file = PathOf("no/dir/out.otpuprof");
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", file}), 1, file);
}

TEST_F(LensCliTest, InfoWithoutFileIsAUsageError) {
  ExpectError(Lens({"info"}), 2, "lens info: name a profile FILE");
}

TEST_F(LensCliTest, InfoOfTwoFilesNamesTheSecond) {
  ExpectError(Lens({"info", "a.otpuprof", "b.otpuprof"}), 2,
              "lens info: one FILE at a time (also got 'b.otpuprof')");
}

TEST_F(LensCliTest, ListTakesNoArguments) {
  ExpectError(Lens({"list", "mlp"}), 2, "lens list: unexpected argument 'mlp'");
}

TEST_F(LensCliTest, InfoOfAMissingFileIsAFailure) {
  ExpectError(Lens({"info", PathOf("absent.otpuprof")}), 1, PathOf("absent.otpuprof"));
}

TEST_F(LensCliTest, InfoOfAnotherFormatIsABadFile) {
  Spit("run.json", R"({"format":"x","version":1})");
  ExpectError(Lens({"info", PathOf("run.json")}), 4,
              PathOf("run.json") + ": not an openTPU profile (format \"x\")");
}

TEST_F(LensCliTest, InfoOfANewerVersionIsABadFile) {
  Spit("new.otpuprof",
       *GzipCompress(R"({"format":"openTPU-profile","version":2,"profiles":[]})", 6));
  ExpectError(Lens({"info", PathOf("new.otpuprof")}), 4, "version 2 is newer than this reader (1)");
}

TEST_F(LensCliTest, InfoOfATruncatedFileIsABadFile) {
  std::string gz = *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 200)), 6);
  Spit("cut.otpuprof", gz.substr(0, gz.size() / 2));
  ExpectError(Lens({"info", PathOf("cut.otpuprof")}), 4,
              PathOf("cut.otpuprof") + ": corrupt or truncated gzip");
}

TEST_F(LensCliTest, InfoOfInvalidJsonIsABadFile) {
  Spit("bad.json", "{\"format\": ");
  ExpectError(Lens({"info", PathOf("bad.json")}), 4, "invalid JSON at byte");
}

// Regression: `lens html x -o x` destroyed the input and exited 0.
TEST_F(LensCliTest, OutputEqualToTheInputIsRefused) {
  const std::string gz = *GzipCompress(*ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 20)), 6);
  Spit("x.otpuprof", gz);
  ExpectError(Lens({"html", PathOf("x.otpuprof"), "-o", PathOf("x.otpuprof")}), 2,
              "lens html: -o " + PathOf("x.otpuprof") + ": is the input file");
  ExpectError(Lens({"export", PathOf("x.otpuprof"), "--chrome-trace", "-o",
                    dir_.string() + "/./x.otpuprof"}),
              2, "lens export: -o " + dir_.string() + "/./x.otpuprof: is the input file");
  EXPECT_EQ(Slurp(PathOf("x.otpuprof")), gz);
}

TEST_F(LensCliTest, OutputThatIsADirectoryIsRefusedFirst) {
  ExpectError(Lens({"record", "mlp-small", "--isa", "-o", dir_.string()}), 2,
              "lens record: -o " + dir_.string() + ": is a directory");
}

// Regression: a FIFO blocked forever and /dev/zero read without limit.
TEST_F(LensCliTest, OnlyRegularFilesAreRead) {
  ASSERT_EQ(mkfifo(PathOf("fifo").c_str(), 0600), 0);
  ExpectError(Lens({"info", PathOf("fifo")}), 4, PathOf("fifo") + ": not a regular file");
  ExpectError(Lens({"info", "/dev/zero"}), 4, "/dev/zero: not a regular file");
  ExpectError(Lens({"info", dir_.string()}), 4, dir_.string() + ": not a regular file");
}

// Regression: a 1e9-cycle profile without slices took 4.5 GB in `lens summary`.
TEST_F(LensCliTest, SummaryOfAHugeCycleCountWithoutSlicesStaysSmall) {
  Spit("big.otpuprof", *GzipCompress(R"({"format":"openTPU-profile","version":1,"profiles":[)"
                                     R"({"kind":"board","name":"x","cycles":1000000000}]})", 6));
  Result r = Lens({"summary", PathOf("big.otpuprof")}, 512);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("1000000000"), std::string::npos) << r.out;
}

TEST_F(LensCliTest, NegativeCyclesAreABadFileNamingTheField) {
  Spit("neg.otpuprof", *GzipCompress(R"({"format":"openTPU-profile","version":1,"profiles":[)"
                                     R"({"kind":"board","name":"x","cycles":-5}]})", 6));
  ExpectError(Lens({"summary", PathOf("neg.otpuprof")}), 4,
              PathOf("neg.otpuprof") + ": profiles[0].cycles: -5 is negative");
}

// Regression: 443 gzip bytes of `[[[...]]]` crashed every command that reads a profile.
TEST_F(LensCliTest, DeeplyNestedProfileIsABadFileForEveryCommand) {
  Spit("deep.otpuprof",
       *GzipCompress(std::string(200000, '[') + std::string(200000, ']') + "\n", 6));
  const std::string want =
      PathOf("deep.otpuprof") + ": invalid JSON at byte 128: nested deeper than 128 levels";
  ExpectError(Lens({"info", PathOf("deep.otpuprof")}), 4, want);
  ExpectError(Lens({"summary", PathOf("deep.otpuprof")}), 4, want);
  ExpectError(Lens({"html", PathOf("deep.otpuprof"), "-o", PathOf("deep.html")}), 4, want);
}

// A profile whose first slice's `busy` holds `zeros` zeros (gzip makes it small).
std::string ZerosProfile(uint64_t zeros) {
  std::string json = *ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 20));
  std::string pad = "\"busy\":[0";
  pad.reserve(2 * zeros + 16);
  for (uint64_t i = 1; i < zeros; ++i) pad += ",0";
  const size_t at = json.find("\"busy\":[");
  json.replace(at, json.find(']', at) + 1 - at, pad + "]");
  return *GzipCompress(json, 1);
}

// A 2 MB file (a profile plus an array of 10^9 zeros) took 9.46 GB and crashed `lens info`.
// One element past the array limit, in 1 GiB of address space: refused while inflating.
TEST_F(LensCliTest, ArrayPastTheElementLimitIsABadFileReadInBoundedMemory) {
  Spit("bomb.otpuprof", ZerosProfile(kMaxArrayElements + 1));
  const std::string limit = "an array of more than " + std::to_string(kMaxArrayElements) +
                            " elements, the limit of a profile file";
  for (const char* cmd : {"info", "summary"}) {
    Result r = Lens({cmd, PathOf("bomb.otpuprof")}, 1024);
    ExpectError(r, 4, "lens " + std::string(cmd) + ": " + PathOf("bomb.otpuprof") + ": at byte ");
    EXPECT_NE(r.err.find(limit), std::string::npos) << r.err;
  }
}

// Under a memory limit the reader crashed (RapidJSON writes through a failed malloc) or ended
// with a bare std::bad_alloc; a file within the limits that does not fit is named instead.
// 2^24 values in one column take 128 MiB as integers (twice that while the vector grows):
// more than the 128 MiB of address space the reader is given here.
TEST_F(LensCliTest, OutOfMemoryWhileReadingIsAFailureNamingTheFile) {
  Spit("run.otpuprof", ZerosProfile(kMaxArrayElements));
  ExpectError(Lens({"info", PathOf("run.otpuprof")}, 128), 1,
              "lens info: " + PathOf("run.otpuprof") + ": out of memory reading the profile");
}

}  // namespace
}  // namespace otpu::lens
