// `otpu-lens record --dev` end to end, without a card: the real binary records a tiny
// checkpoint (written by the checkpoint generator) through a real otpu-xdma-emu mount. Its
// profiles equal `record --sim`'s for the same checkpoint and steps, its greedy tokens equal
// the ISA simulator's, a map-1 bitstream gives counters only, every injected fault is one
// clear line with the lock released and no output left, and a busy device exits 3.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "host/card.h"
#include "host/lock/device_lock.h"
#include "base/testing/subprocess.h"
#include "host/xdma/xdma_board.h"
#include "host/xdma_emu/test_emulator.h"
#include "lens/greedy_tap.h"
#include "lens/otpuprof.h"
#include "lens/profile_json.h"
#include "lens/recorder.h"
#include "workloads/isa/config.h"
#include "workloads/models/checkpoint_run.h"
#include "workloads/models/tiny_checkpoint.h"

namespace otpu::host {
namespace {

namespace fs = std::filesystem;
using testutil::ProcessResult;
using xdma_emu::testing::Emulator;

// Two prompt tokens: position 0 prefilled; 1 (the last prompt token) and, with --tokens 2, 2
// traced.
const std::vector<std::string> kPrompt = {"--prompt-ids", "1,42"};
const std::vector<int> kPromptIds = {1, 42};
// A run of qwen-tiny's size takes well under a second on the model; room for a loaded machine.
constexpr double kRecordSeconds = 240;

class OtpuLensCardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string tmpl = (fs::temp_directory_path() / "otpu_lens_card_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    suite_dir_ = new fs::path(tmpl);
    Status written = models::WriteTinyCheckpoint((*suite_dir_ / "tiny").string());
    ASSERT_TRUE(written.ok()) << written.message();
  }
  static void TearDownTestSuite() {
    fs::remove_all(*suite_dir_);
    delete suite_dir_;
  }
  void SetUp() override {
    dir_ = *suite_dir_ / ::testing::UnitTest::GetInstance()->current_test_info()->name();
    fs::create_directories(dir_ / "out");
    fs::create_directories(dir_ / "run");
  }

  static std::string Model() { return (*suite_dir_ / "tiny").string(); }
  std::string OutPath(const std::string& name) const { return (dir_ / "out" / name).string(); }
  std::string RunDir() const { return (dir_ / "run").string(); }

  std::string CacheDir() const { return (dir_ / "cache").string(); }

  // otpu-lens ARGS with this test's lock directory and image cache.
  ProcessResult OtpuLens(std::vector<std::string> args, double timeout_s = kRecordSeconds) const {
    args.insert(args.begin(), OTPU_LENS_BINARY);
    return testutil::RunProcess(
        args, {"OTPU_RUN_DIR=" + RunDir(), "OTPU_IMAGE_CACHE=" + CacheDir()}, timeout_s);
  }
  // record --dev PREFIX --model tiny PROMPT ... -o OUT.
  ProcessResult RecordDev(const std::string& prefix, const std::string& out,
                          std::vector<std::string> extra = {}) const {
    std::vector<std::string> args = {"record", "--dev", prefix, "--model", Model(), "-o", out};
    args.insert(args.end(), kPrompt.begin(), kPrompt.end());
    args.insert(args.end(), extra.begin(), extra.end());
    return OtpuLens(args);
  }

  // The failure of a run: exit `code`, exactly one stderr line (returned), nothing in out/,
  // and the device lock free again.
  std::string FailureLine(const ProcessResult& r, int code, const std::string& prefix) const {
    EXPECT_TRUE(r.exited) << "signal " << r.signal << (r.timed_out ? " (timed out)" : "");
    EXPECT_EQ(r.exit_code, code) << r.err << r.out;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(fs::is_empty(dir_ / "out")) << "a file was left in " << (dir_ / "out");
    StatusOr<std::unique_ptr<DeviceLock>> lock = DeviceLock::Acquire(prefix, 0, RunDir());
    EXPECT_TRUE(lock.ok()) << "the lock is still held: " << lock.status().message();
    return r.err;
  }

