#include "workloads/models/prebuild.h"

#include <sys/wait.h>

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>

#include "base/subprocess.h"
#include "workloads/models/io_test_util.h"
#include "workloads/models/model_source.h"
#include "workloads/models/qwen3_engine.h"
#include "workloads/models/tiny_checkpoint.h"

namespace otpu::models {
namespace {

namespace fs = std::filesystem;

int Entries(const std::string& dir) {
  if (!fs::exists(dir)) return 0;
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".qimg";
  return n;
}

const Qwen3Weights& Tiny() {
  static const Qwen3Weights w = RandomQwen3(Qwen3Config::Tiny(), 0);
  return w;
}

struct Result {
  int code = -1;
  std::string out;
};

// Runs `command` through the shell with stderr folded into stdout.
Result Shell(const std::string& command) {
  SubprocessOptions o;
  o.argv = {"/bin/sh", "-c", command};
  o.out = Stream::Capture();
  o.err_to_out = true;
  o.timeout_s = 600;
  StatusOr<SubprocessResult> s = RunSubprocess(o);
  if (!s.ok()) return {-1, s.status().message()};
  return {s->exited ? s->exit_code : -1, s->out};
}

TEST(PrebuildRequest, SplitsModelAndFormatsAtTheLastTwoColons) {
  StatusOr<PrebuildRequest> r = ParsePrebuildRequest("/ckpt/a:b:fp4:int8");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->model, "/ckpt/a:b");
  EXPECT_EQ(r->formats.layers, LayerFormat::kFp4);
  EXPECT_EQ(r->formats.head, isa::WFormat::kINT8);
}

TEST(PrebuildRequest, MissingFieldsAreNamed) {
  for (const char* text : {"qwen-tiny", "qwen-tiny:fp4", ":fp4:-"}) {
    StatusOr<PrebuildRequest> r = ParsePrebuildRequest(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.status().message().find("'" + std::string(text) + "': "), std::string::npos);
  }
  EXPECT_EQ(ParsePrebuildRequest("qwen-tiny:fp5:-").status().message(),
            "'qwen-tiny:fp5:-': weight format 'fp5' is not int8|int4|fp4|mix");
  EXPECT_EQ(ParseHwConfig("fpga").status().message(), "--config 'fpga' is not sim|board");
}

class PrebuildTest : public ::testing::Test {
 protected:
  ImageCache Cache() { return ImageCache({.dir = dir_.File("images")}); }
  ScratchDir dir_;
};

TEST_F(PrebuildTest, Fp4QuantizesEveryMatrixOnceThenFindsThemCached) {
  ImageCache cache = Cache();
  StatusOr<PrebuildReport> r =
      Prebuild(Tiny(), {LayerFormat::kFp4, isa::WFormat::kFP4}, isa::Config::Sim(), &cache);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->matrices, 11);  // 2 layers x (qkv, o, gate, up, down) + the head
  EXPECT_EQ(r->quantized, 11);
  EXPECT_EQ(Entries(cache.options().dir), 11);

  ImageCache again = Cache();
  r = Prebuild(Tiny(), {LayerFormat::kFp4, isa::WFormat::kFP4}, isa::Config::Sim(), &again);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->cached, 11);
  EXPECT_EQ(r->quantized, 0);
}

TEST_F(PrebuildTest, TheEngineThenReadsEveryFourBitMatrixFromTheCache) {
  ImageCache cache = Cache();
  const WeightFormats f{LayerFormat::kMix, isa::WFormat::kINT4};
  ASSERT_TRUE(Prebuild(Tiny(), f, isa::Config::Board(), &cache).ok());
  ImageCache run = Cache();
  StatusOr<Qwen3Engine> cached =
      BuildQwen3Engine(Tiny(), isa::Config::Board(), {.formats = f}, &run);
  ASSERT_TRUE(cached.ok()) << cached.status().message();
  EXPECT_EQ(run.stats().hits, 7);  // 2 layers x (gate, up, down) + the head
  EXPECT_EQ(run.stats().misses, 0);
  StatusOr<Qwen3Engine> direct = BuildQwen3Engine(Tiny(), isa::Config::Board(), {.formats = f});
  ASSERT_TRUE(direct.ok());
  EXPECT_TRUE(cached->image.SameBytes(direct->image));
}

// Entries are keyed by content: the same model from a checkpoint directory finds qwen-tiny's.
TEST_F(PrebuildTest, ACheckpointOfTheSameModelFindsItsEntries) {
  ImageCache cache = Cache();
  const WeightFormats f{LayerFormat::kInt4, isa::WFormat::kINT4};
  ASSERT_TRUE(Prebuild(Tiny(), f, isa::Config::Sim(), &cache).ok());
  ASSERT_TRUE(WriteTinyCheckpoint(dir_.File("ckpt")).ok());
  StatusOr<ModelSource> model = LoadModel(dir_.File("ckpt"));
  ASSERT_TRUE(model.ok()) << model.status().message();
  EXPECT_EQ(model->dir, dir_.File("ckpt"));
  ImageCache again = Cache();
  StatusOr<PrebuildReport> r = Prebuild(*model->weights, f, isa::Config::Sim(), &again);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->cached, 11);
}

