// lens_bench: measures (never asserts) the ISA simulator's speed on a workload, qwen-tiny
// decode on the ISA simulator and on the RTL (cycles, roofline efficiency, wall seconds per
// step) and `lens record qwen-tiny --pos` on the RTL, the Verilated core's speed and
// the cost of its event tap, the RTL roofline efficiency and `lens record` wall time of mlp,
// mlp8 and layer, the trace decoder and hw profile builder on the records of an RTL run, and
// the .otpuprof writer and reader on a large synthetic profile; prints one JSON object.
// scripts/bench.sh builds and runs it.
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <unistd.h>

#include <boost/program_options.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <rapidjson/document.h>
#include <rapidjson/writer.h>
#include <zlib.h>

#include <algorithm>

#include "lens/build_hw_profile.h"
#include "lens/file_io.h"
#include "lens/gzip.h"
#include "lens/build_profile.h"
#include "lens/otpuprof.h"
#include "lens/profile_json.h"
#include "lens/recorder.h"
#include "lens/rtl_step_runner.h"
#include "lens/synthetic.h"
#include "sim/isa/isa_sim.h"
#include "sim/rtl/rtl_harness.h"
#include "sim/rtl/trace/trace_unit_model.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

namespace po = boost::program_options;
using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

double Seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Runs the workload's traced step on the ISA simulator until `min_seconds` have passed.
Status BenchSim(const std::string& name, double min_seconds, Writer& w) {
  ASSIGN_OR_RETURN(workloads::WorkloadRun run, workloads::MakeWorkload(name, isa::Config::Sim()));
  SparseMemory dram(run.image);
  sim::IsaSim sim(run.config, &dram);
  RETURN_IF_ERROR(sim.LoadProgram(run.program));
  sim::IsaRunOptions opts;
  opts.args = run.steps.back().args;
  int64_t runs = 0, retired = 0, cycles = 0;
  double t0 = Seconds(), elapsed = 0;
  trace::RunEvents events;
  while (runs == 0 || elapsed < min_seconds) {
    ASSIGN_OR_RETURN(events, sim.Run(opts));
    ++runs;
    retired += events.retired;
    cycles += events.cycles;
    elapsed = Seconds() - t0;
  }
  double b0 = Seconds();
  ASSIGN_OR_RETURN(Profile p,
                   BuildProfile(ProfileKind::kIsa, name, run.config, run.program, events));
  double build = Seconds() - b0;
  w.Key("isa_sim");
  w.StartObject();
  w.Key("workload"), w.String(name.c_str());
  w.Key("runs"), w.Int64(runs);
  w.Key("instructions_per_run"), w.Int64(events.retired);
  w.Key("cycles_per_run"), w.Int64(events.cycles);
  w.Key("seconds"), w.Double(elapsed);
  w.Key("instructions_per_s"), w.Double(double(retired) / elapsed);
  w.Key("simulated_cycles_per_s"), w.Double(double(cycles) / elapsed);
  w.Key("build_profile_s"), w.Double(build);
  w.EndObject();
  return OkStatus();
}

// qwen-tiny decode on one board: positions 0..pos run as the recorder runs them (the host's
// embedding write, then the step), all on the ISA simulator or all on the RTL (ideal memory),
// the last one profiled for cycles and roofline; wall seconds per step over all of them and of
// the traced step alone (the RTL reads its event tap only then).
Status BenchDecodeOn(bool on_rtl, int pos, Writer& w) {
  const isa::Config cfg = on_rtl ? rtl::BuiltConfig() : isa::Config::Sim();
  ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                   workloads::MakeWorkload("qwen-tiny", cfg, {.pos = pos}));
  std::unique_ptr<StepRunner> runner;
  if (on_rtl) {
    runner = std::make_unique<RtlStepRunner>(rtl::DramOptions{}, kDefaultBucketCycles);
  } else {
    runner = std::make_unique<IsaStepRunner>();
  }
  RETURN_IF_ERROR(runner->Load(run));
  trace::RunEvents last;
  double traced_s = 0;
  const double t0 = Seconds();
  for (const workloads::Step& step : run.steps) {
    const double s0 = Seconds();
    for (const workloads::DramWrite& dw : step.writes)
      RETURN_IF_ERROR(runner->WriteDram(dw.addr, dw.bytes));
    ASSIGN_OR_RETURN(last, runner->Run(step));
    if (step.traced) traced_s = Seconds() - s0;
  }
  const double wall = Seconds() - t0;
  ASSIGN_OR_RETURN(Profile p,
                   runner->BuildStepProfile(run.name, run, last, kDefaultBucketCycles));
  const workloads::CheckReport check = run.check(runner->dram());
  w.Key(on_rtl ? "rtl" : "isa");
  w.StartObject();
  w.Key("D"), w.Int(cfg.D);
  w.Key("MCOLS"), w.Int(cfg.MCOLS);
  w.Key("cycles"), w.Int64(p.cycles);
  w.Key("roofline_efficiency"), w.Double(p.roofline.efficiency);
  w.Key("instructions_per_step"), w.Int64(last.retired);
  w.Key("wall_s_per_step"), w.Double(wall / double(run.steps.size()));
  w.Key("wall_s_traced_step"), w.Double(traced_s);
  w.Key("logits_rel_l2"), w.Double(check.rel_l2);
  w.EndObject();
  return OkStatus();
}

