// otpu-mkcheckpoint: writes a tiny random Qwen3 checkpoint directory (config.json,
// safetensors, tokenizer.json); with the defaults, the spec's qwen-tiny (docs/models.md). With
// --shape qwen3-0.6b the random weights have Qwen3-0.6B's shapes (the simulation-speed bench).
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "base/exit_codes.h"
#include "base/progress.h"
#include "workloads/models/tiny_checkpoint.h"
#include "workloads/version.h"

namespace po = boost::program_options;

namespace {

using otpu::exit_codes::tools::kExitFailure;
using otpu::exit_codes::tools::kExitUsage;

constexpr char kUsage[] =
    "usage: otpu-mkcheckpoint DIR [--seed N] [--dtype bf16|f16|f32] [--shards N]\n"
    "                         [--shape tiny|qwen3-0.6b] [--progress]\n"
    "Writes the random qwen-tiny checkpoint (seed 0 by default) into DIR, or random weights\n"
    "of Qwen3-0.6B's shapes.\n";

}  // namespace

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-mkcheckpoint", argc, argv)) return 0;
  std::string dir, dtype, shape;
  uint32_t seed = 0;
  int shards = 1;
  bool help = false, progress = false;
  po::options_description visible("options");
  visible.add_options()("help,h", po::bool_switch(&help), "print this help")(
      "seed", po::value(&seed)->default_value(0), "random seed of the weights")(
      "dtype", po::value(&dtype)->default_value("bf16"), "tensor dtype: bf16, f16 or f32")(
      "shards", po::value(&shards)->default_value(1), "safetensors files (> 1: sharded index)")(
      "shape", po::value(&shape)->default_value("tiny"),
      "model shape: tiny (qwen-tiny) or qwen3-0.6b (Qwen3-0.6B's config)")(
      "progress", po::bool_switch(&progress),
      "a status line on stderr even when it is not a terminal (one line a second)");
  po::options_description all;
  all.add(visible).add_options()("dir", po::value(&dir));
  po::positional_options_description positional;
  positional.add("dir", 1);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "otpu-mkcheckpoint: %s\n%s", e.what(), kUsage);
    return kExitUsage;
  }
  if (help) {
    std::cout << kUsage << visible << "\n" << otpu::exit_codes::ExitStatusHelp(otpu::exit_codes::Family::kTools);
    return 0;
  }
  if (dir.empty()) {
    std::fprintf(stderr, "otpu-mkcheckpoint: no DIR\n%s", kUsage);
    return kExitUsage;
  }
  otpu::models::TinyCheckpointOptions options;
  options.seed = seed;
  options.shards = shards;
  if (dtype == "bf16") {
    options.dtype = otpu::models::Dtype::kBF16;
  } else if (dtype == "f16") {
    options.dtype = otpu::models::Dtype::kF16;
  } else if (dtype == "f32") {
    options.dtype = otpu::models::Dtype::kF32;
  } else {
    std::fprintf(stderr, "otpu-mkcheckpoint: --dtype %s: not bf16, f16 or f32\n", dtype.c_str());
    return kExitUsage;
  }
  if (shape == "qwen3-0.6b") {
    options.config = otpu::models::Qwen3Config::Qwen3_0_6B();
  } else if (shape != "tiny") {
    std::fprintf(stderr, "otpu-mkcheckpoint: --shape %s: not tiny or qwen3-0.6b\n",
                 shape.c_str());
    return kExitUsage;
  }
  if (shards < 1) {
    std::fprintf(stderr, "otpu-mkcheckpoint: --shards %d: must be at least 1\n", shards);
    return kExitUsage;
  }
  otpu::ProgressLine line(stderr, progress);
  if (line.enabled()) {
    options.progress = [&line](const std::string& tensor, int64_t done, int64_t total) {
      const double share = total > 0 ? double(done) / double(total) : 0;
      line.Update("otpu-mkcheckpoint: " + tensor + ", " + otpu::FormatCount(double(done)) +
                  " of " + otpu::FormatCount(double(total)) + " values (" +
                  std::to_string(int(100 * share)) + "%), " +
                  otpu::ElapsedAndLeft(line.Elapsed(), share));
    };
  }
  const otpu::Status status = otpu::models::WriteTinyCheckpoint(dir, options);
  line.Done();
  if (!status.ok()) {
    std::fprintf(stderr, "otpu-mkcheckpoint: %s\n", status.message().c_str());
    return kExitFailure;
  }
  return 0;
}
