#include "lens/trace/decoder.h"

#include <gtest/gtest.h>

#include <vector>

#include "workloads/isa/instr.h"

namespace otpu::lens::decode {
namespace {

isa::Program Program() {
  isa::VopOp v;
  v.fn = isa::VopFn::kADD;
  v.dst = isa::At(64);
  v.a = isa::At(0);
  v.b = isa::At(0);
  v.n = 8;
  isa::Program p;
  p.code = {isa::EncodeVop(v), isa::EncodeHalt()};
  return p;
}

// D (pc 0, slot 2) at `cycle`, S a cycle later, E two cycles later with U + V (VPU frz 9).
std::vector<Record> Vop(uint32_t cycle, uint32_t pc = 0, uint8_t op = 0) {
  const isa::Instr in = Program().code[0];
  std::vector<Record> r = {Dispatch{2, pc, cycle}.Encode()};
  for (Record o : EncodeOperands(op != 0 ? op : in.opcode(), in.w[1], in.w[2], in.w[3])) {
    r.push_back(o);
  }
  r.push_back(Start{2, uint32_t(isa::Unit::kVPU), 1, cycle + 1}.Encode());
  r.push_back(SlotCycle{RecordType::kEND, 2, cycle + 2}.Encode());
  r.push_back(UnitCounters{uint32_t(isa::Unit::kVPU), cycle + 2}.Encode());
  r.push_back(EncodeValue(0, 9));
  return r;
}

StatusOr<Decoded> DecodeAll(const std::vector<Record>& records) {
  StatusOr<Tokens> t = Tokenize(records);
  OTPU_CHECK(t.ok());
  return Decode(*t, Program(), isa::Config{});
}

TEST(DecoderTest, RebuildsAnInstruction) {
  StatusOr<Decoded> d = DecodeAll(Vop(100));
  ASSERT_TRUE(d.ok()) << d.status().message();
  ASSERT_EQ(d->run.events.instrs.size(), 1u);
  const trace::InstrEvent& e = d->run.events.instrs[0];
  EXPECT_EQ(e.resolved, Program().code[0]);
  EXPECT_EQ(e.unit, isa::Unit::kVPU);
  EXPECT_EQ(e.dispatch, 100);
  EXPECT_EQ(e.ready, 100);
  EXPECT_EQ(e.start, 101);
  EXPECT_EQ(e.end, 103);
  EXPECT_EQ(e.counters.at("frz"), 9);
  EXPECT_GT(e.work, 0);
  EXPECT_EQ(d->stats.open_at_end, 0);
}

TEST(DecoderTest, ExtendsCyclesPastThirtyTwoBits) {
  std::vector<Record> r = Vop(0xFFFFFFFEu);
  const std::vector<Record> more = Vop(5);
  r.insert(r.end(), more.begin(), more.end());
  StatusOr<Decoded> d = DecodeAll(r);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->run.events.instrs[0].end, int64_t{0xFFFFFFFE} + 3);
  EXPECT_EQ(d->run.events.instrs[1].dispatch, (int64_t{1} << 32) + 5);
  EXPECT_EQ(d->stats.traced_to, (int64_t{1} << 32) + 7);
}

TEST(DecoderTest, CountsEventsWhoseDispatchWasLost) {
  const std::vector<Record> all = Vop(10);
  const std::vector<Record> no_dispatch(all.begin() + 3, all.end());
  StatusOr<Decoded> d = DecodeAll(no_dispatch);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->run.events.instrs.empty());
  EXPECT_EQ(d->stats.orphans, 3);  // S, E and the U that follows the lost E
}

TEST(DecoderTest, RejectsAPcOutsideTheProgramNamingIt) {
  StatusOr<Decoded> d = DecodeAll(Vop(10, 7));
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(d.status().message().find("record 0 (D): pc 7 is outside the program (2"),
            std::string::npos)
      << d.status().message();
}

