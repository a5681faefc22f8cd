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

}  // namespace
}  // namespace otpu::lens