TEST_F(PrebuildTest, Int8HasNothingToPrebuild) {
  ImageCache cache = Cache();
  StatusOr<PrebuildReport> r = Prebuild(Tiny(), {}, isa::Config::Sim(), &cache);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->matrices, 0);
  EXPECT_EQ(Entries(cache.options().dir), 0);
}

TEST_F(PrebuildTest, OffCacheIsRefused) {
  ImageCache off({});
  EXPECT_EQ(Prebuild(Tiny(), {}, isa::Config::Sim(), &off).status().message(),
            "prebuild: the image cache is off");
}

TEST_F(PrebuildTest, ProgramFillsTheCacheAndSaysWhat) {
  const std::string images = dir_.File("images");
  Result r = Shell("OTPU_IMAGE_CACHE=" + images + " " + OTPU_PREBUILD_BINARY +
                   " qwen-tiny:int4:int8 --config board");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "otpu-prebuild: qwen-tiny:int4:int8 on board: 10 4-bit matrices, 10 "
                   "quantized, 0 already cached (" + images + ")\n");
  EXPECT_EQ(Entries(images), 10);
}

TEST_F(PrebuildTest, ProgramTakesTheDeprecatedCfgWithAWarning) {
  const std::string images = dir_.File("images");
  Result r = Shell("OTPU_IMAGE_CACHE=" + images + " " + OTPU_PREBUILD_BINARY +
                   " qwen-tiny:int4:int8 --cfg board 2>&1");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("otpu-prebuild: warning: --cfg is deprecated; use --config\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("qwen-tiny:int4:int8 on board"), std::string::npos) << r.out;
}

TEST_F(PrebuildTest, ProgressHearsOfEveryMatrix) {
  ImageCache cache = Cache();
  std::vector<std::string> seen;
  ASSERT_TRUE(Prebuild(Tiny(), {LayerFormat::kInt4, isa::WFormat::kINT4}, isa::Config::Sim(),
                       &cache, [&](int done, int total, const std::string& what) {
                         EXPECT_EQ(done, int(seen.size()) + 1);
                         EXPECT_EQ(total, 11);
                         seen.push_back(what);
                       })
                  .ok());
  ASSERT_EQ(seen.size(), 11u);
  EXPECT_EQ(seen.back(), "LM head");
}

// Off a terminal the status line comes only when asked, as whole lines.
TEST_F(PrebuildTest, ProgramWithProgressPrintsStatusLines) {
  const std::string images = dir_.File("images");
  Result r = Shell("OTPU_IMAGE_CACHE=" + images + " " + OTPU_PREBUILD_BINARY +
                   " qwen-tiny:int4:int8 --config board --progress");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("otpu-prebuild: loading qwen-tiny\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("otpu-prebuild: matrix 11/11 (LM head), elapsed "), std::string::npos)
      << r.out;
}

TEST_F(PrebuildTest, ProgramUsageErrorsExitTwo) {
  const std::string env = "OTPU_IMAGE_CACHE=" + dir_.File("images") + " ";
  Result r = Shell(env + OTPU_PREBUILD_BINARY);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "otpu-prebuild: name one MODEL:WF:HF (e.g. qwen-tiny:fp4:-)\n");
  r = Shell(env + OTPU_PREBUILD_BINARY + " qwen-tiny:fp4:- --config fpga");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "otpu-prebuild: --config 'fpga' is not sim|board\n");
  r = Shell(env + OTPU_PREBUILD_BINARY + " qwen-tiny:fp4:- --cfg sim --config board");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "otpu-prebuild: --cfg and --config: give the configuration once (--cfg is the "
                   "deprecated spelling of --config)\n");
  r = Shell(env + OTPU_PREBUILD_BINARY + " qwen-tiny:fp4");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "otpu-prebuild: 'qwen-tiny:fp4': expected MODEL:WF:HF\n");
}

TEST_F(PrebuildTest, ProgramNamesAMissingCheckpoint) {
  Result r = Shell("OTPU_IMAGE_CACHE=" + dir_.File("images") + " " + OTPU_PREBUILD_BINARY + " " +
                   dir_.File("Qwen3-nope") + ":fp4:-");
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("otpu-prebuild: " + dir_.File("Qwen3-nope") +
                       ": no such checkpoint directory"),
            std::string::npos)
      << r.out;
}

TEST_F(PrebuildTest, ProgramWithTheCacheOffDoesNothing) {
  Result r = Shell(std::string("OTPU_IMAGE_CACHE=0 ") + OTPU_PREBUILD_BINARY + " qwen-tiny:fp4:-");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, "otpu-prebuild: the image cache is off (OTPU_IMAGE_CACHE=0): nothing to do\n");
}

// otpu-lock --prebuild runs the otpu-prebuild built beside it, before the command.
TEST_F(PrebuildTest, OtpuLockPrebuildFillsTheCache) {
  const std::string images = dir_.File("images");
  Result r = Shell("env -u OTPU_PREBUILD OTPU_IMAGE_CACHE=" + images + " OTPU_RUN_DIR=" +
                   dir_.File("run") + " " +
                   OTPU_LOCK_BINARY + " --dev " + dir_.File("xdma9") +
                   " --prebuild qwen-tiny:fp4:- -- true");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("otpu-prebuild: qwen-tiny:fp4:- on sim: 11 4-bit matrices, 11 quantized"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(Entries(images), 11);
}

}  // namespace
}  // namespace otpu::models
