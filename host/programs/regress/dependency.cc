#include "host/programs/regress/dependency.h"

#include <algorithm>
#include <limits>
#include <string>

#include "base/strings.h"
#include "workloads/isa/footprint.h"

namespace otpu::regress {
namespace {

struct Judged {
  const lens::InstrRow* row = nullptr;
  isa::Footprint fp;
  bool mm = false;
  int64_t check = 0;  // the earliest cycle a conflict could be violated at: start, or release
};

std::string Source(const lens::Profile& p, const lens::InstrRow& r) {
  if (r.source < 0 || size_t(r.source) >= p.sources.size()) return "";
  const lens::Source& s = p.sources[size_t(r.source)];
  return StrFormat(" at %s:%lld", s.file.c_str(), (long long)s.line);
}

// "pc 12 VOP.ADD at workloads/kernels/mlp.cc:88 (#40, start 500, end 530)".
std::string Name(const lens::Profile& p, const lens::InstrRow& r) {
  std::string s = StrFormat("pc %lld %s%s (#%lld, start %lld", (long long)r.pc, r.name.c_str(),
                            Source(p, r).c_str(), (long long)r.idx, (long long)r.start);
  if (r.release >= 0) s += StrFormat(", release %lld", (long long)r.release);
  return s + StrFormat(", end %lld)", (long long)r.end);
}

struct Finding {
  int64_t count = 0;
  std::string first;
  std::string detail;
};

// The pairs of `p` ordered against the hazard rule.
Status JudgeProfile(const isa::Config& cfg, const std::vector<DispatchedInstr>& isa,
                    const lens::Profile& p, Finding* f) {
  std::vector<const lens::InstrRow*> rows;
  for (const lens::InstrRow& r : p.instrs) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const lens::InstrRow* a, const lens::InstrRow* b) { return a->idx < b->idx; });
  std::vector<Judged> js;
  js.reserve(rows.size());
  for (const lens::InstrRow* r : rows) {
    if (r->idx < 0 || size_t(r->idx) >= isa.size() || isa[size_t(r->idx)].idx != r->idx) {
      return InvalidArgument(StrFormat("the %s profile's instruction #%lld (pc %lld %s) has no "
                                       "counterpart on the ISA simulator, which dispatched %zu",
                                       lens::KindName(p.kind), (long long)r->idx,
                                       (long long)r->pc, r->name.c_str(), isa.size()));
    }
    const DispatchedInstr& in = isa[size_t(r->idx)];
    if (int64_t(in.pc) != r->pc) {
      return InvalidArgument(StrFormat("the %s profile's instruction #%lld is pc %lld %s, the ISA "
                                       "simulator's pc %u: the dispatch sequence differs",
                                       lens::KindName(p.kind), (long long)r->idx,
                                       (long long)r->pc, r->name.c_str(), in.pc));
    }
    if (r->start < 0 || r->end < 0) continue;  // not seen whole (a cut trace)
    Judged j;
    j.row = r;
    j.fp = isa::FootprintOf(in.resolved, cfg);
    j.mm = in.resolved.opcode() == uint8_t(isa::Opcode::kMM);
    j.check = j.mm && r->release >= 0 ? std::min(r->start, r->release) : r->start;
    js.push_back(j);
  }
  // later_min[k]: the earliest cycle any instruction from k on could violate a dependency. An
  // older instruction that ended by then can no longer be violated: it leaves the sweep.
  std::vector<int64_t> later_min(js.size() + 1, std::numeric_limits<int64_t>::max());
  for (size_t k = js.size(); k-- > 0;) later_min[k] = std::min(later_min[k + 1], js[k].check);
  std::vector<size_t> live;
  for (size_t k = 0; k < js.size(); ++k) {
    const Judged& y = js[k];
    std::erase_if(live, [&](size_t o) { return js[o].row->end <= later_min[k]; });
    for (size_t o : live) {
      const Judged& x = js[o];
      if (y.check >= x.row->end) continue;  // ordered whatever they touch
      const isa::Conflict c = isa::ConflictOf(x.fp, y.fp);
      // The hazard rule: a dependency that ends in a cycle is clear from the next one, which is
      // the profile's `end` (the first cycle the unit is free again, docs/profile.md).
      const bool start_bad = (y.mm ? c.dram : c.any) && y.row->start < x.row->end;
      const bool release_bad = y.mm && c.any && y.row->release >= 0 && y.row->release < x.row->end;
      if (!start_bad && !release_bad) continue;
      const std::string what = isa::ConflictOf(x.fp, y.fp, true).what;
      const std::string line =
          StrFormat("%s: %s %s before %s ended (%s)", lens::KindName(p.kind),
                    Name(p, *y.row).c_str(), start_bad ? "started" : "was released",
                    Name(p, *x.row).c_str(), what.c_str());
      if (f->count == 0) f->first = line;
      if (f->count < 20) f->detail += line + "\n";
      ++f->count;
    }
    live.push_back(k);
  }
  return OkStatus();
}

}  // namespace

Verdict Dependency(const isa::Config& cfg, const std::vector<DispatchedInstr>& isa,
                   const std::vector<const lens::Profile*>& profiles) {
  Verdict v{"dependency", Outcome::kPass, "", ""};
  Finding f;
  size_t judged = 0;
  for (const lens::Profile* p : profiles) {
    if (Status s = JudgeProfile(cfg, isa, *p, &f); !s.ok()) {
      v.outcome = Outcome::kFail;
      v.message = s.message();
      return v;
    }
    judged = std::max(judged, p->instrs.size());
  }
  if (f.count > 0) {
    v.outcome = Outcome::kFail;
    v.message = f.first;
    if (f.count > 1) v.message += StrFormat("; %lld such pairs in all", (long long)f.count);
    v.detail = f.detail;
    if (f.count > 20) v.detail += StrFormat("... and %lld more\n", (long long)(f.count - 20));
    return v;
  }
  v.message = StrFormat("every conflicting pair of %zu instructions ran in hazard order "
                        "(%zu profiles)", judged, profiles.size());
  return v;
}

}  // namespace otpu::regress