  static fs::path* suite_dir_;
  fs::path dir_;
};

fs::path* OtpuLensCardTest::suite_dir_ = nullptr;

// The numbers after "greedy tokens:" in `out`.
std::vector<int> GreedyTokens(const std::string& out) {
  const std::string key = "greedy tokens:";
  const size_t at = out.find(key);
  if (at == std::string::npos) return {};
  std::vector<int> tokens;
  size_t i = at + key.size();
  while (i < out.size() && out[i] == ' ') {
    size_t used = 0;
    tokens.push_back(std::stoi(out.substr(i + 1), &used));
    i += 1 + used;
  }
  return tokens;
}

// The profile file as a JSON document without what legitimately differs between a card and
// the model: `created` (the time of writing) and each profile's config.MEM ("card" against the
// model's DRAM name).
rapidjson::Document ComparableJson(const std::string& path) {
  rapidjson::Document doc;
  StatusOr<lens::ProfileFile> file = lens::Read(path);
  EXPECT_TRUE(file.ok()) << file.status().message();
  if (!file.ok()) return doc;
  StatusOr<std::string> json = lens::ProfileFileToJson(*file);
  EXPECT_TRUE(json.ok()) << json.status().message();
  doc.Parse(json->c_str());
  doc.RemoveMember("created");
  for (auto& p : doc["profiles"].GetArray()) {
    if (p.HasMember("config") && p["config"].IsObject()) p["config"].RemoveMember("MEM");
  }
  return doc;
}

// The greedy tokens of the same checkpoint run on the ISA simulator.
std::vector<int> IsaGreedyTokens(const isa::Config& cfg, const std::string& model,
                                 const std::vector<int>& ids, int tokens) {
  models::CheckpointRequest req;
  req.model = model;
  req.ids = ids;
  req.tokens = tokens;
  StatusOr<workloads::WorkloadRun> run = models::MakeCheckpointRun(req, cfg);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return {};
  lens::IsaStepRunner isa;
  lens::GreedyTap tap(&isa);
  StatusOr<lens::Recording> rec = lens::Record(*run, tap);
  EXPECT_TRUE(rec.ok()) << rec.status().message();
  return tap.tokens();
}

TEST_F(OtpuLensCardTest, CardRecordingEqualsTheBoardModelsAndDecodesAsTheIsaSimulator) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  const std::string a = OutPath("a.otpuprof"), b = OutPath("b.otpuprof");
  ProcessResult dev = RecordDev(emu.prefix(), a, {"--tokens", "2"});
  ASSERT_EQ(dev.exit_code, 0) << dev.err << dev.out;
  EXPECT_TRUE(dev.err.empty()) << dev.err;
  EXPECT_NE(dev.out.find(emu.prefix() + ": register map 2"), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("3 steps in "), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find(" s, 2 traced\n"), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("tiny step 1: hw profile, "), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("tiny step 2: hw profile, "), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("drop 0, lost 0, streamed)"), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("tiny: check ok: logits 1x1000 at pos 2"), std::string::npos) << dev.out;
  EXPECT_NE(dev.out.find("wrote " + a + " (2 profiles)"), std::string::npos) << dev.out;

  ProcessResult sim = OtpuLens({"record", "--sim", "--model", Model(), "-o", b, "--tokens", "2",
                                kPrompt[0], kPrompt[1]});
  ASSERT_EQ(sim.exit_code, 0) << sim.err << sim.out;

  rapidjson::Document via_card = ComparableJson(a), via_model = ComparableJson(b);
  ASSERT_EQ(via_card["profiles"].Size(), 2u);
  EXPECT_TRUE(via_card == via_model) << "the card's profiles differ from the model's";
  for (auto& p : via_card["profiles"].GetArray()) {
    EXPECT_STREQ(p["kind"].GetString(), "hw");
    EXPECT_GT(p["instrs"].Size(), 0u);
  }

