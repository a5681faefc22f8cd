// A program and the builder kernels use to write one. Every emitted instruction remembers the
// kernel source line that emitted it (file, line, function, text): the profile's `sources`.
#ifndef OTPU_WORKLOADS_ISA_PROGRAM_H_
#define OTPU_WORKLOADS_ISA_PROGRAM_H_

#include <cstdint>
#include <functional>
#include <map>
#include <source_location>
#include <string>
#include <vector>

#include "workloads/isa/instr.h"

namespace otpu::isa {

struct SourceLine {
  std::string file;  // path relative to the repository root when inside it
  int line = 0;
  std::string func;
  std::string text;  // the line's text, trimmed; empty when the file is not readable
};

struct Program {
  std::vector<Instr> code;
  std::vector<int> source;            // per pc: index into `sources`, -1 none
  std::vector<std::string> comment;   // per pc
  std::vector<SourceLine> sources;

  size_t size() const { return code.size(); }
  // Little-endian bytes of the code, as loaded into IMEM.
  std::vector<uint8_t> Bytes() const;
};

// Register handle: R0 is zero, R1..R7 are general, R8..R15 hold ARG0..7 at run start.
struct R {
  uint8_t n = 0;
};
inline R Arg(int i) { return R{uint8_t(8 + i)}; }

class ProgramBuilder {
 public:
  using Loc = std::source_location;

  ProgramBuilder() = default;

  // Allocates one of R1..R7 (OTPU_CHECK when none is free); Free returns it.
  R Alloc();
  void Free(R r);

  void Nop(Loc loc = Loc::current());
  void Halt(Loc loc = Loc::current());
  void Li(R rd, uint32_t imm, Loc loc = Loc::current());
  void Addi(R rd, R rs, int32_t imm, Loc loc = Loc::current());
  // Emits LOOP count(+R[reg]) and the body `body` emits; the body length is patched in.
  void Loop(uint32_t count, const std::function<void()>& body, Loc loc = Loc::current());
  void Loop(R count_reg, uint32_t count, const std::function<void()>& body,
            Loc loc = Loc::current());
  void Ld(const DmaOp& op, Loc loc = Loc::current());
  void St(const DmaOp& op, Loc loc = Loc::current());
  void Mm(const MmOp& op, Loc loc = Loc::current());
  void Qact(const QactOp& op, Loc loc = Loc::current());
  void Qst(const QstOp& op, Loc loc = Loc::current());
  void Vop(const VopOp& op, Loc loc = Loc::current());

  // Attaches a comment to the next emitted instruction.
  void Comment(std::string text) { pending_comment_ = std::move(text); }

  size_t pc() const { return prog_.code.size(); }
  // Appends HALT when the program does not end with one and returns the program.
  Program Finish(Loc loc = Loc::current());

 private:
  void Emit(const Instr& in, const Loc& loc);
  int SourceId(const Loc& loc);

  Program prog_;
  std::map<std::pair<std::string, int>, int> source_ids_;
  std::string pending_comment_;
  uint8_t used_regs_ = 0;  // bit i = R(i+1) allocated
};

// Reads one line of a source file (cached); empty when unreadable.
std::string SourceText(const std::string& file, int line);
// `path` relative to the repository root when it lies inside it.
std::string RepoRelative(const std::string& path);

}  // namespace otpu::isa

#endif  // OTPU_WORKLOADS_ISA_PROGRAM_H_
