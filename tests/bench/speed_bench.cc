// Measures, never asserts: one workload's steps, once, on the bare Verilated core (RtlHarness,
// event tap off, the board's DRAM options) or on the board model (SimBoard, the whole run
// protocol as users run it: Card, host/card.h), stopping after --max-cycles core cycles when given. Made to run
// under `valgrind --tool=callgrind --instr-atstart=no`: only the runs are instrumented
// (CALLGRIND_START/STOP_INSTRUMENTATION, no-ops natively), so callgrind's instruction total
// divided by the printed cycles is the host instructions per simulated cycle, a figure that does
// not drift with the machine's load (scripts/bench.sh, docs/rtl.md "Simulation speed"). Prints
// one JSON object: the cycles, the CPU seconds, and a hash of the final DRAM outputs and TMEM
// (bare) so two RTL versions can be compared on the same bounded run. On the board, --trace
// first|stream records the hardware trace as `otpu-lens record` does (keep first, or streamed:
// Card drains the ring while the core runs); the records go to a sink that counts them.
#include <boost/program_options.hpp>
#include <valgrind/callgrind.h>

#include <time.h>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "host/card.h"
#include "sim/board/sim_board.h"
#include "sim/rtl/assert_switch.h"
#include "sim/rtl/rtl_harness.h"
#include "workloads/list.h"

