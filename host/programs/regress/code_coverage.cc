#include "host/programs/regress/code_coverage.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include "base/strings.h"
#include "base/subprocess.h"
#include "lens/file_io.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

// The fields of a point's key: "\001key\002value" repeated (verilated_cov_key.h).
std::map<std::string, std::string> KeyFields(const std::string& key) {
  std::map<std::string, std::string> out;
  size_t at = 0;
  while ((at = key.find('\001', at)) != std::string::npos) {
    const size_t sep = key.find('\002', at);
    if (sep == std::string::npos) break;
    size_t end = key.find('\001', sep);
    if (end == std::string::npos) end = key.size();
    out[key.substr(at + 1, sep - at - 1)] = key.substr(sep + 1, end - sep - 1);
    at = end;
  }
  return out;
}

std::string Field(const std::map<std::string, std::string>& f, const char* key) {
  auto it = f.find(key);
  return it == f.end() ? "" : it->second;
}

}  // namespace

StatusOr<std::vector<CoveragePoint>> ParseCoverageDat(const std::string& text,
                                                      const std::string& path) {
  std::map<std::tuple<std::string, std::string, int, std::string>, CoveragePoint> merged;
  size_t start = 0;
  int lineno = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    ++lineno;
    if (line.empty() || line[0] == '#') continue;
    // C '<key>' <count>
    const size_t q1 = line.find('\''), q2 = line.rfind('\'');
    if (line.rfind("C '", 0) != 0 || q2 <= q1) {
      return InvalidArgument(StrFormat("%s:%d: not a coverage point", path.c_str(), lineno));
    }
    uint64_t count = 0;
    try {
      count = std::stoull(line.substr(q2 + 1));
    } catch (const std::exception&) {
      return InvalidArgument(StrFormat("%s:%d: a point without a count", path.c_str(), lineno));
    }
    const auto f = KeyFields(line.substr(q1 + 1, q2 - q1 - 1));
    const std::string page = Field(f, "page");
    CoveragePoint p;
    if (page.rfind("v_line", 0) == 0 || page.rfind("v_branch", 0) == 0) {
      p.kind = "line";
    } else if (page.rfind("v_toggle", 0) == 0) {
      p.kind = "toggle";
    } else {
      continue;  // user cover points and the like: not this report's
    }
    const size_t slash = page.find('/');
    p.module = slash == std::string::npos ? "" : page.substr(slash + 1);
    // Verilator names a parameterized module's copies "otpu_mxu__pi5" (and "otpu_vpu__"):
    // the module is what the source names.
    if (const size_t pi = p.module.find("__"); pi != std::string::npos) p.module.resize(pi);
    p.file = Field(f, "f");
    p.line = std::atoi(Field(f, "l").c_str());
    p.column_comment = Field(f, "n") + ":" + Field(f, "o");
    const auto key = std::make_tuple(p.kind, p.file, p.line, p.column_comment);
    auto [it, fresh] = merged.emplace(key, p);
    it->second.count += count;
    (void)fresh;
  }
  std::vector<CoveragePoint> out;
  out.reserve(merged.size());
  for (auto& [k, p] : merged) out.push_back(std::move(p));
  return out;
}

CodeCoverage SummarizeCodeCoverage(const std::vector<CoveragePoint>& points, int cells) {
  CodeCoverage c;
  c.cells = cells;
  std::map<std::string, ModuleCoverage> by_module;
  std::map<std::string, std::set<int>> uncovered;
  for (const CoveragePoint& p : points) {
    ModuleCoverage& m = by_module[p.module];
    m.module = p.module;
    if (m.file.empty()) m.file = p.file;
    const bool hit = p.count > 0;
    if (p.kind == "line") {
      ++m.line_points;
      m.line_hit += hit;
      if (!hit) uncovered[p.module].insert(p.line);
    } else {
      ++m.toggle_points;
      m.toggle_hit += hit;
    }
  }
  for (auto& [name, m] : by_module) {
    m.uncovered_lines.assign(uncovered[name].begin(), uncovered[name].end());
    if (m.file.find("rtl/core/") != std::string::npos) {
      c.core_line_points += m.line_points;
      c.core_line_hit += m.line_hit;
      c.core_toggle_points += m.toggle_points;
      c.core_toggle_hit += m.toggle_hit;
    }
    c.modules.push_back(m);
  }
  return c;
}

