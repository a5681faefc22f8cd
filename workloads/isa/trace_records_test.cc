#include "workloads/isa/trace_records.h"

#include <gtest/gtest.h>

#include <vector>

namespace otpu::trace {
namespace {

TEST(RecordsTest, DispatchRoundTrips) {
  const Dispatch d{.slot = 13, .pc = 0xBEEF, .cycle = 0xFFFFFFF0u};
  const Record r = d.Encode();
  EXPECT_EQ(TypeOf(r), uint8_t(RecordType::kDISPATCH));
  const Dispatch back = Dispatch::Decode(r);
  EXPECT_EQ(back.slot, d.slot);
  EXPECT_EQ(back.pc, d.pc);
  EXPECT_EQ(back.cycle, d.cycle);
}

TEST(RecordsTest, DispatchLeavesUnlistedBitsZero) {
  const Record r = Dispatch{.slot = 15, .pc = 0xFFFF, .cycle = 0xFFFFFFFFu}.Encode();
  EXPECT_EQ(Bits(r, 59, 56), 0u);
  EXPECT_EQ(Bits(r, 51, 48), 0u);
}

// Every field of every type, all ones, lies inside the type's defined bits; the rest is reserved.
TEST(RecordsTest, DefinedBitsCoverEveryFieldAndNothingElse) {
  const std::vector<Record> full = {
      Dispatch{15, 0xFFFF, 0xFFFFFFFFu}.Encode(),
      EncodeOperands(0xFF, ~0u, ~0u, ~0u)[1],  // half 1: bit 52 set
      Start{15, 15, 0xFFFF, ~0u}.Encode(),
      EncodeReady(~0u),
      SlotCycle{RecordType::kRELEASE, 15, ~0u}.Encode(),
      SlotCycle{RecordType::kEND, 15, ~0u}.Encode(),
      UnitCounters{15, ~0u}.Encode(),
      SlotCycle{RecordType::kHALT, 0, ~0u}.Encode(),
      Window{RecordType::kWINDOW_P, kMaxWindowN, ~0u}.Encode(),
      Window{RecordType::kWINDOW_Q, kMaxWindowN, ~0u}.Encode(),
      EncodeValue(15, ~0u)};
  for (Record r : full) {
    EXPECT_EQ(ReservedBitsOf(r), 0u) << RecordLetter(TypeOf(r));
    constexpr Record kPayload = (Record{1} << 60) - 1;
    EXPECT_EQ(r & kPayload, DefinedBits(TypeOf(r)) & kPayload) << RecordLetter(TypeOf(r));
  }
  EXPECT_EQ(ReservedBitsOf(Dispatch{}.Encode() | Record{1} << 48), Record{1} << 48);
  EXPECT_EQ(DefinedBits(0), 0u);
  EXPECT_EQ(DefinedBits(13), 0u);
}

TEST(RecordsTest, OperandsRoundTripAllBits) {
  const auto o = EncodeOperands(0xA5, 0x89ABCDEFu, 0xFEDCBA98u, 0x13579BDFu);
  EXPECT_EQ(Operands::Decode(o[0]).half, 0u);
  EXPECT_EQ(Operands::Decode(o[1]).half, 1u);
  const OperandWords w = DecodeOperands(o[0], o[1]);
  EXPECT_EQ(w.op, 0xA5);
  EXPECT_EQ(w.w1, 0x89ABCDEFu);
  EXPECT_EQ(w.w2, 0xFEDCBA98u);
  EXPECT_EQ(w.w3, 0x13579BDFu);
}

TEST(RecordsTest, StartRoundTripsAndKnowsSaturation) {
  const Start s{.slot = 3, .unit = 2, .delay = 0x1234, .cycle = 77};
  const Start back = Start::Decode(s.Encode());
  EXPECT_EQ(back.slot, 3u);
  EXPECT_EQ(back.unit, 2u);
  EXPECT_EQ(back.delay, 0x1234u);
  EXPECT_EQ(back.cycle, 77u);
  EXPECT_FALSE(back.saturated());
  EXPECT_TRUE(Start::Decode(Start{.delay = kSaturatedDelay}.Encode()).saturated());
}

TEST(RecordsTest, SlotCycleKeepsItsType) {
  for (RecordType t : {RecordType::kRELEASE, RecordType::kEND, RecordType::kHALT}) {
    const SlotCycle back = SlotCycle::Decode(SlotCycle{t, 9, 123456}.Encode());
    EXPECT_EQ(back.type, t);
    EXPECT_EQ(back.slot, 9u);
    EXPECT_EQ(back.cycle, 123456u);
  }
}

TEST(RecordsTest, UnitWindowReadyValueRoundTrip) {
  const UnitCounters u = UnitCounters::Decode(UnitCounters{1, 42}.Encode());
  EXPECT_EQ(u.unit, 1u);
  EXPECT_EQ(u.cycle, 42u);
  const Window w = Window::Decode(Window{RecordType::kWINDOW_Q, kMaxWindowN, 99}.Encode());
  EXPECT_EQ(w.type, RecordType::kWINDOW_Q);
  EXPECT_EQ(w.n, kMaxWindowN);
  EXPECT_EQ(w.cycle, 99u);
  EXPECT_EQ(ReadyOf(EncodeReady(0xCAFEF00Du)), 0xCAFEF00Du);
  const Record v = EncodeValue(8, 0xFFFFFFFFu);
  EXPECT_EQ(TypeOf(v), uint8_t(RecordType::kVALUE));
  EXPECT_EQ(ValueIndexOf(v), 8u);
  EXPECT_EQ(ValueOf(v), 0xFFFFFFFFu);
}

TEST(RecordsTest, ValueTypesAreOnlyORV) {
  int values = 0;
  for (uint8_t t = 0; t < 16; ++t) values += IsValueType(t);
  EXPECT_EQ(values, 3);
  EXPECT_TRUE(IsValueType(uint8_t(RecordType::kREADY)));
  EXPECT_FALSE(IsRecordType(0));
  EXPECT_FALSE(IsRecordType(12));
  EXPECT_STREQ(RecordLetter(uint8_t(RecordType::kWINDOW_Q)), "Q");
}

TEST(RecordsTest, UnitValueCountFollowsTheUnit) {
  EXPECT_EQ(UnitValueCount(uint32_t(isa::Unit::kMXU)), 4);
  EXPECT_EQ(UnitValueCount(uint32_t(isa::Unit::kVPU)), 1);
  EXPECT_EQ(UnitValueCount(uint32_t(isa::Unit::kQUANT)), 1);
  EXPECT_EQ(UnitValueCount(uint32_t(isa::Unit::kDMA)), 0);
}

}  // namespace
}  // namespace otpu::trace