TEST(DecoderTest, RejectsAnotherProgramsOpcodeNamingThePc) {
  StatusOr<Decoded> d = DecodeAll(Vop(10, 0, uint8_t(isa::Opcode::kLD)));
  ASSERT_FALSE(d.ok());
  EXPECT_NE(d.status().message().find("pc 0 holds opcode"), std::string::npos)
      << d.status().message();
}

TEST(DecoderTest, RejectsAnImmediateOperandOtherThanTheProgramsNamingThePc) {
  std::vector<Record> r = Vop(10);
  const isa::Instr in = Program().code[0];
  ASSERT_EQ(in.rc(), 0);  // w3 is an immediate: the trace must repeat it
  const std::array<Record, 2> o = EncodeOperands(in.opcode(), in.w[1], in.w[2], in.w[3] ^ 0x100);
  r[1] = o[0];
  r[2] = o[1];
  StatusOr<Decoded> d = DecodeAll(r);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), StatusCode::kDataLoss);
  EXPECT_NE(d.status().message().find("record 0 (D): pc 0 has the immediate w3 = "),
            std::string::npos)
      << d.status().message();
}

TEST(DecoderTest, CountsAStartOnAnotherUnitAsDamaged) {
  std::vector<Record> r = Vop(10);
  r[3] = Start{2, uint32_t(isa::Unit::kMXU), 1, 11}.Encode();  // the VOP runs on the VPU
  StatusOr<Decoded> d = DecodeAll(r);
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_EQ(d->stats.damaged, 1);
  EXPECT_EQ(d->run.events.instrs[0].start, -1);
}

TEST(StreamDecoderTest, RecordByRecordGivesTheWholeDecode) {
  std::vector<Record> records = Vop(100);
  for (Record r : Vop(200)) records.push_back(r);
  StatusOr<Decoded> whole = DecodeAll(records);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  const isa::Program program = Program();
  const isa::Config cfg;
  StreamDecoder d(program, cfg);
  for (const Record& r : records) {
    const Status fed = d.Feed(&r, 1);
    ASSERT_TRUE(fed.ok()) << fed.message();
  }
  StatusOr<StreamDecoded> s = d.Finish();
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->records, int64_t(records.size()));
  EXPECT_EQ(s->cut_head, 0);
  EXPECT_EQ(s->cut_tail, 0);
  ASSERT_EQ(s->decoded.run.events.instrs.size(), whole->run.events.instrs.size());
  for (size_t i = 0; i < records.size() / Vop(0).size(); ++i) {
    const trace::InstrEvent &a = s->decoded.run.events.instrs[i],
                            &b = whole->run.events.instrs[i];
    EXPECT_EQ(a.dispatch, b.dispatch);
    EXPECT_EQ(a.end, b.end);
    EXPECT_EQ(a.counters, b.counters);
  }
  EXPECT_EQ(s->decoded.stats.traced_to, whole->stats.traced_to);
}

TEST(StreamDecoderTest, AnErrorInAFeedComesBackFromFinish) {
  const isa::Program program = Program();
  const isa::Config cfg;
  StreamDecoder d(program, cfg);
  const std::vector<Record> records = Vop(100, /*pc=*/7);
  EXPECT_FALSE(d.Feed(records.data(), records.size()).ok());
  StatusOr<StreamDecoded> s = d.Finish();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("pc 7 is outside the program"), std::string::npos)
      << s.status().message();
}

TEST(StreamDecoderTest, FeedAfterFinishIsRefused) {
  const isa::Program program = Program();
  const isa::Config cfg;
  StreamDecoder d(program, cfg);
  ASSERT_TRUE(d.Finish().ok());
  const Record r = Vop(1)[0];
  const Status s = d.Feed(&r, 1);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("Feed after Finish"), std::string::npos);
  StatusOr<StreamDecoded> again = d.Finish();
  EXPECT_NE(again.status().message().find("Finish called twice"), std::string::npos);
}

}  // namespace
}  // namespace otpu::lens::decode
