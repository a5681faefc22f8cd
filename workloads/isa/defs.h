// The one definition of every constant shared by the RTL and the C++ side: opcodes, unit ids,
// instruction flags, VOP functions, register offsets and bits, trace record types.
// rtl/otpu_pkg.sv is generated from these tables by tools/gen_sv_pkg (a test checks that the
// committed package matches). Meaning of every field: docs/isa.md, docs/registers.md,
// docs/trace.md.
#ifndef OTPU_WORKLOADS_ISA_DEFS_H_
#define OTPU_WORKLOADS_ISA_DEFS_H_

#include <cstdint>

// X(name, value) tables. Keep names in SV-friendly ALL_CAPS.
#define OTPU_OPCODES(X) \
  X(NOP, 0x00)          \
  X(HALT, 0x01)         \
  X(LI, 0x02)           \
  X(ADDI, 0x03)         \
  X(LOOP, 0x04)         \
  X(LD, 0x10)           \
  X(ST, 0x11)           \
  X(MM, 0x20)           \
  X(QACT, 0x21)         \
  X(QST, 0x22)          \
  X(VOP, 0x30)

#define OTPU_UNITS(X) \
  X(DMA, 0)           \
  X(MXU, 1)           \
  X(QUANT, 2)         \
  X(VPU, 3)           \
  X(COLL, 4)

// VOP functions (w4[7:0]).
#define OTPU_VOP_FNS(X) \
  X(ADD, 0)             \
  X(SUB, 1)             \
  X(MUL, 2)             \
  X(MAX, 3)             \
  X(MIN, 4)             \
  X(COPY, 5)            \
  X(FILL, 6)            \
  X(EXP2, 7)            \
  X(RECIP, 8)           \
  X(RSQRT, 9)           \
  X(RSUM, 10)           \
  X(RMAX, 11)           \
  X(RSSQ, 12)           \
  X(SCALE, 13)

// VOP B operand modes (flags[1:0]).
#define OTPU_VOP_BMODES(X) \
  X(FULL, 0)               \
  X(ROW, 1)                \
  X(COL, 2)                \
  X(SCALAR, 3)

// MM weight formats (flags[3:2]).
#define OTPU_WFORMATS(X) \
  X(INT8, 0)             \
  X(INT4, 1)             \
  X(FP4, 2)

// Instruction flag bits (w0[31:24]), per opcode.
#define OTPU_FLAGS(X)        \
  X(MM_ACC, 0x01)            \
  X(MM_UNIT, 0x02)           \
  X(MM_WF_SHIFT, 2)          \
  X(MM_WF_MASK, 0x0C)        \
  X(Q_PERROW, 0x01)          \
  X(VOP_BMODE_MASK, 0x03)    \
  X(VOP_BZERO, 0x04)

// BAR0 register offsets (docs/registers.md).
#define OTPU_REGS(X)         \
  X(ID, 0x000)               \
  X(VERSION, 0x004)          \
  X(CTRL, 0x008)             \
  X(STATUS, 0x00C)           \
  X(PROG_ADDR, 0x010)        \
  X(PROG_N, 0x014)           \
  X(CYCLES_LO, 0x018)        \
  X(CYCLES_HI, 0x01C)        \
  X(ICOUNT, 0x020)           \
  X(B_RD, 0x024)             \
  X(B_WR, 0x028)             \
  X(A_RD, 0x02C)             \
  X(A_WR, 0x030)             \
  X(B_STALL, 0x034)          \
  X(SCRATCH, 0x038)          \
  X(REGMAP, 0x03C)           \
  X(CAPS, 0x040)             \
  X(CORE_KHZ, 0x044)         \
  X(BUILD_ID, 0x048)         \
  X(ARG0, 0x060)             \
  X(COUNTERS, 0x100)         \
  X(TRACE_CTRL, 0x200)       \
  X(TRACE_COUNT, 0x204)      \
  X(TRACE_DROP, 0x208)       \
  X(TRACE_ADDR, 0x20C)       \
  X(TRACE_LO, 0x210)         \
  X(TRACE_HI, 0x214)         \
  X(TRACE_WIDX, 0x218)       \
  X(TRACE_RPTR, 0x21C)