// qwen-tiny decode at `pos` on the ISA simulator and on the RTL, and `lens record qwen-tiny
// --pos` on the RTL as the program runs it (earlier positions on the ISA simulator).
Status BenchDecode(int pos, Writer& w) {
  w.Key("qwen_tiny_decode");
  w.StartObject();
  w.Key("positions"), w.Int(pos + 1);
  w.Key("traced_pos"), w.Int(pos);
  RETURN_IF_ERROR(BenchDecodeOn(false, pos, w));
  RETURN_IF_ERROR(BenchDecodeOn(true, pos, w));
  const double t0 = Seconds();
  ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                   workloads::MakeWorkload("qwen-tiny", rtl::BuiltConfig(), {.pos = pos}));
  RtlStepRunner runner(rtl::DramOptions{}, kDefaultBucketCycles, /*untraced_on_isa=*/true);
  RETURN_IF_ERROR(Record(run, runner).status());
  w.Key("rtl_record_wall_s"), w.Double(Seconds() - t0);
  w.EndObject();
  return OkStatus();
}

// The Verilated core on `name`'s traced step, single thread: simulated cycles/s with the
// event tap (the EventCollector reading the bundle every cycle) and without, `pairs` pairs of
// runs in one process, alternating which goes first; the tap's cost as the ratio of the times.
Status BenchRtlSpeed(const std::string& name, int pairs, Writer& w) {
  ASSIGN_OR_RETURN(workloads::WorkloadRun run, workloads::MakeWorkload(name, rtl::BuiltConfig()));
  ASSIGN_OR_RETURN(std::unique_ptr<rtl::RtlHarness> h, rtl::RtlHarness::Create(run.config));
  RETURN_IF_ERROR(h->LoadProgram(run.program));
  double with_s = 0, without_s = 0;
  int64_t with_cycles = 0, without_cycles = 0;
  for (int i = 0; i < 2 * pairs; ++i) {
    const bool tap = (i % 2 == 0) == (i / 2 % 2 == 0);  // on off, off on, on off, ...
    SparseMemory dram = run.image;
    for (const workloads::DramWrite& dw : run.steps.back().writes)
      dram.Write(dw.addr, dw.bytes.data(), dw.bytes.size());
    rtl::RtlRunOptions opts;
    opts.args = run.steps.back().args;
    opts.record_events = tap;
    ASSIGN_OR_RETURN(rtl::RtlRun r, h->Run(&dram, opts));
    if (r.stop != rtl::Stop::kHalt) return Internal(name + ": RTL run stopped by " + r.error);
    (tap ? with_s : without_s) += r.seconds;
    (tap ? with_cycles : without_cycles) += r.events.cycles;
  }
  w.Key("rtl_speed");
  w.StartObject();
  w.Key("workload"), w.String(name.c_str());
  w.Key("pairs"), w.Int(pairs);
  w.Key("cycles_per_run"), w.Int64(with_cycles / pairs);
  w.Key("simulated_cycles_per_s"), w.Double(double(with_cycles) / with_s);
  w.Key("simulated_cycles_per_s_without_tap"), w.Double(double(without_cycles) / without_s);
  w.Key("event_tap_cost_ratio"), w.Double(with_s / without_s);
  w.EndObject();
  return OkStatus();
}

