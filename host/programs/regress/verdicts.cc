#include "host/programs/regress/verdicts.h"

#include <filesystem>
#include <system_error>
#include <vector>

#include "base/strings.h"
#include "host/programs/regress/baseline.h"
#include "lens/diff.h"
#include "lens/file_io.h"
#include "lens/profile_compare.h"

namespace otpu::regress {
namespace {

std::string Hex(const std::vector<uint8_t>& v, size_t at) {
  return at < v.size() ? StrFormat("0x%02x", v[at]) : "none";
}

}  // namespace

Verdict Correctness(const workloads::WorkloadRun& run, const SparseMemory& isa_dram,
                    const SparseMemory& board_dram, const workloads::CheckReport& check) {
  Verdict v{"correctness", Outcome::kPass, "", ""};
  for (const workloads::DramRange& r : run.outputs) {
    const std::vector<uint8_t> a = isa_dram.ReadBytes(r.addr, r.bytes);
    const std::vector<uint8_t> b = board_dram.ReadBytes(r.addr, r.bytes);
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i] != b[i]) {
        v.outcome = Outcome::kFail;
        v.message = StrFormat("DRAM byte 0x%llx differs from the ISA simulator's: %s (board) vs %s "
                              "(ISA) in the output at 0x%llx of %llu bytes",
                              (unsigned long long)(r.addr + i), Hex(b, i).c_str(),
                              Hex(a, i).c_str(), (unsigned long long)r.addr,
                              (unsigned long long)r.bytes);
        return v;
      }
    }
  }
  if (!check.ok()) {
    v.outcome = Outcome::kFail;
    v.message = "reference check failed: " + check.detail;
    return v;
  }
  uint64_t bytes = 0;
  for (const workloads::DramRange& r : run.outputs) bytes += r.bytes;
  v.message = StrFormat("%llu output bytes equal the ISA simulator's; %s",
                        (unsigned long long)bytes, check.detail.c_str());
  return v;
}

Verdict Parity(const lens::Profile& rtl, const lens::Profile& hw, int bucket_cycles) {
  Verdict v{"parity", Outcome::kPass, "", ""};
  // The counters count the whole run whatever the trace kept.
  const std::string counters = lens::BoardCounterDivergence(rtl, hw);
  if (!counters.empty()) {
    v.outcome = Outcome::kFail;
    v.message = counters;
    return v;
  }
  const bool cut = hw.hwtrace && hw.hwtrace->lost > 0 && hw.hwtrace->drop == 0 &&
                   hw.hwtrace->damaged == 0 && hw.hwtrace->keep == "first";
  if (cut) {
    // The buffer filled and kept the first records (SPEC 5): what it kept must be exact.
    const std::string first =
        lens::FirstDivergenceInTrace(rtl, hw, hw.hwtrace->traced_to, bucket_cycles);
    if (!first.empty()) {
      v.outcome = Outcome::kFail;
      v.message = StrFormat("hw profile differs from the rtl profile inside the trace (to cycle %lld): ",
                            (long long)hw.hwtrace->traced_to) + first;
      return v;
    }
    v.message = StrFormat("the buffer of %lld records kept the run to cycle %lld of %lld (%lld records "
                          "lost after it): all it holds equals the rtl profile",
                          (long long)hw.hwtrace->depth, (long long)hw.hwtrace->traced_to,
                          (long long)hw.cycles, (long long)hw.hwtrace->lost);
    return v;
  }
  const std::string first = lens::FirstDivergence(rtl, hw);
  std::string loss;
  if (hw.hwtrace && !hw.hwtrace->complete) {
    loss = StrFormat("the trace is incomplete (drop %lld, lost %lld, damaged %lld, %lld open at the end)",
                     (long long)hw.hwtrace->drop, (long long)hw.hwtrace->lost,
                     (long long)hw.hwtrace->damaged, (long long)hw.hwtrace->open_at_end);
  }
  if (!first.empty()) {
    v.outcome = Outcome::kFail;
    v.message = "hw profile differs from the rtl profile: " + first;
    if (!loss.empty()) v.message += "; " + loss;
    return v;
  }
  if (!loss.empty()) {
    v.outcome = Outcome::kFail;
    v.message = loss + ": parity needs every record";
    return v;
  }
  v.message = StrFormat("hw profile from %lld trace records equals the rtl profile (%zu instructions)",
                        (long long)(hw.hwtrace ? hw.hwtrace->records : 0), hw.instrs.size());
  return v;
}

