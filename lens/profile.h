// The profile model (SPEC 6, docs/profile.md): what a `.otpuprof` file holds, as plain structs.
// Every path (rtl, isa, board, hw) fills the same structures. Instruction rows are plain
// structs in one vector so that a profile of a million instructions stays compact.
#ifndef OTPU_LENS_PROFILE_H_
#define OTPU_LENS_PROFILE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/isa/config.h"
#include "workloads/version.h"

namespace otpu::lens {

// The `format` string and the newest `version` this code reads and writes.
inline constexpr const char* kProfileFormat = "openTPU-profile";
inline constexpr int kProfileVersion = 1;
inline constexpr const char* kProfileTool = "openTPU Lens";

// Where a profile's events came from.
enum class ProfileKind { kRtl, kIsa, kBoard, kHw };
// "rtl", "isa", "board", "hw".
const char* KindName(ProfileKind kind);
// Parses a kind name; false when `name` is not one.
bool ParseKind(std::string_view name, ProfileKind* kind);

// How much a note matters; notes are listed most important first.
enum class NoteLevel { kGood, kWarn, kBad, kInfo };
// "good", "warn", "bad", "info".
const char* NoteLevelName(NoteLevel level);
// Parses a level name; false when `name` is not one.
bool ParseNoteLevel(std::string_view name, NoteLevel* level);

// One named counter value (unit counters of an instruction, the card's counters).
struct CounterValue {
  std::string name;
  int64_t value = 0;
  bool operator==(const CounterValue&) const = default;
};
using CounterSet = std::vector<CounterValue>;

// The accelerator configuration a profile was taken on (SPEC 3.1; names as in the file).
struct ProfileConfig {
  int S = 1;
  int D = 32;
  int MCOLS = 8;
  int LANES = 8;
  int CL = 2;
  int ACT_BLOCKS = 128;
  int64_t TMEM_WORDS = 65536;
  int64_t DRAM_BYTES = int64_t{1} << 30;
  int64_t IMEM_WORDS = 4096;
  int FIFO_DEPTH = 128;
  int WIN = 16;
  std::string MEM = "ideal";  // DRAM model of the run: ideal, stall N, axi, card
  bool operator==(const ProfileConfig&) const = default;
};
// The profile's view of an ISA configuration.
ProfileConfig ConfigOf(const isa::Config& cfg);

// Port traffic of one slice: the roofline's inputs.
struct SliceRoofline {
  int64_t portb = 0;  // port-B chunk transfers
  int64_t porta = 0;  // port-A word transfers
  int64_t bound = 0;  // max(portb, porta): cycles the run needs at least
  bool operator==(const SliceRoofline&) const = default;
};

struct Roofline {
  int64_t bound = 0;      // max over slices of SliceRoofline::bound, in cycles
  double efficiency = 0;  // bound / cycles (0 when cycles is 0)
  std::vector<SliceRoofline> per_slice;
  bool operator==(const Roofline&) const = default;
};

// Port transfers of a run by who made them, and its cycles.
struct Ports {
  int64_t bmxu = 0;  // port-B chunks of MM weight streaming
  int64_t bdma = 0;  // port-B chunks of LD/ST
  int64_t amxu = 0;  // port-A words of MM block scales
  int64_t aq = 0;    // port-A words of QST
  int64_t c = 0;     // cycles
  bool operator==(const Ports&) const = default;
};

// Per-window counters: equal-length columns, one entry per window (docs/profile.md).
struct Buckets {
  std::vector<int64_t> c, n, bm, bd, am, aq, mx, fm, fq, fv, fc, bs, as, ms, mb, ff, ld;