  const std::vector<int> greedy = GreedyTokens(dev.out);
  ASSERT_EQ(greedy.size(), 2u) << dev.out;
  EXPECT_EQ(greedy, GreedyTokens(sim.out)) << sim.out;
  // The ISA simulator with the configuration the card reports.
  StatusOr<std::unique_ptr<XdmaBoard>> xdma = XdmaBoard::Create(emu.prefix());
  ASSERT_TRUE(xdma.ok()) << xdma.status().message();
  StatusOr<std::unique_ptr<Card>> card = Card::Probe(xdma->get());
  ASSERT_TRUE(card.ok()) << card.status().message();
  EXPECT_EQ(greedy, IsaGreedyTokens((*card)->config(), Model(), kPromptIds, 2));
}

// 4-bit layers are quantized once into the image cache; a second recording finds every entry
// there (no new ones) and decodes the same. (Its cycles may differ by a few: the board model's
// DRAM is not reset between recordings, as a card's is not.)
TEST_F(OtpuLensCardTest, FourBitCheckpointGoesThroughTheImageCache) {
  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  const std::vector<std::string> formats = {"--wformat", "fp4", "--head-format", "int8"};
  auto cached = [&] {
    std::vector<std::string> names;
    if (!fs::is_directory(CacheDir())) return names;
    for (const auto& e : fs::recursive_directory_iterator(CacheDir()))
      if (e.is_regular_file()) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  };
  ProcessResult first = RecordDev(emu.prefix(), OutPath("fp4a.otpuprof"), formats);
  ASSERT_EQ(first.exit_code, 0) << first.err << first.out;
  EXPECT_NE(first.out.find("(token 42, fp4/int8)"), std::string::npos) << first.out;
  const std::vector<std::string> entries = cached();
  EXPECT_FALSE(entries.empty()) << "nothing was cached in " << CacheDir();

  ProcessResult second = RecordDev(emu.prefix(), OutPath("fp4b.otpuprof"), formats);
  ASSERT_EQ(second.exit_code, 0) << second.err << second.out;
  EXPECT_EQ(cached(), entries);
  EXPECT_EQ(GreedyTokens(first.out), GreedyTokens(second.out));
  EXPECT_EQ(GreedyTokens(first.out).size(), 1u) << first.out;
}

