#include "host/programs/regress/stale_baselines.h"
#include "host/programs/regress/local_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "base/install_paths.h"
#include "base/strings.h"
#include "base/subprocess.h"
#include "base/unique_fd.h"
#include "host/programs/regress/out_dir_lock.h"
#include "host/programs/regress/run_id.h"
#include "lens/file_io.h"
#include "workloads/models/content_hash.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

// The content hash of the regular file at `path`; "none" when there is none, "not-a-file"
// for anything else (a FIFO would block the read, /dev/zero never end: the cell's own read of
// it reports the error).
std::string HashFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return "none";
  const UniqueFd file(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return "not-a-file";
  models::ContentHasher h;
  std::vector<char> buf(1 << 20);
  while (true) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "unreadable";
    if (n == 0) break;
    h.Update(buf.data(), size_t(n));
  }
  return h.Hex();
}

std::string Quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+=:") ==
                        std::string::npos) {
    return s;
  }
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A cell running as a child process, its output in a log file.
struct Child {
  Cell cell;
  std::unique_ptr<Subprocess> process;
  double start = 0;
};

StatusOr<std::unique_ptr<Subprocess>> Spawn(const std::vector<std::string>& argv,
                                             const std::string& log) {
  std::fflush(stdout);
  std::fflush(stderr);
  SubprocessOptions options;
  options.argv = argv;
  options.in = Stream::Inherit();
  options.out = Stream::File(log);
  options.err_to_out = true;
  options.inherit_fds = true;
  return Subprocess::Start(options);
}

}  // namespace

int ExitCodeOf(const Index& index) {
  if (index.count(Outcome::kFail) > 0 || !index.inversions.empty()) return kExitFail;
  if (index.count(Outcome::kError) > 0 || !index.missing.empty()) return kExitInfra;
  return kExitPass;
}

KeyInputs CurrentKeyInputs(const std::string& extra, const std::string& emulator) {
  KeyInputs in;
  in.tool = HashFile("/proc/self/exe");
  const std::string found = FindExecutable(emulator);
  in.emulator = HashFile(found.empty() ? emulator : found);
  models::ContentHasher h;
  const fs::path rtl = fs::path(DataDir()) / "rtl";
  std::vector<fs::path> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(rtl, ec); !ec && it != fs::end(it); it.increment(ec)) {
    if (it->is_regular_file()) files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    const std::string name = f.lexically_relative(rtl).string();
    const std::string content = HashFile(f.string());
    h.Update(name.data(), name.size());
    h.Update(content.data(), content.size());
  }
  in.rtl = h.Hex();
  in.extra = extra;
  return in;
}

std::string CellKey(const Matrix& m, const Cell& cell, const KeyInputs& in,
                    const std::string& baselines_dir) {
  const rtl::DramOptions mem = m.DramOf(cell);
  const std::string text =
      StrFormat("v1|%s|%s|%s|%s|%d|%s|%s|%s|%s|%llu|lat %d q %d bpc %.17g|%s", in.tool.c_str(),
                in.rtl.c_str(), cell.id.c_str(), cell.workload.c_str(), cell.pos,
                isa::WFormatName(cell.wf), cell.config.c_str(), cell.memory.Name().c_str(),
                cell.transport.c_str(), (unsigned long long)cell.seed, mem.latency,
                mem.queue_beats, mem.beats_per_cycle, in.extra.c_str()) +
      StrFormat("|timeout %.17g", m.timeout_s) +
      (cell.transport == "card" ? "|emulator " + in.emulator : std::string()) +
      "|baseline " + HashFile(baselines_dir + "/" + cell.FileName() + ".json");
  models::ContentHasher h;
  h.Update(text.data(), text.size());
  return h.Hex();
}

std::string ReproduceCommand(const Matrix& m, const Cell& cell, const std::string& baselines_dir,
                             const std::string& default_baselines) {
  std::string cmd = "otpu-regress cell " + Quote(m.path) + " --id " + Quote(cell.id);
  if (fs::weakly_canonical(baselines_dir) != fs::weakly_canonical(default_baselines)) {
    cmd += " --baselines " + Quote(baselines_dir);
  }
  return cmd;
}

Status WriteSelection(const std::string& dir, const Matrix& m, const std::vector<Cell>& cells,
                      const std::string& run_id) {
  rapidjson::StringBuffer sb;
  rapidjson::Writer<rapidjson::StringBuffer> w(sb);
  w.StartObject();
  w.Key("matrix");
  w.String(m.path.c_str());
  w.Key("name");
  w.String(m.name.c_str());
  w.Key("run");
  w.String(run_id.c_str());
  w.Key("started");
  w.Int64(int64_t(std::time(nullptr)));
  w.Key("cells");
  w.StartArray();
  for (const Cell& c : cells) w.String(c.id.c_str());
  w.EndArray();
  w.EndObject();
  std::error_code ec;
  fs::create_directories(dir + "/cells", ec);
  fs::create_directories(dir + "/logs", ec);
  if (ec) return Internal(dir + ": " + ec.message());
  return lens::WriteFileAtomically(dir + "/selection.json", std::string(sb.GetString(), sb.GetSize()) + "\n");
}

