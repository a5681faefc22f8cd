// The hw builder's own paths: malformed records and the loss fields. Parity with the rtl
// builder on real runs is checked in sim/rtl/trace/trace_parity_test.cc.
#include "lens/build_hw_profile.h"

#include <gtest/gtest.h>

#include <vector>

#include "workloads/isa/instr.h"

namespace otpu::lens {
namespace {

isa::Program Program() {
  isa::Program p;
  p.code = {isa::EncodeHalt()};
  return p;
}

// A run with no unit instruction: one window and the halt, at cycle 9.
std::vector<trace::Record> HaltOnly() {
  std::vector<trace::Record> r = {trace::Window{trace::RecordType::kWINDOW_P, 10, 9}.Encode()};
  for (uint32_t i = 0; i < trace::kWindowPColumns; ++i) r.push_back(trace::EncodeValue(i, 0));
  r.push_back(trace::Window{trace::RecordType::kWINDOW_Q, 10, 9}.Encode());
  for (uint32_t i = 0; i < trace::kWindowQColumns; ++i) r.push_back(trace::EncodeValue(i, 0));
  r.push_back(trace::SlotCycle{trace::RecordType::kHALT, 0, 9}.Encode());
  for (uint32_t i = 0; i < trace::kHaltPorts; ++i) r.push_back(trace::EncodeValue(i, 0));
  return r;
}

StatusOr<Profile> Build(const std::vector<trace::Record>& r, const TraceRegisters& regs) {
  return BuildHwProfile("t", isa::Config{}, Program(), r, regs, 64, "ideal");
}

TEST(BuildHwProfileTest, CompleteTraceHasNoLossNote) {
  const std::vector<trace::Record> r = HaltOnly();
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size())});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->kind, ProfileKind::kHw);
  EXPECT_EQ(p->cycles, 10);
  EXPECT_TRUE(p->hwtrace->complete);
  EXPECT_EQ(p->hwtrace->traced_to, 9);
  for (const Note& n : p->notes) EXPECT_EQ(n.text.find("TRACE_DROP"), std::string::npos);
}

TEST(BuildHwProfileTest, DropsMakeTheTraceIncompleteAndANote) {
  const std::vector<trace::Record> r = HaltOnly();
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size()), .drop = 5});
  ASSERT_TRUE(p.ok());
  EXPECT_FALSE(p->hwtrace->complete);
  ASSERT_GE(p->notes.size(), 2u);
  EXPECT_EQ(p->notes[1].text, "capture queue dropped 5 events (TRACE_DROP)");
}

TEST(BuildHwProfileTest, MalformedRecordsFailNamingTheRecord) {
  std::vector<trace::Record> r = HaltOnly();
  r[3] = trace::Record{15} << 60;
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size())});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(p.status().message().find("record 3"), std::string::npos) << p.status().message();
}

// Windows ending at `lasts` (P + Q each), then the halt at `halt`.
std::vector<trace::Record> Windows(const std::vector<uint32_t>& lasts, uint32_t halt) {
  std::vector<trace::Record> r;
  for (uint32_t last : lasts) {
    r.push_back(trace::Window{trace::RecordType::kWINDOW_P, 64, last}.Encode());
    for (uint32_t i = 0; i < trace::kWindowPColumns; ++i) r.push_back(trace::EncodeValue(i, 1));
    r.push_back(trace::Window{trace::RecordType::kWINDOW_Q, 64, last}.Encode());
    for (uint32_t i = 0; i < trace::kWindowQColumns; ++i) r.push_back(trace::EncodeValue(i, 1));
  }
  r.push_back(trace::SlotCycle{trace::RecordType::kHALT, 0, halt}.Encode());
  for (uint32_t i = 0; i < trace::kHaltPorts; ++i) r.push_back(trace::EncodeValue(i, 0));
  return r;
}

constexpr size_t kGroupRecords = 2 + trace::kWindowPColumns + trace::kWindowQColumns;