namespace otpu::board {
namespace {

namespace po = boost::program_options;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

uint64_t Fnv(uint64_t h, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}

struct Result {
  int64_t cycles = 0;
  int runs = 0;
  bool limited = false;  // stopped by --max-cycles
  double cpu_s = 0;
  uint64_t hash = 0xCBF29CE484222325ull;
  int64_t records = 0, drop = 0;  // board with --trace: records drained, TRACE_DROP
};

StatusOr<Result> Bare(const workloads::WorkloadRun& w, int64_t max_cycles) {
  ASSIGN_OR_RETURN(std::unique_ptr<rtl::RtlHarness> h, rtl::RtlHarness::Create(w.config));
  RETURN_IF_ERROR(h->LoadProgram(w.program));
  SparseMemory dram = w.image;
  Result r;
  for (const workloads::Step& step : w.steps) {
    if (r.cycles >= max_cycles) break;
    for (const workloads::DramWrite& dw : step.writes) {
      dram.Write(dw.addr, dw.bytes.data(), dw.bytes.size());
    }
    rtl::RtlRunOptions opts;
    opts.args = step.args;
    opts.mem = SimBoardOptions::DefaultMemory();
    opts.record_events = false;
    opts.max_cycles = max_cycles - r.cycles;
    const double cpu0 = CpuSeconds();
    CALLGRIND_START_INSTRUMENTATION;
    StatusOr<rtl::RtlRun> run = h->Run(&dram, opts);
    CALLGRIND_STOP_INSTRUMENTATION;
    r.cpu_s += CpuSeconds() - cpu0;
    if (!run.ok()) return run.status();
    r.cycles += run->events.cycles;
    ++r.runs;
    if (run->stop == rtl::Stop::kCycleLimit) {
      r.limited = true;
      break;
    }
    if (run->stop != rtl::Stop::kHalt) return Internal("bare core: " + run->error);
  }
  for (const workloads::DramRange& out : w.outputs) {
    std::vector<uint8_t> bytes(out.bytes);
    dram.Read(out.addr, bytes.data(), bytes.size());
    r.hash = Fnv(r.hash, bytes.data(), bytes.size());
  }
  const std::vector<uint32_t> tmem = h->ReadTmem(0, uint32_t(w.config.TMEM_WORDS));
  r.hash = Fnv(r.hash, tmem.data(), tmem.size() * 4);
  return r;
}

// How the board run records the hardware trace.
enum class Trace { kOff, kFirst, kStream };

StatusOr<Result> Board(const workloads::WorkloadRun& w, Trace trace) {
  ASSIGN_OR_RETURN(std::unique_ptr<SimBoard> b, SimBoard::Create({}));
  ASSIGN_OR_RETURN(std::unique_ptr<host::Card> card, host::Card::Probe(b.get(), w.config));
  RETURN_IF_ERROR(card->WriteImage(w.image));
  RETURN_IF_ERROR(card->WriteProgram(w.program, /*prog_addr=*/0));
  Result r;
  for (const workloads::Step& step : w.steps) {
    for (const workloads::DramWrite& dw : step.writes) {
      RETURN_IF_ERROR(card->WriteDram(dw.addr, dw.bytes.data(), dw.bytes.size()));
    }
    host::RunOptions ro;
    ro.args = step.args;
    ro.timeout = std::chrono::hours(1);  // a model under callgrind is slow; never the limit
    ro.trace.enable = trace != Trace::kOff;
    ro.trace.stream = trace == Trace::kStream;
    ro.trace.sink = [&r](const uint64_t*, size_t n) {
      r.records += int64_t(n);
      return OkStatus();
    };
    const int64_t cycles0 = b->cycles();
    const double cpu0 = CpuSeconds();
    CALLGRIND_START_INSTRUMENTATION;
    StatusOr<host::RunResult> run = card->Run(ro);
    CALLGRIND_STOP_INSTRUMENTATION;
    r.cpu_s += CpuSeconds() - cpu0;
    if (!run.ok()) return run.status();
    // The run protocol's own cycles (loading, polls, counter reads) count: they are the
    // board's work.
    r.cycles += b->cycles() - cycles0;
    ++r.runs;
    if (run->trace) r.drop += run->trace->drop;
  }
  for (const workloads::DramRange& out : w.outputs) {
    std::vector<uint8_t> bytes(out.bytes);
    RETURN_IF_ERROR(card->ReadDram(out.addr, bytes.data(), bytes.size()));
    r.hash = Fnv(r.hash, bytes.data(), bytes.size());
  }
  return r;
}

int Main(int argc, char** argv) {
  po::options_description desc("speed_bench options");
  desc.add_options()("workload", po::value<std::string>()->default_value("mlp-small"),
                     "workload to run (lens list)")(
      "max-cycles", po::value<int64_t>()->default_value(int64_t{1} << 40),
      "stop after this many core cycles (bare core)")(
      "board", po::bool_switch(), "run on the board model (Card's whole run protocol)")(
      "trace", po::value<std::string>()->default_value("off"),
      "board: record the hardware trace, off|first|stream")(
      "assert-off", po::bool_switch(),
      "do not evaluate the compiled-in SV assertions (their cost: scripts/bench_assert_cost.sh)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "speed_bench: " << e.what() << "\n";
    return 2;
  }
  const std::string name = vm["workload"].as<std::string>();
  const bool board = vm["board"].as<bool>();
  const std::string trace_name = vm["trace"].as<std::string>();
  Trace trace = Trace::kOff;
  if (trace_name == "first") {
    trace = Trace::kFirst;
  } else if (trace_name == "stream") {
    trace = Trace::kStream;
  } else if (trace_name != "off") {
    std::cerr << "speed_bench: --trace " << trace_name << ": expected off, first or stream\n";
    return 2;
  }
  if (vm["assert-off"].as<bool>()) rtl::SetAssertionsEvaluated(false);
  StatusOr<workloads::WorkloadRun> w = workloads::MakeWorkload(name, rtl::BuiltConfig());
  if (!w.ok()) {
    std::cerr << "speed_bench: " << w.status().message() << "\n";
    return 1;
  }
  StatusOr<Result> r = board ? Board(*w, trace) : Bare(*w, vm["max-cycles"].as<int64_t>());
  if (!r.ok()) {
    std::cerr << "speed_bench: " << r.status().message() << "\n";
    return 1;
  }
  std::printf(
      "{\"workload\": \"%s\", \"model\": \"%s\", \"runs\": %d, \"cycles\": %lld, "
      "\"limited\": %s, \"cpu_s\": %.3f, \"cycles_per_s\": %.0f, \"hash\": \"%016llx\", "
      "\"trace\": \"%s\", \"records\": %lld, \"drop\": %lld}\n",
      name.c_str(), board ? "board" : "bare", r->runs, static_cast<long long>(r->cycles),
      r->limited ? "true" : "false", r->cpu_s, double(r->cycles) / r->cpu_s,
      static_cast<unsigned long long>(r->hash), board ? trace_name.c_str() : "off",
      static_cast<long long>(r->records), static_cast<long long>(r->drop));
  return 0;
}

}  // namespace
}  // namespace otpu::board

int main(int argc, char** argv) { return otpu::board::Main(argc, argv); }
