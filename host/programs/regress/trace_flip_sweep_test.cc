// The parity gate against every single-bit fault of a trace record: `otpu-regress cell` on one
// smoke cell (mlp-small on the sim configuration, ideal memory, the board model) with
// --inject-trace-flip R:B for every bit B of the first records R (a dispatch with its two
// operand halves, starts, ends, unit counters) and of records deep in the buffer (a start, the
// values of counter windows). Each flip must fail the cell on parity, exit 1 (a finding, never
// exit 5): a reserved bit set, another type, slot, pc, operand, cycle or value all count.
//
// One process per flip, two at a time: a process holds one SystemC kernel, so the board model
// cannot run twice in this one; a cell whose trace fails takes about 0.1 s.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <deque>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/exit_codes.h"
#include "base/testing/subprocess.h"

namespace otpu::regress {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCell = "mlp-small/sim/ideal/sim/s0";

// Records of the cell's trace to sweep: the first 8 (D, O, O, S, E, U, V, ...) and records
// deep in the buffer (a D, a start, the values of counter windows): 768 flips.
std::vector<int> SweptRecords() {
  std::vector<int> r;
  for (int i = 0; i < 8; ++i) r.push_back(i);
  for (int i : {10, 100, 1000, 1521}) r.push_back(i);
  return r;
}

// Flips the profile does not use and that no check can tell from data, as "R:B" (none: every
// bit of these records is a field the hw profile rebuilds, a reserved bit that must be 0, or an
// immediate operand the decoder checks against the program).
const std::set<std::string> kExplained = {};

struct Flip {
  int record = 0, bit = 0;
  std::string Name() const { return std::to_string(record) + ":" + std::to_string(bit); }
};

TEST(TraceFlipSweep, EverySingleBitFlipFailsParity) {
  std::string tmpl = (fs::temp_directory_path() / "otpu_flip_sweep.XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const fs::path dir = tmpl;
  std::deque<Flip> todo;
  for (int r : SweptRecords()) {
    for (int b = 0; b < 64; ++b) todo.push_back({r, b});
  }
  const size_t total = todo.size();
  struct Running {
    Flip flip;
    std::unique_ptr<testutil::TestProcess> process;
  };
  std::deque<Running> running;
  std::vector<std::string> passed, not_failed;
  int failed = 0;
  auto start = [&](const Flip& f) {
    // Each flip writes its own out dir: two cells at once never share a result file.
    const std::string out = (dir / f.Name()).string();
    running.push_back({f, std::make_unique<testutil::TestProcess>(std::vector<std::string>{
                              OTPU_REGRESS_BINARY, "cell", OTPU_SMOKE_MATRIX, "--id", kCell,
                              "--out", out, "--inject-trace-flip", f.Name()})});
  };
  while (!todo.empty() || !running.empty()) {
    while (!todo.empty() && running.size() < 2) {
      start(todo.front());
      todo.pop_front();
    }
    Running r = std::move(running.front());
    running.pop_front();
    const testutil::ProcessResult res = r.process->Wait(120);
    const bool parity_failed = res.out.find("  parity      fail  ") != std::string::npos;
    if (res.exit_code == exit_codes::regress::kExitFail && parity_failed) {
      ++failed;
    } else if (res.exit_code == exit_codes::regress::kExitPass) {
      if (!kExplained.count(r.flip.Name())) passed.push_back(r.flip.Name() + "\n" + res.out);
    } else {
      not_failed.push_back(r.flip.Name() + " exit " + std::to_string(res.exit_code) + "\n" +
                           res.out + res.err);
    }
    fs::remove_all(dir / r.flip.Name());
  }
  fs::remove_all(dir);
  RecordProperty("flips", int(total));
  RecordProperty("failed_parity", failed);
  EXPECT_EQ(failed + int(kExplained.size()), int(total));
  for (const std::string& p : passed) ADD_FAILURE() << "flip passed parity: " << p;
  for (const std::string& p : not_failed) ADD_FAILURE() << "flip did not fail (exit 1): " << p;
}

// The card transport too: records that do not decode (a reserved bit of the first D) read
// through otpu-xdma-emu and XdmaBoard are a finding, exit 1, not an infrastructure error.
TEST(TraceFlipSweep, ACardTraceThatDoesNotDecodeFailsTheCell) {
  std::string tmpl = (fs::temp_directory_path() / "otpu_flip_card.XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  const testutil::ProcessResult r = testutil::RunProcess(
      {OTPU_REGRESS_BINARY, "cell", OTPU_SMOKE_MATRIX, "--id", "mlp-small/sim/axi-stall20/card/s0",
       "--out", tmpl, "--inject-trace-flip", "0:50"},
      {}, 120);
  fs::remove_all(tmpl);
  EXPECT_EQ(r.exit_code, exit_codes::regress::kExitFail) << r.out << r.err;
  EXPECT_NE(r.out.find("parity      fail  the trace records do not decode (card): "),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("reserved bits"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("correctness skip"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace otpu::regress
