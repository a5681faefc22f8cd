// otpu-prebuild MODEL:WF:HF [--config sim|board]: fills the image cache with the run's 4-bit
// weights (docs/models.md, "Image cache"); otpu-lock --prebuild runs it at nice 19.
// Exit codes: 0 done (or nothing to do), 1 failure, 2 usage.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "base/cli.h"
#include "base/exit_codes.h"
#include "base/progress.h"
#include "base/strings.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/model_source.h"
#include "workloads/models/prebuild.h"
#include "workloads/version.h"

namespace {

namespace po = boost::program_options;
using namespace otpu;
using namespace otpu::models;

using otpu::exit_codes::tools::kExitFailure;
using otpu::exit_codes::tools::kExitUsage;

int Fail(int code, const std::string& line) {
  std::cerr << "otpu-prebuild: " << line << "\n";
  return code;
}

void Describe(otpu::cli::Spec* spec) {
  spec->visible.add_options()("config", po::value<std::string>()->value_name("sim|board"),
                              "accelerator configuration (default sim)")(
      "progress", po::bool_switch(),
      "a status line on stderr even when it is not a terminal (one line a second)");
  spec->hidden.add_options()("cfg", po::value<std::string>()->value_name("sim|board"),
                             "deprecated spelling of --config")(
      "spec", po::value<std::vector<std::string>>()->value_name("MODEL:WF:HF"), "MODEL:WF:HF");
  spec->positional.add("spec", -1);
}

int Run(const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  Describe(&spec);
  po::variables_map vm;
  if (!otpu::cli::Parse("otpu-prebuild", "", args, spec, &vm)) return kExitUsage;
  std::string config = "sim";
  if (vm.count("cfg")) {
    if (vm.count("config"))
      return Fail(kExitUsage, "--cfg and --config: give the configuration once (--cfg is the "
                              "deprecated spelling of --config)");
    std::cerr << "otpu-prebuild: warning: --cfg is deprecated; use --config\n";
    config = vm["cfg"].as<std::string>();
  }
  if (vm.count("config")) config = vm["config"].as<std::string>();
  if (!vm.count("spec") || vm["spec"].as<std::vector<std::string>>().size() != 1)
    return Fail(kExitUsage, "name one MODEL:WF:HF (e.g. qwen-tiny:fp4:-)");
  const std::string text = vm["spec"].as<std::vector<std::string>>()[0];
  StatusOr<PrebuildRequest> req = ParsePrebuildRequest(text);
  if (!req.ok()) return Fail(kExitUsage, req.status().message());
  StatusOr<isa::Config> hw = ParseHwConfig(config);
  if (!hw.ok()) return Fail(kExitUsage, hw.status().message());
  StatusOr<ImageCacheOptions> cache_opts = ImageCacheOptionsFromEnv();
  if (!cache_opts.ok()) return Fail(kExitFailure, cache_opts.status().message());
  ImageCache cache(*cache_opts);
  if (!cache.enabled()) {
    std::printf("otpu-prebuild: the image cache is off (%s=0): nothing to do\n", kImageCacheEnv);
    return 0;
  }
  ProgressLine line(stderr, vm["progress"].as<bool>());
  line.Update("otpu-prebuild: loading " + req->model);
  StatusOr<ModelSource> model = LoadModel(req->model);
  if (!model.ok()) return Fail(kExitFailure, model.status().message());
  StatusOr<PrebuildReport> report = Prebuild(
      *model->weights, req->formats, *hw, &cache,
      [&line](int done, int total, const std::string& what) {
        const double share = double(done - 1) / total;  // the matrix `done` is starting
        line.Update(StrFormat("otpu-prebuild: matrix %d/%d (%s), ", done, total, what.c_str()) +
                    ElapsedAndLeft(line.Elapsed(), share));
      });
  line.Done();
  if (!report.ok()) return Fail(kExitFailure, text + ": " + report.status().message());
  std::printf("otpu-prebuild: %s on %s: %d 4-bit matrices, %d quantized, %d already cached (%s)\n",
              text.c_str(), hw->name.c_str(), report->matrices, report->quantized,
              report->cached, cache.options().dir.c_str());
  return 0;
}

int Main(int argc, char** argv) {
  otpu::cli::Program program;
  program.name = "otpu-prebuild";
  program.summary = "Fills the image cache with the run's 4-bit weights (docs/models.md \"Image "
                    "cache\"); otpu-lock --prebuild runs it at nice 19.";
  program.family = otpu::exit_codes::Family::kTools;
  otpu::cli::Command command;
  command.synopsis = "MODEL:WF:HF [--config sim|board] [--progress]";
  command.describe = Describe;
  command.run = Run;
  program.commands = {command};
  return otpu::cli::RunProgram(program, argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-prebuild", argc, argv)) return 0;
  return Main(argc, argv);
}