StatusOr<CodeCoverage> MergeCodeCoverage(const std::string& out_dir) {
  std::vector<std::string> dats;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out_dir + "/code-coverage", ec)) {
    if (e.path().extension() == ".dat") dats.push_back(e.path().string());
  }
  if (dats.empty()) return NotFound("no cell wrote coverage into " + out_dir + "/code-coverage");
  std::sort(dats.begin(), dats.end());
  const std::string merged = out_dir + "/code_coverage.dat";
  auto run = [&](std::vector<std::string> argv) -> Status {
    SubprocessOptions o;
    o.argv = std::move(argv);
    o.out = Stream::Capture();
    o.err = Stream::Capture();
    StatusOr<SubprocessResult> r = RunSubprocess(o);
    if (!r.ok()) return Unavailable(r.status().message() + " (install Verilator)");
    if (r->exit_code != 0) {
      std::string err = r->err.substr(0, r->err.find('\n'));
      return Unavailable(StrFormat("%s failed (exit %d): %s", o.argv[0].c_str(), r->exit_code,
                                   err.c_str()));
    }
    return OkStatus();
  };
  std::vector<std::string> write = {"verilator_coverage", "--write", merged};
  write.insert(write.end(), dats.begin(), dats.end());
  RETURN_IF_ERROR(run(write));
  RETURN_IF_ERROR(run({"verilator_coverage", "--annotate", out_dir + "/code-coverage-annotated",
                       "--annotate-min", "1", merged}));
  ASSIGN_OR_RETURN(const std::string text, lens::ReadWholeFile(merged));
  ASSIGN_OR_RETURN(const std::vector<CoveragePoint> points, ParseCoverageDat(text, merged));
  return SummarizeCodeCoverage(points, int(dats.size()));
}

std::string CodeCoverageJson(const CodeCoverage& c) {
  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 1);
  w.StartObject();
  w.Key("cells");
  w.Int(c.cells);
  w.Key("rtl_core");
  w.StartObject();
  w.Key("line_points");
  w.Int(c.core_line_points);
  w.Key("line_hit");
  w.Int(c.core_line_hit);
  w.Key("line_percent");
  w.Double(c.core_line_percent());
  w.Key("toggle_points");
  w.Int(c.core_toggle_points);
  w.Key("toggle_hit");
  w.Int(c.core_toggle_hit);
  w.Key("toggle_percent");
  w.Double(c.core_toggle_percent());
  w.EndObject();
  w.Key("modules");
  w.StartArray();
  for (const ModuleCoverage& m : c.modules) {
    w.StartObject();
    w.Key("module");
    w.String(m.module.c_str());
    w.Key("file");
    w.String(m.file.c_str());
    w.Key("line_points");
    w.Int(m.line_points);
    w.Key("line_hit");
    w.Int(m.line_hit);
    w.Key("toggle_points");
    w.Int(m.toggle_points);
    w.Key("toggle_hit");
    w.Int(m.toggle_hit);
    w.Key("uncovered_lines");
    w.StartArray();
    for (int l : m.uncovered_lines) w.Int(l);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  return std::string(sb.GetString(), sb.GetSize()) + "\n";
}

std::string CodeCoverageMarkdown(const CodeCoverage& c) {
  std::string md = StrFormat(
      "## Code coverage\n\n`rtl/core`: line %.1f %% (%d of %d points), toggle %.1f %% (%d of %d), "
      "merged over %d cells with `verilator_coverage` (`code_coverage.dat`, annotated sources in "
      "`code-coverage-annotated/`).\n\n| module | file | line | toggle | lines never run |\n"
      "|---|---|---:|---:|---|\n",
      c.core_line_percent(), c.core_line_hit, c.core_line_points, c.core_toggle_percent(),
      c.core_toggle_hit, c.core_toggle_points, c.cells);
  for (const ModuleCoverage& m : c.modules) {
    std::string lines;
    for (size_t i = 0; i < m.uncovered_lines.size() && i < 40; ++i) {
      lines += (i ? ", " : "") + std::to_string(m.uncovered_lines[i]);
    }
    if (m.uncovered_lines.size() > 40) lines += StrFormat(" (+%zu)", m.uncovered_lines.size() - 40);
    std::string file = m.file;
    if (const size_t at = file.find("rtl/"); at != std::string::npos) file = file.substr(at);
    md += StrFormat("| `%s` | `%s` | %.1f %% | %.1f %% | %s |\n", m.module.c_str(), file.c_str(),
                    m.line_percent(), m.toggle_percent(), lines.c_str());
  }
  return md + "\n";
}

}  // namespace otpu::regress