#define OTPU_REG_VALUES(X)           \
  X(ID_VALUE, 0x4F545055)            \
  X(REGMAP_VERSION, 2)               \
  X(UNMAPPED, 0xDEADBEEF)            \
  X(CTRL_RUN, 0x1)                   \
  X(CTRL_LOAD, 0x2)                  \
  X(CTRL_CLEAR, 0x4)                 \
  X(STATUS_HALTED, 0x01)             \
  X(STATUS_ERROR, 0x02)              \
  X(STATUS_LOADING, 0x04)            \
  X(STATUS_WR_IDLE, 0x08)            \
  X(STATUS_AXI_ERR, 0x10)            \
  X(STATUS_RUNNING, 0x80)            \
  X(CAPS_TRACE, 0x01)                \
  X(CAPS_TRACE_DMA, 0x02)            \
  X(CAPS_TRACE_STREAM, 0x04)         \
  X(CAPS_4BIT, 0x10)                 \
  X(CAPS_DEPTH_SHIFT, 8)             \
  X(CAPS_WINDOW_SHIFT, 16)           \
  X(TRACE_CTRL_ENABLE, 0x1)          \
  X(TRACE_CTRL_CLEAR, 0x2)           \
  X(TRACE_CTRL_STOP_WHEN_FULL, 0x4)  \
  X(TRACE_CTRL_BUSY, 0x8)            \
  X(TRACE_CTRL_STREAM, 0x10)

// 64-bit free-running counters at COUNTERS + 8*index (lo, hi).
#define OTPU_COUNTERS(X) \
  X(UPTIME, 0)           \
  X(RUNNING, 1)          \
  X(MXU_BUSY, 2)         \
  X(MXU_MAC, 3)          \
  X(VPU_BUSY, 4)         \
  X(QNT_BUSY, 5)         \
  X(DMA_BUSY, 6)         \
  X(TMEM_DENY, 7)        \
  X(DRAM_RD, 8)          \
  X(DRAM_WR, 9)          \
  X(DRAM_WAIT, 10)       \
  X(INSTR, 11)           \
  X(MXU_STARVE, 12)

// Trace record types (bits [63:60]); docs/trace.md.
#define OTPU_RECORDS(X) \
  X(DISPATCH, 1)        \
  X(START, 2)           \
  X(RELEASE, 3)         \
  X(END, 4)             \
  X(UNIT, 5)            \
  X(WINDOW_P, 6)        \
  X(WINDOW_Q, 7)        \
  X(HALT, 8)            \
  X(OPERANDS, 9)        \
  X(READY, 10)          \
  X(VALUE, 11)

namespace otpu::isa {

#define OTPU_ENUM_ENTRY(name, value) k##name = value,
enum class Opcode : uint8_t { OTPU_OPCODES(OTPU_ENUM_ENTRY) };
enum class Unit : uint8_t { OTPU_UNITS(OTPU_ENUM_ENTRY) };
enum class VopFn : uint8_t { OTPU_VOP_FNS(OTPU_ENUM_ENTRY) };
enum class BMode : uint8_t { OTPU_VOP_BMODES(OTPU_ENUM_ENTRY) };
enum class WFormat : uint8_t { OTPU_WFORMATS(OTPU_ENUM_ENTRY) };
enum class Reg : uint32_t { OTPU_REGS(OTPU_ENUM_ENTRY) };
enum class Counter : uint8_t { OTPU_COUNTERS(OTPU_ENUM_ENTRY) };
enum class RecordType : uint8_t { OTPU_RECORDS(OTPU_ENUM_ENTRY) };
#undef OTPU_ENUM_ENTRY

#define OTPU_CONST_ENTRY(name, value) inline constexpr uint32_t k##name = value;
OTPU_FLAGS(OTPU_CONST_ENTRY)
OTPU_REG_VALUES(OTPU_CONST_ENTRY)
#undef OTPU_CONST_ENTRY

inline constexpr int kNumUnits = 5;
inline constexpr int kNumRegs = 16;
inline constexpr int kFirstArgReg = 8;  // R8..R15 = ARG0..7
inline constexpr int kNumArgs = 8;
inline constexpr int kMaxLoopDepth = 4;
inline constexpr int kInstrWords = 8;
inline constexpr int kInstrBytes = 32;
inline constexpr int kNumCounters = 13;

// Canonical quiet NaN produced by every fp operation whose result is NaN.
inline constexpr uint32_t kCanonicalNaN = 0x7FC00000u;

// Names, for the disassembler and the profile's `units`.
const char* OpcodeName(Opcode op);      // "LD", "MM", ...; nullptr when not an opcode
const char* UnitName(Unit unit);        // "DMA", ...
const char* VopFnName(VopFn fn);        // "ADD", ...; nullptr when not a function
const char* BModeName(BMode mode);
const char* WFormatName(WFormat wf);    // "int8", "int4", "fp4"
const char* CounterName(Counter c);     // "UPTIME", ...
bool IsOpcode(uint8_t value);
bool IsVopFn(uint8_t value);

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_DEFS_H_
