// The trace's record rate per workload (docs/trace.md "Streaming: the rate and the drain"):
// each workload's traced step on the bare Verilated core, every cycle's bundle counted as the
// trace unit would make it (TraceUnitModel::Bundle), then the most records in any window of
// W cycles for several W, the average, and the drain bandwidth the worst window needs at the
// core clock; and the lines the capture queue (QD 64, keep first, a buffer that never fills)
// drops when it drains one line a cycle and when it drains two (`drop@1`, `drop@2`: the
// TraceUnitModel on the same cycles). Measures, never asserts.
//
//   trace_rate_bench [--workload NAME]... [--stall N | --memory MEM] [--config sim|board]
//                    [--seeds N [--first-seed S]]
// --seeds N runs the random workload for seeds S .. S + N - 1 (one line each).
#include <boost/program_options.hpp>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sim/rtl/dram_model.h"
#include "sim/rtl/rtl_configs.h"
#include "sim/rtl/rtl_harness.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "workloads/list.h"
#include "workloads/traced_steps.h"

namespace {

using otpu::rtl::ClockHook;
using otpu::rtl::CoreCycle;

// Records each cycle of the runs it watches (only while `on`).
class RateTap : public ClockHook {
 public:
  void OnClock(const CoreCycle& c) override {
    if (on) per_cycle.push_back(uint16_t(otpu::rtl::TraceUnitModel::Bundle(c).size()));
  }
  bool on = false;
  std::vector<uint16_t> per_cycle;
};

// The most records in any `w` consecutive cycles.
int64_t MaxInWindow(const std::vector<uint16_t>& r, size_t w) {
  int64_t sum = 0, best = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    sum += r[i];
    if (i >= w) sum -= r[i - w];
    best = std::max(best, sum);
  }
  return best;
}

// `*out` = the value, or false after printing the error.
template <typename T>
bool Take(otpu::StatusOr<T> r, T* out) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s\n", r.status().message().c_str());
    return false;
  }
  *out = std::move(*r);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  std::vector<std::string> names;
  int stall = 0;
  std::string memory, config;
  int seeds = 0;
  uint64_t first_seed = 0;
  po::options_description desc("trace_rate_bench");
  desc.add_options()("workload", po::value(&names)->composing(), "workload (repeatable)")(
      "stall", po::value(&stall)->default_value(0), "DRAM stall percent")(
      "memory", po::value(&memory), "the DRAM as a profile names it (ideal, axi, axi stall N, "
      "stall N); wins over --stall")(
      "config", po::value(&config), "RTL configuration (default: the build's)")(
      "seeds", po::value(&seeds)->default_value(0), "random: this many seeds")(
      "first-seed", po::value(&first_seed)->default_value(0), "random: the first seed");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (names.empty() && seeds == 0) {
    names = {"mlp-small", "mlp", "mlp8", "attn", "attn-qwen", "layer", "qwen-tiny"};
  }
  std::vector<std::pair<std::string, uint64_t>> runs;  // workload, random seed
  for (const std::string& n : names) runs.push_back({n, 0});
  for (int i = 0; i < seeds; ++i) runs.push_back({"random", first_seed + uint64_t(i)});
  otpu::isa::Config cfg = otpu::rtl::BuiltConfig();
  otpu::rtl::DramOptions mem;
  mem.stall_percent = stall;
  if (!config.empty() && !Take(otpu::rtl::BuiltConfigNamed(config), &cfg)) return 2;
  if (!memory.empty() && !Take(otpu::rtl::ParseDramName(memory), &mem)) return 2;
  const size_t kWindows[] = {64, 1024, 8192, 65536};
  std::printf("%-10s %5s %9s %8s %7s", "workload", "stall", "cycles", "records", "avg/cyc");
  for (size_t w : kWindows) std::printf("  max/%-6zu", w);
  std::printf("  worst MB/s @100MHz  drop@1  drop@2\n");
  for (const auto& [name, seed] : runs) {
    otpu::workloads::TraceRequest req;
    req.seed = seed;
    auto run = otpu::workloads::MakeTracedWorkload(name, cfg, req);
    if (!run.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), run.status().message().c_str());
      return 1;
    }
    auto h = otpu::rtl::RtlHarness::Create(cfg);
    if (!h.ok() || !(*h)->LoadProgram(run->program).ok()) return 1;
    RateTap tap;
    (*h)->AddHook(&tap);
    // The capture queue at one and two lines a cycle, watching the traced step only.
    std::unique_ptr<otpu::rtl::TraceUnitModel> units[2];
    for (int d = 0; d < 2; ++d) {
      units[d] = std::move(
          otpu::rtl::TraceUnitModel::Create({.drain = d + 1, .depth = 1 << 24}).value());
    }
    otpu::SparseMemory dram = run->image;
    for (const otpu::workloads::Step& step : run->steps) {
      for (const auto& w : step.writes) dram.Write(w.addr, w.bytes.data(), w.bytes.size());
      otpu::rtl::RtlRunOptions opts;
      opts.args = step.args;
      opts.mem = mem;
      tap.on = step.traced;
      for (auto& u : units) {
        if (step.traced) (*h)->AddHook(u.get());
      }
      auto r = (*h)->Run(&dram, opts);
      if (!r.ok()) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), r.status().message().c_str());
        return 1;
      }
      if (step.traced) break;  // the hooks stay on: nothing after the traced step
    }
    int64_t total = 0;
    for (uint16_t n : tap.per_cycle) total += n;
    const double avg = tap.per_cycle.empty() ? 0 : double(total) / double(tap.per_cycle.size());
    const std::string label = name == "random" ? "random+seed" + std::to_string(seed) : name;
    std::printf("%-10s %5d %9zu %8lld %7.3f", label.c_str(), mem.stall_percent,
                tap.per_cycle.size(),
                (long long)total, avg);
    double worst = 0;
    for (size_t w : kWindows) {
      const int64_t m = MaxInWindow(tap.per_cycle, w);
      worst = std::max(worst, double(m) / double(w));
      std::printf("  %6lld=%.2f", (long long)m, double(m) / double(w));
    }
    // The rate the host must sustain is the worst over windows longer than one drain loop
    // (~1k cycles); 8 bytes a record, 10^8 cycles a second.
    const double sustained = double(MaxInWindow(tap.per_cycle, 1024)) / 1024.0;
    std::printf("  %.0f  %u  %u\n", sustained * 8 * 100, units[0]->drop(), units[1]->drop());
    std::fflush(stdout);
  }
  return 0;
}