Verdict Assertions(const std::vector<rtl::AssertionFailure>& board,
                   const std::vector<rtl::AssertionFailure>& card, bool card_cell) {
  Verdict v{"assertions", Outcome::kPass, "", ""};
  const size_t n = board.size() + card.size();
  if (n == 0 && !rtl::AssertionsCompiled()) {
    return Verdict{"assertions", Outcome::kSkip,
                   "not judged: this build's models have no assertions (OTPU_RTL_ASSERT=OFF)", ""};
  }
  if (n == 0) {
    v.message = card_cell ? "no SV assertion failed in the board model nor in the card's emulator"
                          : "no SV assertion failed in the board model";
    return v;
  }
  v.outcome = Outcome::kFail;
  const rtl::AssertionFailure& first = board.empty() ? card.front() : board.front();
  v.message = first.Text() + (board.empty() ? " (the card's emulator)" : " (the board model)");
  if (n > 1) v.message += StrFormat("; %zu failures in all", n);
  size_t shown = 0;
  for (const auto* list : {&board, &card}) {
    for (const rtl::AssertionFailure& f : *list) {
      if (shown++ == 20) break;
      v.detail += StrFormat("%s: %s in %s\n", list == &board ? "board model" : "card's emulator",
                            f.Text().c_str(), f.scope.c_str());
    }
  }
  if (n > 20) v.detail += StrFormat("... and %zu more\n", n - 20);
  return v;
}

Verdict Performance(const std::string& id, const lens::Profile& judged, bool accept,
                    const std::string& path, std::string* accepted,
                    std::vector<MovedInstr>* moved) {
  Verdict v{"performance", Outcome::kPass, "", ""};
  const std::string want = BaselineJson(id, judged);
  if (accept) {
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  }
  StatusOr<std::string> text = lens::ReadWholeFile(path);
  if (!text.ok()) {
    if (!std::filesystem::exists(path)) {
      if (accept) {
        Status w = lens::WriteFileAtomically(path, want);
        if (!w.ok()) return Verdict{"performance", Outcome::kError, w.message(), ""};
        *accepted = "new baseline " + path + "\n";
        v.message = "accepted a new baseline: " + path;
        return v;
      }
      return Verdict{"performance", Outcome::kFail,
                     "no baseline at " + path + " (review the cell, then run with --accept)", ""};
    }
    return Verdict{"performance", Outcome::kError, text.status().message(), ""};
  }
  StatusOr<lens::Profile> base = ParseBaseline(*text, path);
  if (!base.ok()) return Verdict{"performance", Outcome::kError, base.status().message(), ""};
  const lens::ProfileDelta d = CompareWithBaseline(*base, judged);
  lens::ProfileDiff diff;
  diff.profiles.push_back(d);
  if (d.equal()) {
    if (*text != want && accept) {  // same figures, older layout: rewrite quietly
      Status w = lens::WriteFileAtomically(path, want);
      if (!w.ok()) return Verdict{"performance", Outcome::kError, w.message(), ""};
    }
    v.message = StrFormat("%lld cycles, %.2f%% of the roofline, %zu instructions: equal to the baseline",
                          (long long)judged.cycles, 100 * judged.roofline.efficiency, judged.instrs.size());
    return v;
  }
  if (moved) *moved = MovedByPc(d);
  std::string summary = StrFormat("cycles %lld -> %lld", (long long)base->cycles, (long long)judged.cycles);
  if (d.instrs_changed) summary += StrFormat(", %lld instructions moved", (long long)d.instrs_changed);
  if (!d.instrs.empty()) {
    const lens::InstrDelta& x = d.instrs[0];
    summary += StrFormat("; most: pc %lld %s%s%s %lld -> %lld cycles (%s %+lld)", (long long)x.pc,
                         x.name.c_str(), x.source.empty() ? "" : " at ", x.source.c_str(),
                         (long long)x.cycles_before, (long long)x.cycles_after, x.cause.c_str(),
                         (long long)x.cause_delta);
  } else if (!d.fields.empty()) {
    summary += "; " + d.fields[0].field + " differs";
  }
  if (accept) {
    Status w = lens::WriteFileAtomically(path, want);
    if (!w.ok()) return Verdict{"performance", Outcome::kError, w.message(), ""};
    *accepted = lens::DiffText(diff);
    v.message = "accepted the new figures: " + summary;
    v.detail = *accepted;
    return v;
  }
  v.outcome = Outcome::kFail;
  v.message = "differs from the baseline: " + summary;
  v.detail = lens::DiffText(diff);
  return v;
}

}  // namespace otpu::regress