// Regression: bit 22 of a P window's cycle flipped made the builder allocate ~9 GB.
TEST(BuildHwProfileTest, CycleJumpingPastCyclesIsDamageNotMemory) {
  std::vector<trace::Record> r = Windows({63, 127, 191}, 200);
  r[kGroupRecords] |= trace::Record{1} << 22;  // the second P
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size()), .cycles = 201});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->cycles, 201);
  EXPECT_EQ(p->hwtrace->damaged, 1);  // the P (its Q is an orphan)
  EXPECT_FALSE(p->hwtrace->complete);
  EXPECT_EQ(p->slices[0].buckets.size(), 2u);
  bool noted = false;
  for (const Note& n : p->notes) noted |= n.text.find("1 damaged trace record group was skipped") == 0;
  EXPECT_TRUE(noted);
}

TEST(BuildHwProfileTest, CycleGoingBackwardsIsDamage) {
  std::vector<trace::Record> r = Windows({63, 127, 191}, 200);
  r[2 * kGroupRecords] = trace::Window{trace::RecordType::kWINDOW_P, 64, 27}.Encode();
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size())});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->cycles, 201);
  EXPECT_GE(p->hwtrace->damaged, 1);
  EXPECT_EQ(p->slices[0].buckets.c.back(), 127);
}

TEST(BuildHwProfileTest, RecordsAfterTheHaltAreDamage) {
  std::vector<trace::Record> r = Windows({63}, 100);
  std::vector<trace::Record> more = Windows({150}, 160);
  r.insert(r.end(), more.begin(), more.end());
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size())});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->cycles, 101);
  EXPECT_EQ(p->hwtrace->damaged, 3);
}

// Without CYCLES a halt a billion cycles out is believed, but nothing is sized by it.
TEST(BuildHwProfileTest, HugeCycleCountAllocatesNothingByCycles) {
  std::vector<trace::Record> r = Windows({63, 127}, 200);
  r[2 * kGroupRecords] |= trace::Record{1} << 30;  // the halt
  StatusOr<Profile> p = Build(r, {.count = int64_t(r.size())});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->cycles, (int64_t{1} << 30) + 201);
  EXPECT_EQ(p->slices[0].buckets.size(), 2u);
}

TEST(BuildHwProfileTest, BadWindowIsAnError) {
  const std::vector<trace::Record> r = HaltOnly();
  EXPECT_EQ(BuildHwProfile("t", isa::Config{}, Program(), r, {}, 0, "ideal").status().code(),
            StatusCode::kInvalidArgument);
}

// Streamed: keep "stream", lost = COUNT - records drained, and the drop note says where the
// host fell behind, from the cycles of the records around each gap. A gap lies between two
// drains, so the records come in chunks split there, as Card's sink delivers them.
StatusOr<Profile> BuildDrained(const std::vector<trace::Record>& r, const TraceRegisters& regs) {
  const isa::Program program = Program();  // the builder borrows it
  HwProfileBuilder b(isa::Config{}, program, regs.cycles);
  size_t at = 0;
  for (const TraceGapRange& g : regs.gaps) {
    RETURN_IF_ERROR(b.Feed(r.data() + at, size_t(g.from) - at));
    at = size_t(g.from);
  }
  RETURN_IF_ERROR(b.Feed(r.data() + at, r.size() - at));
  return b.Finish("t", regs, 64, "ideal");
}

TEST(BuildHwProfileTest, StreamedDropsSayWhereTheHostFellBehind) {
  std::vector<trace::Record> r = Windows({63, 127}, 130);
  TraceRegisters regs{.count = int64_t(r.size()), .drop = 17, .stream = true};
  regs.gaps = {{.from = 17, .to = 17, .lines = 17}};  // after the first window's P+9V+Q+6V
  StatusOr<Profile> p = BuildDrained(r, regs);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->hwtrace->keep, "stream");
  EXPECT_EQ(p->hwtrace->lost, 0);
  EXPECT_FALSE(p->hwtrace->complete);
  ASSERT_GE(p->notes.size(), 2u);
  EXPECT_EQ(p->notes[1].text,
            "capture queue dropped 17 events (TRACE_DROP): the host fell behind the stream and "
            "the unit dropped whole bundles, between cycles 63 and 127 (17 lines)");
  regs.count += 5;  // records the host never drained
  p = BuildDrained(r, regs);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->hwtrace->lost, 5);
}

}  // namespace
}  // namespace otpu::lens