// `lens record` of each workload on the RTL (ideal memory) as the program does it: record,
// then write the file; its wall seconds, cycles and port-B roofline efficiency.
Status BenchRtlRecord(const std::vector<std::string>& names, const std::string& dir, Writer& w) {
  w.Key("rtl_record");
  w.StartObject();
  for (const std::string& name : names) {
    const double t0 = Seconds();
    ASSIGN_OR_RETURN(workloads::WorkloadRun run,
                     workloads::MakeWorkload(name, rtl::BuiltConfig()));
    RtlStepRunner runner(rtl::DramOptions{}, kDefaultBucketCycles);
    ASSIGN_OR_RETURN(Recording rec, Record(run, runner));
    ProfileFile file;
    file.profiles = rec.profiles;
    const std::string path = dir + "/lens_bench_rtl." + std::to_string(getpid()) + ".otpuprof";
    Status written = Write(path, file);
    std::filesystem::remove(path);
    RETURN_IF_ERROR(written);
    const double wall = Seconds() - t0;
    const Profile& p = rec.profiles.back();
    w.Key(name.c_str());
    w.StartObject();
    w.Key("cycles"), w.Int64(p.cycles);
    w.Key("roofline_efficiency"), w.Double(p.roofline.efficiency);
    w.Key("record_wall_s"), w.Double(wall);
    w.EndObject();
  }
  w.EndObject();
  return OkStatus();
}

// The hw path's host side: the records of `name`'s traced step on the RTL (a lossless trace
// unit model), tokenized, decoded and built into a hw profile again and again for at least
// `min_seconds`; records per second.
Status BenchTraceDecode(const std::string& name, double min_seconds, Writer& w) {
  ASSIGN_OR_RETURN(workloads::WorkloadRun run, workloads::MakeWorkload(name, rtl::BuiltConfig()));
  ASSIGN_OR_RETURN(std::unique_ptr<rtl::RtlHarness> h, rtl::RtlHarness::Create(run.config));
  RETURN_IF_ERROR(h->LoadProgram(run.program));
  ASSIGN_OR_RETURN(std::unique_ptr<rtl::TraceUnitModel> unit,
                   rtl::TraceUnitModel::Create({.queue_depth = 1 << 16, .depth = 1 << 22}));
  h->AddHook(unit.get());
  SparseMemory dram = run.image;
  for (const workloads::DramWrite& dw : run.steps.back().writes)
    dram.Write(dw.addr, dw.bytes.data(), dw.bytes.size());
  rtl::RtlRunOptions opts;
  opts.args = run.steps.back().args;
  ASSIGN_OR_RETURN(rtl::RtlRun r, h->Run(&dram, opts));
  if (r.stop != rtl::Stop::kHalt) return Internal(name + ": RTL run stopped by " + r.error);
  const std::vector<trace::Record> records = unit->Records();
  const TraceRegisters regs{.count = unit->count(), .drop = unit->drop(),
                            .depth = unit->options().depth};
  // Pairs in one run, alternating which goes first: decode only (tokenize and decode, the
  // records fed in drain-sized chunks) and decode + hw profile build (BuildHwProfile).
  int64_t builds = 0;
  double build_s = 0, decode_s = 0;
  const double t0 = Seconds();
  constexpr size_t kChunk = 4096;
  auto decode_only = [&]() -> Status {
    decode::StreamDecoder d(run.program, run.config, regs.cycles);
    for (size_t at = 0; at < records.size(); at += kChunk) {
      RETURN_IF_ERROR(d.Feed(records.data() + at, std::min(kChunk, records.size() - at)));
    }
    ASSIGN_OR_RETURN(decode::StreamDecoded s, d.Finish());
    if (s.decoded.run.events.cycles != r.events.cycles) {
      return Internal(name + ": the decode lost cycles");
    }
    return OkStatus();
  };
  auto build = [&]() -> Status {
    ASSIGN_OR_RETURN(Profile p, BuildHwProfile(name, run.config, run.program, records, regs,
                                               kDefaultBucketCycles, "ideal"));
    if (p.cycles != r.events.cycles) return Internal(name + ": the hw profile lost cycles");
    return OkStatus();
  };
  do {
    for (int k = 0; k < 2; ++k) {
      const bool build_now = (k == 0) == (builds % 2 == 0);
      const double s0 = Seconds();
      RETURN_IF_ERROR(build_now ? build() : decode_only());
      (build_now ? build_s : decode_s) += Seconds() - s0;
    }
    ++builds;
  } while (Seconds() - t0 < 2 * min_seconds);
  w.Key("trace_decode");
  w.StartObject();
  w.Key("workload"), w.String(name.c_str());
  w.Key("records"), w.Int64(int64_t(records.size()));
  w.Key("builds"), w.Int64(builds);
  w.Key("records_per_s"), w.Double(double(records.size()) * double(builds) / build_s);
  w.Key("decode_only_records_per_s"), w.Double(double(records.size()) * double(builds) / decode_s);
  // Issue 23's budget: at most 1.5.
  w.Key("build_over_decode_ratio"), w.Double(build_s / decode_s);
  w.EndObject();
  return OkStatus();
}

