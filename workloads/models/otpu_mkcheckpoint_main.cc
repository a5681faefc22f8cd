// otpu-mkcheckpoint: writes a tiny random Qwen3 checkpoint directory (config.json,
// safetensors, tokenizer.json); with the defaults, the spec's qwen-tiny (docs/models.md). With
// --shape qwen3-0.6b the random weights have Qwen3-0.6B's shapes (the simulation-speed bench).
#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>

#include "base/cli.h"
#include "base/exit_codes.h"
#include "base/progress.h"
#include "workloads/models/tiny_checkpoint.h"
#include "workloads/version.h"

namespace po = boost::program_options;

namespace {

using otpu::exit_codes::tools::kExitFailure;
using otpu::exit_codes::tools::kExitUsage;

void Describe(otpu::cli::Spec* spec) {
  spec->visible.add_options()("out,o", po::value<std::string>()->value_name("DIR"),
                              "the checkpoint directory to write (or give it as DIR)")(
      "seed", po::value<uint32_t>()->value_name("N")->default_value(0), "random seed of the weights")(
      "dtype", po::value<std::string>()->value_name("bf16|f16|f32")->default_value("bf16"),
      "tensor dtype")(
      "shards", po::value<int>()->value_name("N")->default_value(1),
      "safetensors files (> 1: sharded index)")(
      "shape", po::value<std::string>()->value_name("tiny|qwen3-0.6b")->default_value("tiny"),
      "model shape: tiny (qwen-tiny) or qwen3-0.6b (Qwen3-0.6B's config)")(
      "progress", po::bool_switch(),
      "a status line on stderr even when it is not a terminal (one line a second)");
  spec->hidden.add_options()("dir", po::value<std::string>()->value_name("DIR"));
  spec->positional.add("dir", 1);
}

int Run(const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  Describe(&spec);
  po::variables_map vm;
  if (!otpu::cli::Parse("otpu-mkcheckpoint", "", args, spec, &vm)) return kExitUsage;
  if (vm.count("dir") && vm.count("out")) {
    std::fprintf(stderr, "otpu-mkcheckpoint: DIR and -o: name the directory once\n");
    return kExitUsage;
  }
  if (!vm.count("dir") && !vm.count("out")) {
    std::fprintf(stderr, "otpu-mkcheckpoint: no DIR (see otpu-mkcheckpoint --help)\n");
    return kExitUsage;
  }
  const std::string dir = vm.count("dir") ? vm["dir"].as<std::string>() : vm["out"].as<std::string>();
  const std::string dtype = vm["dtype"].as<std::string>();
  const std::string shape = vm["shape"].as<std::string>();
  const int shards = vm["shards"].as<int>();
  const bool progress = vm["progress"].as<bool>();
  otpu::models::TinyCheckpointOptions options;
  options.seed = vm["seed"].as<uint32_t>();
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

}  // namespace

int main(int argc, char** argv) {
  if (otpu::PrintVersionIfAsked("otpu-mkcheckpoint", argc, argv)) return 0;
  otpu::cli::Program program;
  program.name = "otpu-mkcheckpoint";
  program.summary = "Writes the random qwen-tiny checkpoint (seed 0 by default) into DIR, or "
                    "random weights of Qwen3-0.6B's shapes (docs/models.md).";
  program.family = otpu::exit_codes::Family::kTools;
  otpu::cli::Command command;
  command.synopsis =
      "(DIR | -o DIR) [--shape tiny|qwen3-0.6b] [--dtype bf16|f16|f32] [--shards N] [--seed N] "
      "[--progress]";
  command.describe = Describe;
  command.run = Run;
  program.commands = {command};
  return otpu::cli::RunProgram(program, argc, argv);
}
