// otpu-prebuild MODEL:WF:HF [--cfg sim|board]: fills the image cache with the run's 4-bit
// weights (docs/models.md, "Image cache"); otpu-lock --prebuild runs it at nice 19.
// Exit codes: 0 done (or nothing to do), 1 failure, 2 usage.
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>

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
constexpr const char* kUsage =
    "usage: otpu-prebuild MODEL:WF:HF [--cfg sim|board] [--progress]\n";

int Fail(int code, const std::string& line) {
  std::cerr << "otpu-prebuild: " << line << "\n";
  return code;
}

int Main(int argc, char** argv) {
  po::options_description opts("otpu-prebuild options");
  opts.add_options()("cfg", po::value<std::string>()->default_value("sim"),
                     "accelerator configuration: sim or board")(
      "progress", po::bool_switch(),
      "a status line on stderr even when it is not a terminal (one line a second)")(
      "help,h", "print this help")("spec", po::value<std::vector<std::string>>(), "MODEL:WF:HF");
  po::positional_options_description pos;
  pos.add("spec", -1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(opts).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    return Fail(kExitUsage, e.what());
  }
  if (vm.count("help")) {
    std::cout << kUsage << otpu::exit_codes::ExitStatusHelp(otpu::exit_codes::Family::kTools);
    return 0;
  }
  if (!vm.count("spec") || vm["spec"].as<std::vector<std::string>>().size() != 1)
    return Fail(kExitUsage, "name one MODEL:WF:HF (e.g. qwen-tiny:fp4:-)");
  const std::string text = vm["spec"].as<std::vector<std::string>>()[0];
  StatusOr<PrebuildRequest> req = ParsePrebuildRequest(text);
  if (!req.ok()) return Fail(kExitUsage, req.status().message());
  StatusOr<isa::Config> hw = ParseHwConfig(vm["cfg"].as<std::string>());
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

}  // namespace

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-prebuild", argc, argv)) return 0;
  return Main(argc, argv);
}
