#include "host/programs/regress/report.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <map>

#include "host/programs/regress/func_coverage.h"
#include "host/programs/regress/matrix.h"
#include "lens/file_io.h"
#include "base/json.h"
#include "base/strings.h"
#include "workloads/version.h"

namespace otpu::regress {
namespace {

std::string XmlEscape(const std::string& s) {
  std::string o;
  for (unsigned char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&apos;"; break;
      case '\n': o += "&#10;"; break;
      case '\t': o += "\t"; break;
      default:
        if (c < 0x20) o += ' ';  // not allowed in XML 1.0
        else o += char(c);
    }
  }
  return o;
}

// The cell id without its memory part: cells that differ only in stalls.
std::string StallGroup(const CellResult& r, Memory* mem) {
  StatusOr<Memory> m = ParseMemory(r.memory);
  if (!m.ok()) return "";
  *mem = *m;
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t p; (p = r.id.find('/', start)) != std::string::npos; start = p + 1) {
    parts.push_back(r.id.substr(start, p - start));
  }
  parts.push_back(r.id.substr(start));
  if (parts.size() != 5) return "";
  return parts[0] + "/" + parts[1] + "/" + (m->axi ? "axi" : "ideal") + "/" + parts[3] + "/" + parts[4];
}

std::string Mark(Outcome o) {
  switch (o) {
    case Outcome::kPass: return "pass";
    case Outcome::kFail: return "**FAIL**";
    case Outcome::kError: return "**ERROR**";
    case Outcome::kSkip: return "skip";
  }
  return "?";
}

}  // namespace

std::string XmlText(const std::string& s) {
  std::string o;
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      if (c == '&') o += "&amp;";
      else if (c == '<') o += "&lt;";
      else if (c == '>') o += "&gt;";
      else if (c >= 0x20 || c == '\n' || c == '\t' || c == '\r') o += char(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: kept whole when well formed and an XML character, else dropped byte
    // by byte (a log cut mid-character, a binary dump), so the file always parses.
    const int len = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? (c < 0xf0 ? 3 : 0) : c >= 0xc2 ? 2 : 0;
    bool ok = len > 0 && i + len <= n;
    uint32_t cp = ok ? (c & (0x7f >> len)) : 0;
    for (int k = 1; ok && k < len; ++k) {
      const unsigned char cc = s[i + k];
      ok = (cc & 0xc0) == 0x80;
      cp = (cp << 6) | (cc & 0x3f);
    }
    const uint32_t min = len == 2 ? 0x80 : len == 3 ? 0x800 : 0x10000;
    ok = ok && cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff) && cp != 0xfffe &&
         cp != 0xffff;
    if (ok) o.append(s, i, len);
    i += ok ? len : 1;
  }
  return o;
}

