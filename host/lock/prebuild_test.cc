#include "host/lock/prebuild.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include <gtest/gtest.h>

#include "base/testing/subprocess.h"
#include "base/testing/temp_dir.h"

namespace otpu::host {
namespace {

using testutil::ScopedEnv;
using testutil::TempDir;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

TEST(Prebuild, SpecSplitsModelAndFormats) {
  StatusOr<PrebuildSpec> spec = ParsePrebuildSpec("qwen3-0.6b:int4:int8");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->model, "qwen3-0.6b");
  EXPECT_EQ(spec->weight_format, "int4");
  EXPECT_EQ(spec->head_format, "int8");
  EXPECT_EQ(spec->ToString(), "qwen3-0.6b:int4:int8");
}

TEST(Prebuild, ModelMayContainColons) {
  StatusOr<PrebuildSpec> spec = ParsePrebuildSpec("c:/models/Qwen3:mix:-");
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->model, "c:/models/Qwen3");
  EXPECT_EQ(spec->weight_format, "mix");
  EXPECT_EQ(spec->head_format, "-");
}

TEST(Prebuild, EveryFormatPairIsAccepted) {
  for (const char* wf : {"int8", "int4", "fp4", "mix"}) {
    for (const char* hf : {"int8", "int4", "fp4", "-"}) {
      EXPECT_TRUE(ParsePrebuildSpec(std::string("m:") + wf + ":" + hf).ok()) << wf << " " << hf;
    }
  }
}

TEST(Prebuild, MissingFieldsAreRefused) {
  for (const char* text : {"qwen", "qwen:int4", ":int4", ""}) {
    StatusOr<PrebuildSpec> spec = ParsePrebuildSpec(text);
    ASSERT_FALSE(spec.ok()) << text;
    EXPECT_EQ(spec.status().message(), "--prebuild '" + std::string(text) + "': expected MODEL:WF:HF");
  }
}

TEST(Prebuild, EmptyModelIsRefused) {
  StatusOr<PrebuildSpec> spec = ParsePrebuildSpec(":int4:int8");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(), "--prebuild ':int4:int8': MODEL is empty");
}

TEST(Prebuild, UnknownWeightFormatIsRefused) {
  StatusOr<PrebuildSpec> spec = ParsePrebuildSpec("qwen:int3:int8");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(spec.status().message(), "--prebuild 'qwen:int3:int8': WF 'int3' is not int8|int4|fp4|mix");
}

TEST(Prebuild, UnknownHeadFormatIsRefused) {
  StatusOr<PrebuildSpec> spec = ParsePrebuildSpec("qwen:int4:mix");
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(), "--prebuild 'qwen:int4:mix': HF 'mix' is not int8|int4|fp4|-");
}

TEST(Prebuild, ProgramDefaultsToOtpuPrebuildBesideTheExecutable) {
  ScopedEnv env("OTPU_PREBUILD", nullptr);
  char self[4096] = {};
  ASSERT_GT(::readlink("/proc/self/exe", self, sizeof(self) - 1), 0);
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/') + 1);
  EXPECT_EQ(PrebuildProgram(), dir + "otpu-prebuild");
}

TEST(Prebuild, ProgramComesFromOtpuPrebuild) {
  ScopedEnv env("OTPU_PREBUILD", "/opt/x/prebuild");
  EXPECT_EQ(PrebuildProgram(), "/opt/x/prebuild");
}

TEST(Prebuild, RunsTheProgramWithSpecAndConfigAtNice19) {
  TempDir tmp;
  const std::string script = tmp.path() + "/prebuild.sh";
  const std::string out = tmp.path() + "/args";
  std::ofstream(script) << "#!/bin/sh\necho \"$* nice=$(nice)\" > " << out << "\n";
  ASSERT_EQ(::chmod(script.c_str(), 0755), 0);
  Status status = RunPrebuild(script, *ParsePrebuildSpec("qwen:int4:-"), "card.cfg");
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(ReadFile(out), "qwen:int4:- --config card.cfg nice=19\n");
}

TEST(Prebuild, FailingProgramReportsItsStatus) {
  Status status = RunPrebuild("false", *ParsePrebuildSpec("qwen:int4:int8"), "");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "'false' exited with status 1");
}

TEST(Prebuild, MissingProgramIsNamed) {
  Status status = RunPrebuild("/nonexistent/otpu-prebuild", *ParsePrebuildSpec("qwen:int4:int8"), "");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cannot run '/nonexistent/otpu-prebuild': No such file or directory");
}

}  // namespace
}  // namespace otpu::host