// Writes and reads back a synthetic isa profile of `instrs` instruction rows.
// The bare libraries on the profile's JSON text: RapidJSON's Writer over a Document of it into
// a StringBuffer, then libdeflate at `level` (the write's yardstick); zlib's inflate of the
// file and RapidJSON's Document::Parse of the text (the read's). Seconds of each.
struct Yardsticks {
  double write_s = 0, read_s = 0;
};

StatusOr<Yardsticks> MeasureYardsticks(const std::string& json, const std::string& gz,
                                       int level) {
  Yardsticks y;
  {
    rapidjson::Document doc;
    doc.Parse(json.data(), json.size());
    if (doc.HasParseError()) return Internal("lens_bench: the profile JSON does not parse");
    const double t0 = Seconds();
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> writer(sb);
    doc.Accept(writer);
    ASSIGN_OR_RETURN(std::string packed,
                     GzipCompress(std::string_view(sb.GetString(), sb.GetSize()), level));
    y.write_s = Seconds() - t0;
  }
  const double t0 = Seconds();
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return Internal("lens_bench: inflateInit2");
  std::string text(json.size(), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  z.avail_in = uInt(gz.size());
  z.next_out = reinterpret_cast<Bytef*>(text.data());
  z.avail_out = uInt(text.size());
  const int r = inflate(&z, Z_FINISH);
  inflateEnd(&z);
  if (r != Z_STREAM_END) return Internal("lens_bench: inflate");
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  if (doc.HasParseError()) return Internal("lens_bench: the inflated JSON does not parse");
  y.read_s = Seconds() - t0;
  return y;
}

// Writes a synthetic profile at gzip levels 1..6: seconds and file size of each (the level of
// kGzipLevel is the one chosen by this measurement, docs/profile.md).
Status BenchGzipLevels(const std::string& json, Writer& w) {
  w.Key("gzip_levels");
  w.StartArray();
  for (int level = 1; level <= 6; ++level) {
    const double t0 = Seconds();
    ASSIGN_OR_RETURN(std::string gz, GzipCompress(json, level));
    const double s = Seconds() - t0;
    w.StartObject();
    w.Key("level"), w.Int(level);
    w.Key("seconds"), w.Double(s);
    w.Key("json_mb_per_s"), w.Double(double(json.size()) / 1e6 / s);
    w.Key("file_mb"), w.Double(double(gz.size()) / 1e6);
    w.EndObject();
  }
  w.EndArray();
  return OkStatus();
}

Status BenchProfileIo(int64_t instrs, const std::string& dir, Writer& w) {
  ProfileFile file = SyntheticFile({ProfileKind::kIsa}, instrs);
  ASSIGN_OR_RETURN(std::string json, ProfileFileToJson(file));
  const double json_mb = double(json.size()) / 1e6;
  const std::string path = dir + "/lens_bench." + std::to_string(getpid()) + ".otpuprof";
  // Three rounds, ours and the yardsticks in turn; the best of each (the machine's speed
  // drifts, so the ratios come from one run).
  double write_s = 1e30, read_s = 1e30, bare_write_s = 1e30, bare_read_s = 1e30,
         bare_write1_s = 1e30;
  StatusOr<ProfileFile> back = Internal("not read");
  for (int round = 0; round < 3; ++round) {
    double t0 = Seconds();
    RETURN_IF_ERROR(Write(path, file));
    write_s = std::min(write_s, Seconds() - t0);
    back = Internal("not read");  // the last round's profile is freed before the clock starts
    t0 = Seconds();
    back = Read(path);
    read_s = std::min(read_s, Seconds() - t0);
    if (!back.ok()) break;
    ASSIGN_OR_RETURN(std::string gz, ReadWholeFile(path));
    ASSIGN_OR_RETURN(Yardsticks y, MeasureYardsticks(json, gz, kGzipLevel));
    bare_write_s = std::min(bare_write_s, y.write_s);
    bare_read_s = std::min(bare_read_s, y.read_s);
    ASSIGN_OR_RETURN(Yardsticks y1, MeasureYardsticks(json, gz, 1));
    bare_write1_s = std::min(bare_write1_s, y1.write_s);
  }
  const double file_mb = double(std::filesystem::file_size(path)) / 1e6;
  std::filesystem::remove(path);
  if (!back.ok()) return back.status();
  w.Key("profile_io");
  w.StartObject();
  w.Key("instructions"), w.Int64(instrs);
  w.Key("json_mb"), w.Double(json_mb);
  w.Key("file_mb"), w.Double(file_mb);
  w.Key("write_s"), w.Double(write_s);
  w.Key("read_s"), w.Double(read_s);
  w.Key("write_json_mb_per_s"), w.Double(json_mb / write_s);
  w.Key("read_json_mb_per_s"), w.Double(json_mb / read_s);
  w.Key("read_equals_written"), w.Bool(*back == file);
  w.Key("gzip_level"), w.Int(kGzipLevel);
  // Issue 23's budgets: each at least 0.6 (RapidJSON + libdeflate at the same level for the
  // write; zlib's inflate + RapidJSON's Document::Parse for the read).
  w.Key("write_vs_rapidjson_libdeflate"), w.Double(bare_write_s / write_s);
  w.Key("write_vs_rapidjson_libdeflate_level1"), w.Double(bare_write1_s / write_s);
  w.Key("read_vs_inflate_rapidjson"), w.Double(bare_read_s / read_s);
  RETURN_IF_ERROR(BenchGzipLevels(json, w));
  w.EndObject();
  return OkStatus();
}

int Main(int argc, char** argv) {
  po::options_description opts("lens_bench options");
  opts.add_options()("workload", po::value<std::string>()->default_value("mlp"),
                     "workload for the simulator")(
      "instrs", po::value<int64_t>()->default_value(1000000), "rows of the synthetic profile")(
      "seconds", po::value<double>()->default_value(1.0), "least time to run the simulator")(
      "decode-pos", po::value<int>()->default_value(8), "qwen-tiny position to profile")(
      "rtl-pairs", po::value<int>()->default_value(2), "RTL runs with and without the tap")(
      "dir", po::value<std::string>()->default_value(std::filesystem::temp_directory_path()),
      "where the profile file is written")(
      "only", po::value<std::string>()->default_value(""),
      "comma-separated sections to run (isa_sim, qwen_tiny_decode, rtl_speed, rtl_record, "
      "trace_decode, profile_io); default all");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "lens_bench: " << e.what() << "\n";
    return 2;
  }
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  const std::string only = "," + vm["only"].as<std::string>() + ",";
  auto run = [&](const char* section) {
    return only == ",," || only.find("," + std::string(section) + ",") != std::string::npos;
  };
  Status s;
  if (run("isa_sim")) s = BenchSim(vm["workload"].as<std::string>(), vm["seconds"].as<double>(), w);
  if (s.ok() && run("qwen_tiny_decode")) s = BenchDecode(vm["decode-pos"].as<int>(), w);
  if (s.ok() && run("rtl_speed")) s = BenchRtlSpeed("mlp", vm["rtl-pairs"].as<int>(), w);
  if (s.ok() && run("rtl_record")) {
    s = BenchRtlRecord({"mlp", "mlp8", "layer"}, vm["dir"].as<std::string>(), w);
  }
  if (s.ok() && run("trace_decode")) s = BenchTraceDecode("mlp", vm["seconds"].as<double>(), w);
  if (s.ok() && run("profile_io")) {
    s = BenchProfileIo(vm["instrs"].as<int64_t>(), vm["dir"].as<std::string>(), w);
  }
  if (!s.ok()) {
    std::cerr << "lens_bench: " << s.message() << "\n";
    return 1;
  }
  w.EndObject();
  std::puts(buf.GetString());
  return 0;
}

}  // namespace
}  // namespace otpu::lens

int main(int argc, char** argv) { return otpu::lens::Main(argc, argv); }
