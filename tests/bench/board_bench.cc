// Measures, never asserts: the board model's simulated core cycles per CPU second on a
// workload run the way a host runs it (image and program by DMA, then Card's run protocol,
// host/card.h, as every otpu program runs it), against the bare Verilated core (RtlHarness, event
// tap off) on the same program and DRAM options; and the same board with quantum 1 against
// quantum 256, the cost of synchronising SystemC every cycle. The workload's steps repeat
// until the bare core has run about --seconds of CPU; the boards run as many repeats. Each
// board runs in its own child process (one SystemC kernel per process). Speeds are per CPU
// second of the measuring process (wall seconds are printed too: a shared machine inflates
// them). Prints one JSON object.
#include <boost/program_options.hpp>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

#include "host/card.h"
#include "sim/board/child_process.h"
#include "sim/board/sim_board.h"
#include "sim/rtl/rtl_harness.h"
#include "workloads/list.h"

namespace otpu::board {
namespace {

namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

// Wall and CPU seconds of a stretch of work.
struct Stopwatch {
  Clock::time_point wall0 = Clock::now();
  double cpu0 = CpuSeconds();
  double wall() const { return std::chrono::duration<double>(Clock::now() - wall0).count(); }
  double cpu() const { return CpuSeconds() - cpu0; }
};

struct BoardSpeed {
  int quantum = 0;
  int64_t run_cycles = 0;   // CYCLES summed over the steps
  int64_t core_cycles = 0;  // the board's clock over the whole protocol (polls included)
  int64_t polls = 0;        // STATUS reads while loading and running
  double wall_s = 0, cpu_s = 0;  // the run protocols (not the image's DMA)
  double cycles_per_s() const { return double(core_cycles) / cpu_s; }
};

// One board with `quantum` running every step of `w`, `repeats` times; "run_cycles
// core_cycles polls wall_s cpu_s" or "error MESSAGE". Runs in a child process.
std::string MeasureBoard(const workloads::WorkloadRun& w, int quantum, int repeats) {
  SimBoardOptions opts;
  opts.quantum_cycles = quantum;
  StatusOr<std::unique_ptr<SimBoard>> board = SimBoard::Create(opts);
  if (!board.ok()) return "error " + board.status().message();
  SimBoard* b = board->get();
  StatusOr<std::unique_ptr<host::Card>> card = host::Card::Probe(b, w.config);
  if (!card.ok()) return "error " + card.status().message();
  host::Card& c = **card;
  int64_t polls = 0;
  c.set_poll_observer([&polls](host::PollWait wait, uint32_t) {
    polls += wait == host::PollWait::kLoad || wait == host::PollWait::kHalt;
  });
  Status s = c.WriteImage(w.image);
  if (s.ok()) s = c.WriteProgram(w.program, /*prog_addr=*/0);
  if (!s.ok()) return "error " + s.message();
  int64_t run_cycles = 0, core_cycles = 0;
  double wall = 0, cpu = 0;
  for (int r = 0; r < repeats; ++r) {
    for (const workloads::Step& step : w.steps) {
      for (const workloads::DramWrite& dw : step.writes) {
        s = c.WriteDram(dw.addr, dw.bytes.data(), dw.bytes.size());
        if (!s.ok()) return "error " + s.message();
      }
      host::RunOptions ro;
      ro.args = step.args;
      ro.timeout = std::chrono::hours(1);  // the model is slow; never the limit
      const int64_t cycles0 = b->cycles();
      const Stopwatch watch;
      StatusOr<host::RunResult> run = c.Run(ro);
      wall += watch.wall();
      cpu += watch.cpu();
      if (!run.ok()) return "error " + run.status().message();
      core_cycles += b->cycles() - cycles0;
      run_cycles += run->counters.cycles;
    }
  }
  std::ostringstream out;
  out << run_cycles << ' ' << core_cycles << ' ' << polls << ' ' << wall << ' ' << cpu;
  return out.str();
}

StatusOr<BoardSpeed> BoardInChild(const workloads::WorkloadRun& w, int quantum, int repeats) {
  ASSIGN_OR_RETURN(const std::string text,
                   RunInChild([&] { return MeasureBoard(w, quantum, repeats); }));
  if (text.rfind("error ", 0) == 0) return Internal(text.substr(6));
  BoardSpeed speed;
  speed.quantum = quantum;
  std::istringstream in(text);
  if (!(in >> speed.run_cycles >> speed.core_cycles >> speed.polls >> speed.wall_s >>
        speed.cpu_s)) {
    return Internal("board bench child printed '" + text + "'");
  }
  return speed;
}

struct BareSpeed {
  int repeats = 0;
  int64_t cycles = 0;
  double wall_s = 0, cpu_s = 0;
  double cycles_per_s() const { return double(cycles) / cpu_s; }
};

// Every step of `w` on the bare Verilated core with the board's DRAM options, repeated until
// `seconds` of CPU have passed.
StatusOr<BareSpeed> MeasureBare(const workloads::WorkloadRun& w, double seconds) {
  ASSIGN_OR_RETURN(std::unique_ptr<rtl::RtlHarness> h, rtl::RtlHarness::Create(w.config));
  RETURN_IF_ERROR(h->LoadProgram(w.program));
  SparseMemory dram = w.image;
  BareSpeed speed;
  while (speed.repeats == 0 || speed.cpu_s < seconds) {
    for (const workloads::Step& step : w.steps) {
      for (const workloads::DramWrite& dw : step.writes) {
        dram.Write(dw.addr, dw.bytes.data(), dw.bytes.size());
      }
      rtl::RtlRunOptions opts;
      opts.args = step.args;
      opts.mem = SimBoardOptions::DefaultMemory();
      opts.record_events = false;  // the board reads no events without a hook
      const Stopwatch watch;
      ASSIGN_OR_RETURN(const rtl::RtlRun run, h->Run(&dram, opts));
      speed.wall_s += watch.wall();
      speed.cpu_s += watch.cpu();
      if (run.stop != rtl::Stop::kHalt) return Internal("bare core: " + run.error);
      speed.cycles += run.events.cycles;
    }
    ++speed.repeats;
  }
  return speed;
}

void WriteBoard(rapidjson::Writer<rapidjson::StringBuffer>& j, const BoardSpeed& s) {
  j.StartObject();
  j.Key("quantum_cycles"), j.Int(s.quantum);
  j.Key("run_cycles"), j.Int64(s.run_cycles);
  j.Key("core_cycles"), j.Int64(s.core_cycles);
  j.Key("status_polls"), j.Int64(s.polls);
  j.Key("wall_s"), j.Double(s.wall_s);
  j.Key("cpu_s"), j.Double(s.cpu_s);
  j.Key("core_cycles_per_s"), j.Double(s.cycles_per_s());
  j.EndObject();
}

int Main(int argc, char** argv) {
  po::options_description desc("board_bench options");
  desc.add_options()("workload", po::value<std::string>()->default_value("mlp-small"),
                     "workload to run (lens list)")(
      "seconds", po::value<double>()->default_value(1.0),
      "CPU seconds of the bare core's repeats")(
      "quantum", po::value<int>()->default_value(256), "the board's usual quantum, cycles");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "board_bench: " << e.what() << "\n";
    return 2;
  }
  const std::string name = vm["workload"].as<std::string>();
  const int quantum = vm["quantum"].as<int>();
  StatusOr<workloads::WorkloadRun> w = workloads::MakeWorkload(name, rtl::BuiltConfig());
  if (!w.ok()) {
    std::cerr << "board_bench: " << w.status().message() << "\n";
    return 1;
  }
  // The parent makes no SystemC kernel: each board is a child's.
  StatusOr<BareSpeed> bare = MeasureBare(*w, vm["seconds"].as<double>());
  StatusOr<BoardSpeed> usual =
      bare.ok() ? BoardInChild(*w, quantum, bare->repeats) : StatusOr<BoardSpeed>(bare.status());
  StatusOr<BoardSpeed> every = usual.ok() ? BoardInChild(*w, 1, bare->repeats) : usual.status();
  if (!every.ok()) {
    std::cerr << "board_bench: " << every.status().message() << "\n";
    return 1;
  }
  const double bare_cps = bare->cycles_per_s();
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> j(buf);
  j.StartObject();
  j.Key("workload"), j.String(name.c_str());
  j.Key("mem"), j.String(SimBoardOptions::DefaultMemory().Name().c_str());
  j.Key("repeats"), j.Int(bare->repeats);
  j.Key("bare_core"), j.StartObject();
  j.Key("cycles"), j.Int64(bare->cycles);
  j.Key("wall_s"), j.Double(bare->wall_s);
  j.Key("cpu_s"), j.Double(bare->cpu_s);
  j.Key("core_cycles_per_s"), j.Double(bare_cps);
  j.EndObject();
  j.Key("board"), WriteBoard(j, *usual);
  j.Key("board_quantum_1"), WriteBoard(j, *every);
  // Speed of the board model relative to the bare core (1 = no cost), and what syncing every
  // cycle costs relative to the usual quantum.
  j.Key("board_vs_bare"), j.Double(usual->cycles_per_s() / bare_cps);
  j.Key("quantum_1_vs_usual"), j.Double(every->cycles_per_s() / usual->cycles_per_s());
  j.Key("quanta_same_cycles"), j.Bool(usual->run_cycles == every->run_cycles);
  j.EndObject();
  std::puts(buf.GetString());
  return 0;
}

}  // namespace
}  // namespace otpu::board

int main(int argc, char** argv) { return otpu::board::Main(argc, argv); }
