// The layout of the core's event bundle, otpu_core_pkg::events_t (rtl/core/otpu_core_pkg.sv,
// docs/rtl-core.md "Events"), defined once: gen_sv_events prints the SV typedef from this table
// (the test `sv_events_in_sync` checks the package holds it), and verilated_ports.h reads and
// writes the Verilated port, one wide signal, at the offsets computed here. No Verilator types.
#ifndef OTPU_SIM_RTL_EVENT_FIELDS_H_
#define OTPU_SIM_RTL_EVENT_FIELDS_H_

#include <array>

namespace otpu::rtl::events {

// X(Name, name, outer, inner, bits, comment): the field
// `logic [outer-1:0][inner-1:0][bits-1:0] name` (a dimension of 1 left out), most significant
// first as in the SV. The narrow fields come first so that every wide one (a multiple of 32
// bits) starts on a 32-bit word: reading or writing one is a copy of whole words.
#define OTPU_EVENT_FIELDS(X)                                                        \
  X(Disp, disp, 1, 1, 1, "a unit instruction takes a window slot")                  \
  X(DispSlot, disp_slot, 1, 1, 4, "... its slot")                                   \
  X(DispPc, disp_pc, 1, 1, 16, "... its pc")                                        \
  X(Start, start, 1, 1, 4, "per unit: it takes an instruction (MM: the streamer)")  \
  X(StartSlot, start_slot, 1, 4, 4, "... its slot, per unit")                       \
  X(Rel, rel, 1, 1, 1, "MM: the consumer takes its slot")                           \
  X(RelSlot, rel_slot, 1, 1, 4, "... the slot")                                     \
  X(Done, done, 1, 1, 4, "per unit: its done pulse (trace E; `end` is reserved)")   \
  X(DoneSlot, done_slot, 1, 4, 4, "... its slot, per unit")                         \
  X(Halt, halt, 1, 1, 1, "the run's last cycle")                                    \
  X(Win, win, 1, 1, 1, "the last cycle of a counter window")                        \
  X(WinN, win_n, 1, 1, 32, "... the window's cycles")                               \
  X(StartRdy, start_rdy, 1, 4, 32, "start: the cycle its dependencies cleared")     \
  X(HaltPorts, halt_ports, 1, 4, 32, "halt: the run's transfers bmxu bdma amxu aq") \
  X(WinCnt, win_cnt, 1, 15, 32, "win: its columns (wcol_e order)")                  \
  X(DoneCnt, done_cnt, 4, 4, 32, "done: MXU starve bp frz deny; QUANT, VPU frz")    \
  X(DispInstr, disp_instr, 1, 1, 256, "disp: resolved (w1..w3 hold e1..e3)")

enum class Field : int {
#define OTPU_EVENT_FIELD_ENUM(Name, name, outer, inner, bits, comment) k##Name,
  OTPU_EVENT_FIELDS(OTPU_EVENT_FIELD_ENUM)
#undef OTPU_EVENT_FIELD_ENUM
};

struct FieldInfo {
  const char* name;
  int outer, inner, bits;  // dimensions, outermost first
  const char* comment;
  constexpr int width() const { return outer * inner * bits; }
};

inline constexpr FieldInfo kFields[] = {
#define OTPU_EVENT_FIELD_INFO(Name, name, outer, inner, bits, comment) \
  {#name, outer, inner, bits, comment},
    OTPU_EVENT_FIELDS(OTPU_EVENT_FIELD_INFO)
#undef OTPU_EVENT_FIELD_INFO
};
inline constexpr int kNumFields = int(sizeof(kFields) / sizeof(kFields[0]));

// Bits of the whole struct.
constexpr int TotalBits() {
  int n = 0;
  for (const FieldInfo& f : kFields) n += f.width();
  return n;
}
inline constexpr int kBits = TotalBits();

// The least significant bit of `f` (the fields after it lie below it).
constexpr int Lsb(Field f) {
  int lsb = 0;
  for (int i = kNumFields - 1; i > int(f); --i) {
    lsb += kFields[i].width();
  }
  return lsb;
}

// Element i of a field of `bits`-wide elements (packed arrays put element 0 lowest).
constexpr int Lsb(Field f, int i) { return Lsb(f) + i * kFields[int(f)].bits; }

static_assert(Lsb(Field::kDispInstr) == 0);
static_assert(Lsb(Field::kWinN) % 32 == 0, "wide fields start on a 32-bit word");

}  // namespace otpu::rtl::events

#endif  // OTPU_SIM_RTL_EVENT_FIELDS_H_