  static constexpr int kNumColumns = 17;
  // Column names in file order and the member each one is.
  static const std::array<std::pair<const char*, std::vector<int64_t> Buckets::*>, kNumColumns>&
  Columns();
  // Number of windows (the length of `c`).
  size_t size() const { return c.size(); }
  // Resizes every column to `windows` entries (new entries 0).
  void Resize(size_t windows);
  bool operator==(const Buckets&) const = default;
};

struct Slice {
  Ports ports;
  std::vector<int64_t> busy;  // per unit (index = unit id): cycles with an instruction running
  std::vector<int64_t> lose;  // per unit: cycles frozen by the TMEM arbiter
  Buckets buckets;
  bool operator==(const Slice&) const = default;
};

// One executed unit instruction (a row of `instrs`; times in cycles, -1 = did not happen).
struct InstrRow {
  int32_t slice = 0;
  int32_t unit = 0;     // unit id, index into Profile::units
  int32_t source = -1;  // index into Profile::sources, -1 none
  int64_t idx = 0;      // dispatch order
  int64_t pc = 0;
  std::string name;    // "MM", "VOP.ADD"
  std::string detail;  // operands, effective addresses
  int64_t dispatch = -1, ready = -1, release = -1, start = -1, end = -1;
  CounterSet counters;  // unit counters (rtl/hw: starve bp frz deny ...)
  int64_t work = 0;     // nominal busy cycles
  int64_t port_b = 0;   // port-B chunk transfers
  int64_t port_a = 0;   // port-A word transfers
  bool operator==(const InstrRow&) const = default;
};
inline constexpr int kInstrColumns = 16;

// One instruction of the resident program (a row of `programs[slice]`).
struct ProgramRow {
  int64_t pc = 0;
  std::string name;
  std::string detail;  // operands as written (register + immediate)
  std::string comment;
  int32_t source = -1;
  std::array<uint32_t, 8> words{};
  std::array<int32_t, 4> regs{};  // ra rb rc rd
  int32_t flags = 0;
  int32_t opcode = 0;
  bool operator==(const ProgramRow&) const = default;
};
inline constexpr int kProgramColumns = 9;

// A kernel source line that emitted instructions.
struct Source {
  std::string file;
  int64_t line = 0;
  std::string func;
  std::string text;
  bool operator==(const Source&) const = default;
};

struct Note {
  NoteLevel level = NoteLevel::kInfo;
  std::string text;
  bool operator==(const Note&) const = default;
};

// An interval [start, end) of cycles in which the MXU had no work, and why (rtl/hw paths).
struct MxuGap {
  int64_t start = 0;
  int64_t end = 0;
  std::string cause;
  bool operator==(const MxuGap&) const = default;
};

// What the hardware trace buffer lost or kept (kind hw only; SPEC 5).
struct HwTrace {
  int64_t count = 0;           // records produced (TRACE_COUNT)
  int64_t drop = 0;            // trace lines lost in the capture queue (TRACE_DROP)
  int64_t depth = 0;           // buffer records
  std::string keep = "first";  // "first" (stop when full), "last" (ring) or "stream" (drained while running)
  bool wrapped = false;        // the ring overwrote its oldest records
  int64_t lost = 0;            // records that did not fit the buffer
  int64_t records = 0;         // records read back
  int64_t open_at_end = 0;     // instructions without an end record
  int64_t traced_to = 0;       // last cycle the trace covers
  bool complete = false;       // nothing lost
  int64_t damaged = 0;         // record groups skipped as corrupt (absent in the file: 0)
  bool operator==(const HwTrace&) const = default;
};

struct Profile {
  ProfileKind kind = ProfileKind::kIsa;
  std::string name;
  int64_t cycles = 0;
  double clock_mhz = 100;
  ProfileConfig config;
  Roofline roofline;
  int64_t macs = 0;
  int64_t bytes = 0;       // DRAM bytes moved
  int64_t peak_macs = 0;   // per cycle
  int64_t peak_bytes = 0;  // port-B bytes per cycle
  std::vector<std::string> units = {"DMA", "MXU", "QUANT", "VPU", "COLL"};
  std::vector<Slice> slices;
  std::vector<InstrRow> instrs;
  std::vector<std::vector<ProgramRow>> programs;  // per slice
  std::vector<Source> sources;
  std::vector<Note> notes;
  std::vector<MxuGap> mxu_gaps;
  std::optional<CounterSet> board;  // kinds board and hw
  std::optional<HwTrace> hwtrace;   // kind hw
  bool operator==(const Profile&) const = default;
};

// A whole `.otpuprof` file.
struct ProfileFile {
  std::string format = kProfileFormat;
  int version = kProfileVersion;
  std::string created;  // ISO-8601
  std::string tool = kProfileTool;
  // The writer's build (otpu::VersionString()): which commit and RTL made the profile. Empty
  // when read from a file that has none.
  std::string tool_version = VersionString();
  std::vector<Profile> profiles;
  bool operator==(const ProfileFile&) const = default;
};

// The current UTC time as ISO-8601 ("2025-01-31T12:00:00Z"), for ProfileFile::created.
std::string NowIso8601();

}  // namespace otpu::lens

#endif  // OTPU_LENS_PROFILE_H_
