#include "host/programs/regress/stale_baselines.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "base/strings.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

// The part of an id before its configuration: the workload with its options ("mlp-small+int4").
std::string ProgramOf(const std::string& id) { return id.substr(0, id.find('/')); }

// `s` with the characters a PCRE2 pattern gives meaning escaped.
std::string RegexQuote(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::string("\\^$.|?*+()[]{}").find(c) != std::string::npos) out += '\\';
    out += c;
  }
  return out;
}

bool SameDram(const DramTiming& a, const DramTiming& b) {
  return a.latency == b.latency && a.queue_beats == b.queue_beats && a.beats_per_cycle == b.beats_per_cycle;
}

bool SameDir(const std::string& a, const std::string& b) {
  std::error_code ea, eb;
  const fs::path x = fs::weakly_canonical(a, ea), y = fs::weakly_canonical(b, eb);
  return !ea && !eb && x == y;
}

}  // namespace

std::vector<StaleCells> FindStaleBaselines(const Matrix& m, const std::vector<CellResult>& results,
                                           const std::string& baselines_dir) {
  std::set<std::string> ran, changed;
  std::set<std::pair<std::string, std::string>> changed_programs;  // (workload+options, config)
  for (const CellResult& r : results) {
    ran.insert(r.id);
    if (r.accepted.empty()) continue;
    changed.insert(r.id);
    changed_programs.insert({ProgramOf(r.id), r.config});
  }
  std::vector<StaleCells> out;
  if (changed.empty()) return out;
  const fs::path dir = fs::path(m.path).parent_path();
  std::vector<fs::path> files;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(dir.empty() ? "." : dir, ec)) {
    if (e.path().extension() == ".json" && e.is_regular_file(ec)) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    if (SameDir(f.string(), m.path)) continue;
    // Only matrices that read the same baselines (the directory beside them, by default).
    if (!SameDir((f.parent_path() / "baselines").string(), baselines_dir)) continue;
    StatusOr<Matrix> other = ReadMatrix(f.string());
    if (!other.ok()) continue;  // not a matrix (or a broken one, which its own run reports)
    StaleCells shared{f.string(), "shared", {}, ""}, not_run{f.string(), "not_run", {}, ""};
    std::set<std::string> patterns;
    for (const Cell& c : other->cells) {
      if (changed.count(c.id)) {
        if (!SameDram(other->dram, m.dram)) shared.ids.push_back(c.id);
      } else if (!ran.count(c.id) && changed_programs.count({ProgramOf(c.id), c.config})) {
        not_run.ids.push_back(c.id);
        patterns.insert(RegexQuote(ProgramOf(c.id) + "/" + c.config + "/"));
      }
    }
    const std::string cmd = "otpu-regress run " + f.string() + " --only '";
    if (!shared.ids.empty()) {
      std::string alt;
      for (const std::string& id : shared.ids) alt += (alt.empty() ? "" : "|") + RegexQuote(id);
      shared.recheck = cmd + "^(" + alt + ")$' --accept";
      out.push_back(std::move(shared));
    }
    if (!not_run.ids.empty()) {
      std::string alt;
      for (const std::string& p : patterns) alt += (alt.empty() ? "" : "|") + p;
      not_run.recheck = cmd + "^(" + alt + ")' --accept";
      out.push_back(std::move(not_run));
    }
  }
  return out;
}

std::string StaleBaselinesText(const std::vector<StaleCells>& stale, size_t max_ids) {
  if (stale.empty()) return "";
  std::string s = "stale baselines: this --accept left other matrices' baselines behind:\n";
  for (const StaleCells& x : stale) {
    s += StrFormat("  %s: %zu cell%s ", x.matrix.c_str(), x.ids.size(), x.ids.size() == 1 ? "" : "s");
    s += x.reason == "shared"
             ? "read a baseline this run rewrote, but run other DRAM timing (the new figures are not theirs):\n"
             : "not run here, whose workload and configuration changed here (their baselines very likely disagree now):\n";
    for (size_t i = 0; i < x.ids.size() && i < max_ids; ++i) s += "    " + x.ids[i] + "\n";
    if (x.ids.size() > max_ids) s += StrFormat("    ... and %zu more\n", x.ids.size() - max_ids);
    s += "    recheck: " + x.recheck + "\n";
  }
  return s;
}

}  // namespace otpu::regress