int RunLocal(const Matrix& m, const RunOptions& opts) {
  const double t0 = Now();
  StatusOr<std::vector<Cell>> selected = SelectCells(m, opts.only, opts.shard, opts.shards);
  if (!selected.ok()) {
    std::fprintf(stderr, "otpu-regress run: %s\n", selected.status().message().c_str());
    return kExitUsage;
  }
  std::vector<Cell> cells = std::move(*selected);
  if (cells.empty()) {
    // A typo in --only must not pass (nor replace the reports of an earlier run).
    std::fprintf(stderr, "otpu-regress run: %s selects no cell of %s (see otpu-regress list)\n",
                 opts.only.empty() ? "--shard" : ("--only '" + opts.only + "'").c_str(),
                 m.path.c_str());
    return kExitUsage;
  }
  // With --rerun-failed, the cells that passed in the earlier index keep their results: the
  // new index holds every selected cell, the rerun ones updated.
  std::map<std::string, CellResult> carried;
  if (!opts.rerun_failed.empty()) {
    StatusOr<std::string> text = lens::ReadWholeFile(opts.rerun_failed);
    StatusOr<Index> prev = text.ok() ? ParseIndex(*text, opts.rerun_failed) : StatusOr<Index>(text.status());
    if (!prev.ok()) {
      std::fprintf(stderr, "otpu-regress run: --rerun-failed: %s\n", prev.status().message().c_str());
      return kExitBadInput;
    }
    std::set<std::string> failed(prev->missing.begin(), prev->missing.end());
    for (const CellResult& c : prev->cells) {
      if (c.outcome() != Outcome::kPass) failed.insert(c.id);
      else carried[c.id] = c;
    }
    size_t rerun = 0;
    for (const Cell& c : cells) {
      if (failed.count(c.id)) {
        ++rerun;
        carried.erase(c.id);
      }
    }
    if (rerun == 0) {
      std::fprintf(stderr,
                   "otpu-regress run: --rerun-failed %s: %s\n", opts.rerun_failed.c_str(),
                   failed.empty() ? "no cell failed in it"
                                  : StrFormat("none of its %zu failed cells is selected in %s",
                                              failed.size(), m.path.c_str()).c_str());
      return kExitUsage;
    }
    for (const Cell& c : cells) {
      if (!failed.count(c.id) && !carried.count(c.id)) {
        std::fprintf(stderr, "otpu-regress run: --rerun-failed %s: cell %s has no result in it\n",
                     opts.rerun_failed.c_str(), c.id.c_str());
        return kExitUsage;
      }
    }
    std::printf("rerunning the %zu failed cells of %s\n", rerun, opts.rerun_failed.c_str());
  }
  // One run per out dir from here on: a second run into it would rewrite the selection this
  // run's verdict is read from.
  StatusOr<OutDirLock> lock = OutDirLock::Acquire(opts.out_dir, "otpu-regress run");
  if (!lock.ok()) {
    std::fprintf(stderr, "otpu-regress run: %s\n", lock.status().message().c_str());
    return kExitInfra;
  }
  const std::string run_id = NewRunId();
  if (Status s = WriteSelection(opts.out_dir, m, cells, run_id); !s.ok()) {
    std::fprintf(stderr, "otpu-regress run: %s\n", s.message().c_str());
    return kExitInfra;
  }

  const KeyInputs key_in =
      CurrentKeyInputs(std::string(opts.accept ? "accept" : "") + opts.inject, opts.emulator);
  const std::string default_baselines = (fs::path(m.path).parent_path() / "baselines").string();
  std::vector<Cell> queue;
  int reused = 0;
  for (const Cell& c : cells) {
    const std::string path = opts.out_dir + "/cells/" + c.FileName() + ".json";
    if (auto it = carried.find(c.id); it != carried.end()) {
      CellResult kept = it->second;
      kept.reused = true;
      kept.run = run_id;  // carried over on purpose: part of this run
      if (Status s = lens::WriteFileAtomically(path, CellResultJson(kept)); !s.ok()) {
        std::fprintf(stderr, "otpu-regress run: %s\n", s.message().c_str());
        return kExitInfra;
      }
      ++reused;
      continue;
    }
    const std::string key = CellKey(m, c, key_in, opts.baselines_dir);
    if (opts.reuse && !opts.accept) {
      StatusOr<std::string> text = lens::ReadWholeFile(path);
      if (text.ok()) {
        StatusOr<CellResult> prev = ParseCellResult(*text, path);
        if (prev.ok() && prev->key == key && prev->outcome() == Outcome::kPass) {
          prev->reused = true;
          prev->run = run_id;  // reused on purpose: part of this run
          if (lens::WriteFileAtomically(path, CellResultJson(*prev)).ok()) {
            ++reused;
            continue;
          }
        }
      }
    }
    std::error_code ec;
    fs::remove(path, ec);
    queue.push_back(c);
  }
  std::printf("%s: %zu cells selected, %d reused, %zu to run with -j %d\n", m.path.c_str(),
              cells.size(), reused, queue.size(), opts.jobs);

  std::vector<Child> running;
  size_t next = 0, done = 0;
  while (next < queue.size() || !running.empty()) {
    while (next < queue.size() && int(running.size()) < opts.jobs) {
      const Cell& c = queue[next++];
      std::vector<std::string> argv = {opts.self, "cell", m.path, "--id", c.id, "--out",
                                       opts.out_dir, "--baselines", opts.baselines_dir,
                                       "--run", run_id};
      if (opts.accept) argv.push_back("--accept");
      if (opts.keep_profiles) argv.push_back("--keep-profiles");
      if (opts.code_coverage) argv.push_back("--code-coverage");
      if (!opts.inject.empty()) argv.insert(argv.end(), {"--inject-trace-flip", opts.inject});
      if (!opts.emulator.empty()) argv.insert(argv.end(), {"--emulator", opts.emulator});
      StatusOr<std::unique_ptr<Subprocess>> process =
          Spawn(argv, opts.out_dir + "/logs/" + c.FileName() + ".log");
      if (!process.ok()) {
        std::fprintf(stderr, "otpu-regress run: %s\n", process.status().message().c_str());
        continue;
      }
      running.push_back({c, std::move(process).value(), Now()});
    }
    if (running.empty()) break;
    // Sleep until some cell has ended, without reaping it: its handle reaps it below.
    siginfo_t info;
    if (::waitid(P_ALL, 0, &info, WEXITED | WNOWAIT) != 0 && errno != EINTR) break;
    for (size_t i = 0; i < running.size();) {
      const std::optional<SubprocessResult> ended = running[i].process->TryWait();
      if (!ended) {
        ++i;
        continue;
      }
      const Child child = std::move(running[i]);
      running.erase(running.begin() + long(i));
      ++done;
      const std::string path = opts.out_dir + "/cells/" + child.cell.FileName() + ".json";
      StatusOr<std::string> text = lens::ReadWholeFile(path);
      StatusOr<CellResult> r = text.ok() ? ParseCellResult(*text, path) : StatusOr<CellResult>(text.status());
      if (!r.ok()) {
        // The process died before writing its result: an infrastructure error, with its log.
        CellResult e;
        e.id = child.cell.id;
        e.index = child.cell.index;
        e.matrix = m.path;
        e.workload = child.cell.workload;
        e.config = child.cell.config;
        e.memory = child.cell.memory.Name();
        e.transport = child.cell.transport;
        e.seed = child.cell.seed;
        e.key = "";
        e.run = run_id;
        e.command = ReproduceCommand(m, child.cell, opts.baselines_dir, default_baselines);
        e.wall_s = Now() - child.start;
        const std::string why =
            !ended->exited ? StrFormat("the cell process was killed by signal %d", ended->signal)
                           : StrFormat("the cell process exited %d without a result", ended->exit_code);
        for (const char* name : kVerdictNames) {
          e.verdicts.push_back({name, Outcome::kError, why + "; log: logs/" + child.cell.FileName() + ".log", ""});
        }
        (void)lens::WriteFileAtomically(path, CellResultJson(e));
        r = e;
      }
      std::printf("[%zu/%zu] %-5s %s  %lld cycles  %.1f s\n", done, queue.size(),
                  OutcomeName(r->outcome()), child.cell.id.c_str(), (long long)r->cycles, r->wall_s);
      for (const Verdict& v : r->verdicts) {
        if (v.outcome == Outcome::kFail || v.outcome == Outcome::kError) {
          std::printf("        %s: %s\n", v.name.c_str(), v.message.c_str());
        }
      }
      std::fflush(stdout);
    }
  }

  StatusOr<Index> index = ReadIndexDir(opts.out_dir);
  if (!index.ok()) {
    std::fprintf(stderr, "otpu-regress run: %s\n", index.status().message().c_str());
    return kExitInfra;
  }
  index->wall_s = Now() - t0;
  if (Status s = WriteReports(opts.out_dir, *index); !s.ok()) {
    std::fprintf(stderr, "otpu-regress run: %s\n", s.message().c_str());
    return kExitInfra;
  }
  for (const StallInversion& s : index->inversions) {
    std::printf("stall-monotonic: %s has %lld cycles, fewer than %s with %lld\n", s.higher_id.c_str(),
                (long long)s.higher_cycles, s.lower_id.c_str(), (long long)s.lower_cycles);
  }
  std::printf("%s: %d passed, %d failed, %d errors (%d reused) in %.1f s; wrote %s/{index.json,junit.xml,summary.md}\n",
              index->passed() ? "PASSED" : "FAILED", index->count(Outcome::kPass),
              index->count(Outcome::kFail), index->count(Outcome::kError) + int(index->missing.size()),
              reused, index->wall_s, opts.out_dir.c_str());
  // Matrices share the baselines directory: say which of the others this accept left behind.
  if (opts.accept) std::fputs(StaleBaselinesText(FindStaleBaselines(m, index->cells, opts.baselines_dir)).c_str(), stdout);
  return ExitCodeOf(*index);
}

}  // namespace otpu::regress