std::string LogTail(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff from = size > std::streamoff(kLogTailBytes) ? size - kLogTailBytes : 0;
  in.seekg(from);
  std::string text(size_t(size - from), '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  if (from == 0) return text;
  // Cut: start at the next whole line (if one starts soon) and say how much is left out.
  const size_t nl = text.find('\n');
  if (nl != std::string::npos && nl < 4096) text.erase(0, nl + 1);
  return StrFormat("[... first %lld bytes of %s left out ...]\n", (long long)(size - std::streamoff(text.size())),
                   path.c_str()) + text;
}

bool Index::passed() const {
  return missing.empty() && inversions.empty() && count(Outcome::kPass) == int(cells.size());
}

int Index::count(Outcome o) const {
  int n = 0;
  for (const CellResult& c : cells) n += c.outcome() == o;
  return n;
}

Index MakeIndex(const std::string& matrix, const std::string& name, std::vector<CellResult> cells,
                std::vector<std::string> missing, double wall_s) {
  Index index;
  index.matrix = matrix;
  index.name = name;
  index.wall_s = wall_s;
  std::sort(cells.begin(), cells.end(),
            [](const CellResult& a, const CellResult& b) { return a.index < b.index; });
  index.cells = std::move(cells);
  index.missing = std::move(missing);
  std::map<std::string, std::vector<std::pair<int, const CellResult*>>> groups;
  for (const CellResult& c : index.cells) {
    Memory mem;
    const std::string g = StallGroup(c, &mem);
    if (!g.empty() && c.cycles >= 0) groups[g].push_back({mem.stall, &c});
  }
  for (auto& [g, members] : groups) {
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (size_t i = 1; i < members.size(); ++i) {
      const CellResult &lo = *members[i - 1].second, &hi = *members[i].second;
      if (members[i].first > members[i - 1].first && hi.cycles < lo.cycles) {
        index.inversions.push_back({lo.id, hi.id, lo.cycles, hi.cycles});
      }
    }
  }
  return index;
}

StatusOr<Index> ReadIndexDir(const std::string& dir) {
  ASSIGN_OR_RETURN(std::string sel_text, lens::ReadWholeFile(dir + "/selection.json"));
  rapidjson::Document sel;
  const Status parsed = ParseStrictJson(sel_text, dir + "/selection.json", &sel);
  if (!parsed.ok()) return InvalidArgument(parsed.message());
  if (!sel.IsObject() || !sel.HasMember("cells") || !sel["cells"].IsArray() ||
      !sel.HasMember("matrix") || !sel["matrix"].IsString() || !sel.HasMember("name") ||
      !sel["name"].IsString()) {
    return InvalidArgument(dir + "/selection.json: not a selection ({matrix, name, cells})");
  }
  // Results of another run (an earlier submission into DIR) are not this run's: stale.
  std::string run;
  if (sel.HasMember("run")) {
    if (!sel["run"].IsString()) return InvalidArgument(dir + "/selection.json: run: expected a string");
    run = sel["run"].GetString();
  }
  std::vector<CellResult> cells;
  std::vector<std::string> missing;
  double wall = 0;
  if (sel.HasMember("started") && sel["started"].IsNumber()) {
    wall = double(std::time(nullptr)) - sel["started"].GetDouble();
  }
  std::map<std::string, std::string> logs;
  int position = -1;  // among the selected cells: a Slurm array task's index
  for (const rapidjson::Value& v : sel["cells"].GetArray()) {
    if (!v.IsString()) return InvalidArgument(dir + "/selection.json: cells: expected strings");
    ++position;
    std::string file = v.GetString();
    std::replace(file.begin(), file.end(), '/', '.');
    // A local run logs to logs/CELL.log, a Slurm array task to logs/TASK.log.
    for (const std::string& log : {dir + "/logs/" + file + ".log", dir + "/logs/" + std::to_string(position) + ".log"}) {
      if (std::filesystem::exists(log)) {
        logs[v.GetString()] = LogTail(log);
        break;
      }
    }
    const std::string path = dir + "/cells/" + file + ".json";
    if (!std::filesystem::exists(path)) {
      missing.push_back(v.GetString());
      continue;
    }
    StatusOr<std::string> text = lens::ReadWholeFile(path);
    StatusOr<CellResult> r = text.ok() ? ParseCellResult(*text, path) : StatusOr<CellResult>(text.status());
    if (!r.ok()) {
      // A damaged result is that cell's error: it never passes, and the other cells still count.
      cells.push_back(ErrorResult(v.GetString(), int(cells.size() + missing.size()), r.status().message()));
      continue;
    }
    if (!run.empty() && r->run != run) {
      // What an earlier run left behind never stands for this run's cell (its task died, or
      // never ran): missing, an error, whatever that result said.
      cells.push_back(ErrorResult(
          v.GetString(), int(cells.size() + missing.size()),
          "stale result from run " + (r->run.empty() ? std::string("(none)") : r->run) + " in " +
              path + ": this run (" + run + ") wrote none for the cell"));
      continue;
    }
    cells.push_back(std::move(*r));
  }
  Index index = MakeIndex(sel["matrix"].GetString(), sel["name"].GetString(), std::move(cells),
                          std::move(missing), wall);
  index.logs = std::move(logs);
  return index;
}

std::string IndexJson(const Index& index) {
  std::string j = "{\n";
  auto str = [](const std::string& s) {
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    w.String(s.c_str(), rapidjson::SizeType(s.size()));
    return std::string(sb.GetString(), sb.GetSize());
  };
  j += "\"matrix\": " + str(index.matrix) + ",\n";
  j += "\"name\": " + str(index.name) + ",\n";
  j += "\"tool_version\": " + str(VersionString()) + ",\n";
  j += std::string("\"passed\": ") + (index.passed() ? "true" : "false") + ",\n";
  j += StrFormat("\"wall_s\": %.3f,\n", index.wall_s);
  j += StrFormat("\"counts\": {\"cells\": %zu, \"pass\": %d, \"fail\": %d, \"error\": %d, \"missing\": %zu, \"reused\": %d},\n",
                 index.cells.size(), index.count(Outcome::kPass), index.count(Outcome::kFail),
                 index.count(Outcome::kError), index.missing.size(),
                 int(std::count_if(index.cells.begin(), index.cells.end(),
                                   [](const CellResult& c) { return c.reused; })));
  j += "\"missing\": [";
  for (size_t i = 0; i < index.missing.size(); ++i) j += (i ? ", " : "") + str(index.missing[i]);
  j += "],\n\"stall_inversions\": [";
  for (size_t i = 0; i < index.inversions.size(); ++i) {
    const StallInversion& x = index.inversions[i];
    j += StrFormat("%s{\"lower\": %s, \"higher\": %s, \"lower_cycles\": %lld, \"higher_cycles\": %lld}",
                   i ? ", " : "", str(x.lower_id).c_str(), str(x.higher_id).c_str(),
                   (long long)x.lower_cycles, (long long)x.higher_cycles);
  }
  j += "],\n\"cells\": [\n";
  for (size_t i = 0; i < index.cells.size(); ++i) {
    std::string c = CellResultJson(index.cells[i]);
    while (!c.empty() && c.back() == '\n') c.pop_back();
    j += (i ? ",\n" : "") + c;
  }
  j += "\n]}\n";
  return j;
}

StatusOr<Index> ParseIndex(const std::string& json, const std::string& path) {
  rapidjson::Document doc;
  if (Status s = ParseStrictJson(json, path, &doc); !s.ok()) return InvalidArgument(s.message());
  if (!doc.IsObject() || !doc.HasMember("cells") || !doc["cells"].IsArray() ||
      !doc.HasMember("matrix") || !doc["matrix"].IsString() || !doc.HasMember("name") ||
      !doc["name"].IsString()) {
    return InvalidArgument(path + ": not a regression index ({matrix, name, cells, ...})");
  }
  std::vector<CellResult> cells;
  for (const rapidjson::Value& v : doc["cells"].GetArray()) {
    rapidjson::StringBuffer sb;
    rapidjson::Writer<rapidjson::StringBuffer> w(sb);
    v.Accept(w);
    ASSIGN_OR_RETURN(CellResult r, ParseCellResult(std::string(sb.GetString(), sb.GetSize()), path));
    cells.push_back(std::move(r));
  }
  std::vector<std::string> missing;
  if (doc.HasMember("missing") && doc["missing"].IsArray()) {
    for (const rapidjson::Value& v : doc["missing"].GetArray()) {
      if (v.IsString()) missing.push_back(v.GetString());
    }
  }
  return MakeIndex(doc["matrix"].GetString(), doc["name"].GetString(), std::move(cells),
                   std::move(missing), doc.HasMember("wall_s") && doc["wall_s"].IsNumber()
                                           ? doc["wall_s"].GetDouble() : 0.0);
}

std::string JUnitXml(const Index& index) {
  int tests = 0, failures = 0, errors = 0;
  double time = 0;
  for (const CellResult& c : index.cells) {
    for (const Verdict& v : c.verdicts) {
      ++tests;
      failures += v.outcome == Outcome::kFail;
      errors += v.outcome == Outcome::kError;
    }
    time += c.wall_s;
  }
  tests += int(index.missing.size()) + 1;  // + the stall-monotonic check
  errors += int(index.missing.size());
  failures += index.inversions.empty() ? 0 : 1;
  std::string x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x += StrFormat("<testsuites name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">\n",
                 XmlEscape("otpu-regress " + index.name).c_str(), tests, failures, errors, time);
  const std::string cls = "otpu-regress." + index.name;
  for (const CellResult& c : index.cells) {
    int f = 0, e = 0;
    for (const Verdict& v : c.verdicts) {
      f += v.outcome == Outcome::kFail;
      e += v.outcome == Outcome::kError;
    }
    x += StrFormat("  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%d\" errors=\"%d\" skipped=\"0\" time=\"%.3f\"",
                   XmlEscape(c.id).c_str(), c.verdicts.size(), f, e, c.wall_s);
    // Results older than the fields have neither; an empty timestamp is no xs:dateTime.
    if (!c.started.empty()) x += " timestamp=\"" + XmlEscape(c.started) + "\"";
    if (!c.hostname.empty()) x += " hostname=\"" + XmlEscape(c.hostname) + "\"";
    x += ">\n";
    x += "    <properties>\n";
    const std::pair<const char*, std::string> props[] = {
        {"workload", c.workload},
        {"config", c.config},
        {"memory", c.memory},
        {"transport", c.transport},
        {"seed", std::to_string(c.seed)},
        {"cycles", std::to_string(c.cycles)},
        {"efficiency", StrFormat("%.6f", c.efficiency)},
        {"command", c.command},
        {"key", c.key},
        {"reused", c.reused ? "true" : "false"},
        {"profile", c.profile},
        {"waves", c.waves},
    };
    for (const auto& [name, value] : props) {
      x += StrFormat("      <property name=\"%s\" value=\"%s\"/>\n", name, XmlEscape(value).c_str());
    }
    x += "    </properties>\n";
    for (const Verdict& v : c.verdicts) {
      // Microseconds: parity's and performance's comparisons take well under a millisecond.
      x += StrFormat("    <testcase name=\"%s\" classname=\"%s\" time=\"%.6f\"",
                     XmlEscape(v.name).c_str(), XmlEscape(cls + "." + c.id).c_str(), v.time_s);
      if (v.outcome == Outcome::kPass) {
        x += "/>\n";
        continue;
      }
      x += ">\n";
      if (v.outcome == Outcome::kSkip) {
        x += "      <skipped message=\"" + XmlEscape(v.message) + "\"/>\n    </testcase>\n";
        continue;
      }
      const char* tag = v.outcome == Outcome::kFail ? "failure" : "error";
      x += StrFormat("      <%s message=\"%s\" type=\"%s\">%s\nreproduce: %s%s</%s>\n", tag,
                     XmlEscape(v.message).c_str(), XmlEscape(v.name).c_str(),
                     XmlText(v.detail.empty() ? v.message : v.detail).c_str(),
                     XmlText(c.command).c_str(),
                     c.waves.empty() ? "" : XmlText("\nwaves: " + c.waves).c_str(), tag);
      x += "    </testcase>\n";
    }
    if (auto log = index.logs.find(c.id); log != index.logs.end() && !log->second.empty()) {
      x += "    <system-out>" + XmlText(log->second) + "</system-out>\n";
    }
    x += "  </testsuite>\n";
  }
  x += StrFormat("  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%d\" errors=\"%zu\" skipped=\"0\" time=\"0\">\n",
                 XmlEscape(cls + ".matrix").c_str(), 1 + index.missing.size(),
                 index.inversions.empty() ? 0 : 1, index.missing.size());
  x += StrFormat("    <testcase name=\"stall-monotonic\" classname=\"%s\" time=\"0\"", XmlEscape(cls).c_str());
  if (index.inversions.empty()) {
    x += "/>\n";
  } else {
    std::string text;
    for (const StallInversion& s : index.inversions) {
      text += StrFormat("%s: %lld cycles < %s: %lld cycles\n", s.higher_id.c_str(),
                        (long long)s.higher_cycles, s.lower_id.c_str(), (long long)s.lower_cycles);
    }
    x += ">\n      <failure message=\"cycles fell as stalls rose\" type=\"metamorphic\">" +
         XmlText(text) + "</failure>\n    </testcase>\n";
  }
  for (const std::string& m : index.missing) {
    x += StrFormat("    <testcase name=\"%s\" classname=\"%s\" time=\"0\">\n      <error message=\"no result: the cell did not finish\" type=\"infrastructure\"/>\n    </testcase>\n",
                   XmlEscape(m).c_str(), XmlEscape(cls).c_str());
  }
  x += "  </testsuite>\n</testsuites>\n";
  return x;
}

std::string MovedRollup(const Index& index, size_t max_rows) {
  // Per instruction of a program (the id's workload with its options, and the pc): the cells it
  // moved in, and per cell its change of own cycles and of its end.
  struct Row {
    std::string program, name, source;
    int64_t pc = 0;
    int cells = 0;
    int64_t runs = 0;
    int64_t busy_lo = INT64_MAX, busy_hi = INT64_MIN, end_lo = INT64_MAX, end_hi = INT64_MIN;
  };
  std::map<std::pair<std::string, int64_t>, Row> rows;
  std::map<std::string, int> cells_of;  // program -> cells that differ
  for (const CellResult& c : index.cells) {
    if (c.moved.empty()) continue;
    const std::string program = c.id.substr(0, c.id.find('/'));
    ++cells_of[program];
    for (const MovedInstr& m : c.moved) {
      Row& r = rows[{program, m.pc}];
      r.program = program;
      r.pc = m.pc;
      r.name = m.name;
      if (r.source.empty()) r.source = m.source;
      ++r.cells;
      r.runs += m.runs;
      r.busy_lo = std::min(r.busy_lo, m.d_busy);
      r.busy_hi = std::max(r.busy_hi, m.d_busy);
      r.end_lo = std::min(r.end_lo, m.d_end);
      r.end_hi = std::max(r.end_hi, m.d_end);
    }
  }
  if (rows.empty()) return "";
  std::vector<Row> list;
  for (auto& [k, r] : rows) list.push_back(r);
  auto mag = [](const Row& r) { return std::max(std::llabs(r.busy_lo), std::llabs(r.busy_hi)); };
  std::stable_sort(list.begin(), list.end(), [&](const Row& a, const Row& b) {
    if (a.cells != b.cells) return a.cells > b.cells;
    return mag(a) > mag(b);
  });
  auto range = [](int64_t lo, int64_t hi) {
    return lo == hi ? StrFormat("%+lld", (long long)lo) : StrFormat("%+lld … %+lld", (long long)lo, (long long)hi);
  };
  int cells = 0;
  for (const auto& [p, n] : cells_of) cells += n;
  std::string md = StrFormat(
      "\n### Instructions that moved, across cells\n\n"
      "%d cell%s differ%s from %s baselines. Per instruction: the cells it moved in (of its workload's "
      "cells that differ), its runs that moved, and per cell the change of its own cycles (end − start, "
      "summed over its runs) and of its end (the run that moved farthest).\n\n"
      "| workload | pc | instruction | source | cells | runs | Δ own cycles | Δ end |\n"
      "|---|---:|---|---|---:|---:|---|---|\n",
      cells, cells == 1 ? "" : "s", cells == 1 ? "s" : "", cells == 1 ? "its" : "their");
  for (size_t i = 0; i < list.size() && i < max_rows; ++i) {
    const Row& r = list[i];
    md += StrFormat("| `%s` | %lld | %s | %s | %d of %d | %lld | %s | %s |\n", r.program.c_str(), (long long)r.pc,
                    r.name.c_str(), r.source.empty() ? "" : ("`" + r.source + "`").c_str(), r.cells,
                    cells_of[r.program], (long long)r.runs, range(r.busy_lo, r.busy_hi).c_str(),
                    range(r.end_lo, r.end_hi).c_str());
  }
  if (list.size() > max_rows) md += StrFormat("\n… and %zu more instructions.\n", list.size() - max_rows);
  return md;
}

std::string MarkdownSummary(const Index& index) {
  const int pass = index.count(Outcome::kPass), fail = index.count(Outcome::kFail),
            err = index.count(Outcome::kError);
  const int reused = int(std::count_if(index.cells.begin(), index.cells.end(),
                                       [](const CellResult& c) { return c.reused; }));
  std::string md = StrFormat("## otpu-regress `%s`: %s\n\n", index.name.c_str(),
                             index.passed() ? "passed" : "**FAILED**");
  md += StrFormat("%zu cells: %d passed, %d failed, %d errors", index.cells.size() + index.missing.size(),
                  pass, fail, err + int(index.missing.size()));
  if (reused) md += StrFormat(" (%d reused from an earlier run)", reused);
  md += StrFormat(", in %.1f s. Matrix `%s`.\n\n", index.wall_s, index.matrix.c_str());
  // Failing cells (and missing ones) stay in sight; passing rows fold into <details>, so a
  // large matrix's step summary or merge-request note opens on what needs reading.
  std::string head = "| cell ", rule = "|---";
  for (const char* name : kVerdictNames) {
    head += StrFormat("| %s ", name);
    rule += "|---";
  }
  head += "| cycles | roofline |\n" + rule + "|---:|---:|\n";
  std::string empty_row;
  for (size_t i = 1; i < std::size(kVerdictNames) + 2; ++i) empty_row += " |";
  auto row = [](const CellResult& c) {
    std::string line = "| `" + c.id + "` ";
    for (const char* name : kVerdictNames) {
      Outcome o = Outcome::kSkip;
      for (const Verdict& v : c.verdicts) {
        if (v.name == name) o = v.outcome;
      }
      line += "| " + Mark(o) + " ";
    }
    return line + StrFormat("| %lld | %.1f%% |\n", (long long)c.cycles, 100 * c.efficiency);
  };
  std::string failing, passing;
  for (const CellResult& c : index.cells) (c.outcome() == Outcome::kPass ? passing : failing) += row(c);
  for (const std::string& m : index.missing) failing += "| `" + m + "` | **ERROR** |" + empty_row + "\n";
  if (!failing.empty()) md += head + failing;
  if (!passing.empty()) {
    md += StrFormat("%s<details><summary>%d passing cells</summary>\n\n", failing.empty() ? "" : "\n", pass) +
          head + passing + "\n</details>\n";
  }
  if (!index.inversions.empty()) {
    md += "\n### Cycles fell as stalls rose\n\n";
    for (const StallInversion& s : index.inversions) {
      md += StrFormat("- `%s`: %lld cycles, fewer than `%s`: %lld\n", s.higher_id.c_str(),
                      (long long)s.higher_cycles, s.lower_id.c_str(), (long long)s.lower_cycles);
    }
  }
  bool header = false;
  for (const CellResult& c : index.cells) {
    for (const Verdict& v : c.verdicts) {
      if (v.outcome != Outcome::kFail && v.outcome != Outcome::kError) continue;
      if (!header) {
        md += "\n### Failures\n";
        header = true;
      }
      md += "\n**`" + c.id + "`** " + v.name + ": " + v.message + "\n";
      if (!v.detail.empty()) {
        std::string detail;
        int lines = 0;
        size_t start = 0;
        for (size_t p; lines < 30 && (p = v.detail.find('\n', start)) != std::string::npos; start = p + 1) {
          detail += v.detail.substr(start, p - start + 1);
          ++lines;
        }
        md += "\n```\n" + detail + "```\n";
      }
      md += "\nreproduce: `" + c.command + "`";
      if (!c.profile.empty()) md += "; profile: `" + c.profile + "`";
      if (!c.waves.empty()) md += "; waves: [`" + c.waves + "`](" + c.waves + ")";
      md += "\n";
    }
  }
  md += MovedRollup(index);
  const CoverageSummary coverage = MergeCoverage(index.cells);
  if (coverage.cells > 0) md += "\n" + CoverageMarkdown(coverage);
  for (const CellResult& c : index.cells) {
    if (c.accepted.empty()) continue;
    md += "\n### Baseline of `" + c.id + "` accepted\n\n```\n" + c.accepted +
          (c.accepted.back() == '\n' ? "" : "\n") + "```\n";
  }
  return md;
}

Status WriteReports(const std::string& dir, const Index& index) {
  RETURN_IF_ERROR(lens::WriteFileAtomically(dir + "/index.json", IndexJson(index)));
  RETURN_IF_ERROR(lens::WriteFileAtomically(dir + "/junit.xml", JUnitXml(index)));
  RETURN_IF_ERROR(lens::WriteFileAtomically(dir + "/summary.md", MarkdownSummary(index)));
  RETURN_IF_ERROR(
      lens::WriteFileAtomically(dir + "/coverage.json", CoverageJson(MergeCoverage(index.cells))));
  return OkStatus();
}

}  // namespace otpu::regress