// A map-1 card has no ARG registers, so it runs kernels, not a decode (whose steps pass their
// position in ARGs): mlp-small.
TEST_F(OtpuLensCardTest, MapOneBitstreamGivesCountersOnlyWithOneNote) {
  Emulator emu({"--regmap", "1"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  const std::string out = OutPath("m1.otpuprof");
  ProcessResult r =
      OtpuLens({"record", "--dev", emu.prefix(), "--workload", "mlp-small", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_EQ(r.err, "otpu-lens record: note: the bitstream on " + emu.prefix() +
                       " has no trace buffer (register map 1): the profiles are counters only "
                       "(kind board)\n");
  EXPECT_NE(r.out.find("mlp-small: board profile, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("counters only (no trace buffer)"), std::string::npos) << r.out;
  StatusOr<lens::ProfileFile> file = lens::Read(out);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file->profiles.size(), 1u);
  EXPECT_EQ(file->profiles[0].kind, lens::ProfileKind::kBoard);
  EXPECT_FALSE(file->profiles[0].hwtrace.has_value());
  EXPECT_GT(file->profiles[0].cycles, 0);
}

// Each fault of the emulator ends the recording with the device file's one-line error.
TEST_F(OtpuLensCardTest, InjectedFaultsAreOneLineErrorsThatReleaseTheLock) {
  struct Case {
    std::string fault, file, says;
  };
  const Case cases[] = {
      {"eio:h2c:2", "xdma0_h2c_0", "Input/output error"},
      {"short:c2h:1", "xdma0_c2h_0", "short"},
      {"timeout:user:6", "xdma0_user", "timed out"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fault);
    Emulator emu({"--fault", c.fault});
    ASSERT_TRUE(emu.ready()) << emu.startup_output();
    ProcessResult r = RecordDev(emu.prefix(), OutPath("f.otpuprof"));
    const std::string line = FailureLine(r, 1, emu.prefix());
    EXPECT_EQ(line.rfind("otpu-lens record: ", 0), 0u) << line;
    EXPECT_NE(line.find(emu.mountpoint() + "/" + c.file), std::string::npos) << line;
    EXPECT_NE(line.find(c.says), std::string::npos) << line;
  }
}

TEST_F(OtpuLensCardTest, ARunThatNeverHaltsTimesOutNamingStatus) {
  Emulator emu({"--fault", "hang"});
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  ProcessResult r = RecordDev(emu.prefix(), OutPath("h.otpuprof"), {"--timeout", "0.5"});
  const std::string line = FailureLine(r, 1, emu.prefix());
  EXPECT_NE(line.find("STATUS"), std::string::npos) << line;
  EXPECT_NE(line.find("500 ms"), std::string::npos) << line;
}

// Regression: SIGTERM/SIGINT during a recording stop the run (CTRL=0), leave no file and the
// lock free, and exit 128 + signal with one line.
TEST_F(OtpuLensCardTest, TermOrIntDuringARunStopsItAndExitsWithOneLine) {
  for (int sig : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(sig);
    Emulator emu({"--fault", "hang"});  // the run never halts: the signal finds it running
    ASSERT_TRUE(emu.ready()) << emu.startup_output();
    std::vector<std::string> args = {OTPU_LENS_BINARY, "record", "--dev", emu.prefix(),
                                     "--workload", "mlp-small", "--timeout", "120",
                                     "-o", OutPath("k.otpuprof")};
    testutil::TestProcess p(args, {"OTPU_RUN_DIR=" + RunDir()});
    ASSERT_NE(p.ReadLine(60).find("register map"), std::string::npos);
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    ASSERT_EQ(::kill(p.pid(), sig), 0);
    ProcessResult r = p.Wait(60);
    const std::string line = FailureLine(r, 128 + sig, emu.prefix());
    EXPECT_EQ(line.rfind("otpu-lens record: ", 0), 0u) << line;
    EXPECT_NE(line.find(std::string("interrupted by SIG") + sigabbrev_np(sig)), std::string::npos)
        << line;
    EXPECT_NE(line.find("no profile written"), std::string::npos) << line;
  }
}

TEST_F(OtpuLensCardTest, OutputThatIsADirectoryIsRefusedBeforeRecording) {
  const std::string prefix = (dir_ / "xdma7").string();  // never reached
  ProcessResult r = OtpuLens({"record", "--dev", prefix, "--workload", "mlp-small", "-o",
                              (dir_ / "out").string()});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "otpu-lens record: -o " + (dir_ / "out").string() +
                       ": is a directory, not a profile file\n");
}

// Regression: broken checkpoints exited 1 or 2 depending on the check; now every defect of the
// checkpoint's files is exit 4, one line naming the file and the field or tensor.
TEST_F(OtpuLensCardTest, BadCheckpointInputIsExitFourNamingFileAndField) {
  struct Case {
    std::string name;
    std::function<void(const fs::path&)> spoil;
    std::string says;
  };
  const Case cases[] = {
      {"deep",
       [](const fs::path& d) {
         std::ofstream(d / "config.json") << std::string(100000, '[') << std::string(100000, ']');
       },
       "config.json: invalid JSON at byte 128: nested deeper than 128 levels"},
      {"layers",
       [](const fs::path& d) {
         std::ifstream in(d / "config.json");
         std::string text((std::istreambuf_iterator<char>(in)), {});
         const size_t at = text.find("\"num_hidden_layers\"");
         text.replace(at, text.find(',', at) - at, "\"num_hidden_layers\": 1000000000");
         std::ofstream(d / "config.json") << text;
       },
       "config.json: num_hidden_layers = 1000000000: over the limit of 1024"},
      {"nan",
       [](const fs::path& d) {
         std::fstream f(d / "model.safetensors", std::ios::in | std::ios::out | std::ios::binary);
         f.seekp(-4, std::ios::end);
         f.write("\x00\x00\xC0\x7F", 4);  // the last element(s): NaN as F32 or BF16
       },
       "is NaN: weights must be finite"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const fs::path model = dir_ / c.name;
    fs::copy(Model(), model, fs::copy_options::recursive);
    c.spoil(model);
    ProcessResult r = OtpuLens({"record", "--sim", "--model", model.string(), "--prompt-ids",
                                "1,42", "-o", OutPath("c.otpuprof")});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("otpu-lens record: " + model.string() + "/", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_TRUE(fs::is_empty(dir_ / "out"));
  }
}

TEST_F(OtpuLensCardTest, BusyDeviceExitsThreeWithOneLineNamingTheHolder) {
  const std::string prefix = (dir_ / "xdma7").string();  // no card needed: the lock comes first
  StatusOr<std::unique_ptr<DeviceLock>> held = DeviceLock::Acquire(prefix, 0, RunDir());
  ASSERT_TRUE(held.ok()) << held.status().message();
  ProcessResult r = RecordDev(prefix, OutPath("busy.otpuprof"));
  EXPECT_EQ(r.exit_code, 3) << r.err << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("otpu-lens record: " + prefix + " is busy: held by pid " +
                            std::to_string(getpid()),
                        0),
            0u)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

TEST_F(OtpuLensCardTest, MissingDeviceOrCheckpointIsOneLine) {
  const std::string nodev = (dir_ / "xdma9").string();
  ProcessResult r = RecordDev(nodev, OutPath("x.otpuprof"));
  const std::string line = FailureLine(r, 1, nodev);
  EXPECT_NE(line.find(nodev + "_user"), std::string::npos) << line;

  Emulator emu;
  ASSERT_TRUE(emu.ready()) << emu.startup_output();
  const std::string missing = (dir_ / "no-such-model").string();
  r = OtpuLens({"record", "--dev", emu.prefix(), "--model", missing, "-o", OutPath("x.otpuprof")});
  const std::string model_line = FailureLine(r, 1, emu.prefix());
  EXPECT_NE(model_line.find(missing), std::string::npos) << model_line;
}

TEST_F(OtpuLensCardTest, CardOptionsAreCheckedBeforeTheLock) {
  const std::string out = OutPath("u.otpuprof");
  struct Case {
    std::vector<std::string> args;
    std::string line;
  };
  const Case cases[] = {
      {{"--prompt-ids", "1,x"},
       "otpu-lens record: --prompt-ids 1,x: 'x' is not a token id (expected ids like 1,42,7)\n"},
      {{"--prompt", "hi", "--prompt-ids", "1"},
       "otpu-lens record: --prompt and --prompt-ids: give the prompt one way\n"},
      {{"--sim"}, "otpu-lens record: --dev and --sim: record on a card or on the board model\n"},
      {{"--workload", "mlp-small", "--prompt", "hi"},
       "otpu-lens record: --prompt: only with a checkpoint (--model DIR), not a workload\n"},
      {{"--head-format", "int2"},
       "otpu-lens record: --head-format: head format 'int2' is not int8|int4|fp4|-\n"},
      {{"--timeout", "0"}, "otpu-lens record: --timeout 0: a run needs more than 0 seconds\n"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"record", "--dev", "/dev/otpu-none", "-o", out};
    args.insert(args.end(), c.args.begin(), c.args.end());
    ProcessResult r = OtpuLens(args);
    EXPECT_EQ(r.exit_code, 2) << c.line;
    EXPECT_EQ(r.err, c.line);
  }
  EXPECT_TRUE(fs::is_empty(dir_ / "out"));
}

}  // namespace
}  // namespace otpu::host
