#include "workloads/isa/program.h"

#include <fstream>
#include <mutex>
#include <unordered_map>

#include "base/status.h"

namespace otpu::isa {

std::vector<uint8_t> Program::Bytes() const {
  std::vector<uint8_t> out;
  out.reserve(code.size() * kInstrBytes);
  for (const Instr& in : code)
    for (uint32_t w : in.w)
      for (int b = 0; b < 4; ++b) out.push_back(uint8_t(w >> (8 * b)));
  return out;
}

std::string SourceText(const std::string& file, int line) {
  static std::mutex mu;
  static std::unordered_map<std::string, std::vector<std::string>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(file);
  if (it == cache.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string s; std::getline(in, s);) lines.push_back(s);
    it = cache.emplace(file, std::move(lines)).first;
  }
  if (line < 1 || size_t(line) > it->second.size()) return "";
  const std::string& s = it->second[line - 1];
  size_t a = s.find_first_not_of(" \t");
  size_t b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string RepoRelative(const std::string& path) {
#ifdef OTPU_SOURCE_DIR
  const std::string root = std::string(OTPU_SOURCE_DIR) + "/";
  if (path.compare(0, root.size(), root) == 0) return path.substr(root.size());
#endif
  // ccache with base_dir compiles with paths relative to the build directory, which sits in
  // the checkout ("../workloads/kernels/mlp.cc" from build/): drop the climb to the root.
  size_t from = 0;
  while (path.compare(from, 3, "../") == 0) from += 3;
  return path.substr(from);
}

R ProgramBuilder::Alloc() {
  for (int i = 0; i < 7; ++i) {
    if (!(used_regs_ & (1u << i))) {
      used_regs_ |= uint8_t(1u << i);
      return R{uint8_t(i + 1)};
    }
  }
  OTPU_CHECK(false && "out of general registers R1..R7");
  return R{};
}

void ProgramBuilder::Free(R r) {
  if (r.n >= 1 && r.n <= 7) used_regs_ &= uint8_t(~(1u << (r.n - 1)));
}

int ProgramBuilder::SourceId(const Loc& loc) {
  auto key = std::make_pair(std::string(loc.file_name()), int(loc.line()));
  auto it = source_ids_.find(key);
  if (it != source_ids_.end()) return it->second;
  SourceLine s;
  s.file = RepoRelative(loc.file_name());
  s.line = int(loc.line());
  s.func = loc.function_name();
  // Keep the bare function name: "void otpu::kernels::Mlp(...)" -> "otpu::kernels::Mlp".
  size_t paren = s.func.find('(');
  if (paren != std::string::npos) s.func.resize(paren);
  size_t space = s.func.rfind(' ');
  if (space != std::string::npos) s.func = s.func.substr(space + 1);
  s.text = SourceText(loc.file_name(), int(loc.line()));
  int id = int(prog_.sources.size());
  prog_.sources.push_back(std::move(s));
  source_ids_.emplace(key, id);
  return id;
}

void ProgramBuilder::Emit(const Instr& in, const Loc& loc) {
  prog_.code.push_back(in);
  prog_.source.push_back(SourceId(loc));
  prog_.comment.push_back(std::move(pending_comment_));
  pending_comment_.clear();
}

void ProgramBuilder::Nop(Loc loc) { Emit(EncodeNop(), loc); }
void ProgramBuilder::Halt(Loc loc) { Emit(EncodeHalt(), loc); }
void ProgramBuilder::Li(R rd, uint32_t imm, Loc loc) { Emit(EncodeLi({rd.n, imm}), loc); }
void ProgramBuilder::Addi(R rd, R rs, int32_t imm, Loc loc) {
  Emit(EncodeAddi({rd.n, Addr{rs.n, uint32_t(imm)}}), loc);
}

void ProgramBuilder::Loop(uint32_t count, const std::function<void()>& body, Loc loc) {
  Loop(R{0}, count, body, loc);
}

void ProgramBuilder::Loop(R count_reg, uint32_t count, const std::function<void()>& body, Loc loc) {
  size_t at = pc();
  Emit(EncodeLoop({Addr{count_reg.n, count}, 0}), loc);
  body();
  prog_.code[at].w[4] = uint32_t(pc() - at - 1);
}

void ProgramBuilder::Ld(const DmaOp& op, Loc loc) { Emit(EncodeLd(op), loc); }
void ProgramBuilder::St(const DmaOp& op, Loc loc) { Emit(EncodeSt(op), loc); }
void ProgramBuilder::Mm(const MmOp& op, Loc loc) { Emit(EncodeMm(op), loc); }
void ProgramBuilder::Qact(const QactOp& op, Loc loc) { Emit(EncodeQact(op), loc); }
void ProgramBuilder::Qst(const QstOp& op, Loc loc) { Emit(EncodeQst(op), loc); }
void ProgramBuilder::Vop(const VopOp& op, Loc loc) { Emit(EncodeVop(op), loc); }

Program ProgramBuilder::Finish(Loc loc) {
  if (prog_.code.empty() || prog_.code.back().opcode() != uint8_t(Opcode::kHALT)) Halt(loc);
  return std::move(prog_);
}

}  // namespace otpu::isa
