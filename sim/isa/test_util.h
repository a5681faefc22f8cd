// Test fixture shared by the ISA simulator tests: a `sim` configuration, a 16 MiB DRAM, and
// helpers to run a few hand-encoded instructions and to poke fp32 values.
#ifndef OTPU_SIM_ISA_TEST_UTIL_H_
#define OTPU_SIM_ISA_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/isa/isa_sim.h"
#include "workloads/isa/instr.h"

namespace otpu::sim {

class IsaSimTest : public ::testing::Test {
 protected:
  // Loads `code` followed by HALT and runs it.
  StatusOr<trace::RunEvents> RunCode(std::vector<isa::Instr> code, const IsaRunOptions& opts = {}) {
    code.push_back(isa::EncodeHalt());
    return RunRaw(code, opts);
  }
  // Loads `code` as it is (no HALT appended) and runs it.
  StatusOr<trace::RunEvents> RunRaw(const std::vector<isa::Instr>& code, const IsaRunOptions& opts = {}) {
    Status st = sim.LoadProgram(code);
    if (!st.ok()) return st;
    return sim.Run(opts);
  }
  // Runs `code` + HALT and returns the error message ("" when it succeeded).
  std::string ErrorOf(std::vector<isa::Instr> code, const IsaRunOptions& opts = {}) {
    StatusOr<trace::RunEvents> r = RunCode(std::move(code), opts);
    if (r.ok()) return "";
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
    return r.status().message();
  }

  float T(uint64_t addr) const { return std::bit_cast<float>(sim.tmem()[addr]); }
  void SetT(uint64_t addr, float v) { sim.tmem()[addr] = std::bit_cast<uint32_t>(v); }
  void SetDramF(uint64_t addr, float v) { dram.Write32(addr, std::bit_cast<uint32_t>(v)); }
  float DramF(uint64_t addr) const { return std::bit_cast<float>(dram.Read32(addr)); }

  isa::Config cfg = isa::Config::Sim();
  SparseMemory dram{uint64_t{1} << 24};
  IsaSim sim{cfg, &dram};
};

// Loads R[rd] = imm.
inline isa::Instr Li(int rd, uint32_t imm) { return isa::EncodeLi({uint8_t(rd), imm}); }
// R[rd] = R[rs] + imm.
inline isa::Instr Addi(int rd, int rs, uint32_t imm) {
  return isa::EncodeAddi({uint8_t(rd), isa::At(uint8_t(rs), imm)});
}
// LOOP count (+ R[reg]) over the next `body` instructions.
inline isa::Instr Loop(uint32_t count, uint32_t body, int reg = 0) {
  return isa::EncodeLoop({isa::At(uint8_t(reg), count), body});
}
// A VOP over m x n elements with contiguous rows (strides n) and B in FULL mode.
inline isa::VopOp Vop(isa::VopFn fn, uint32_t dst, uint32_t a, uint32_t b, uint32_t n,
                      uint32_t m = 1) {
  isa::VopOp op;
  op.fn = fn;
  op.dst = isa::At(dst);
  op.a = isa::At(a);
  op.b = isa::At(b);
  op.n = n;
  op.m = m;
  op.dst_stride = op.a_stride = op.b_stride = n;
  return op;
}

}  // namespace otpu::sim

#endif  // OTPU_SIM_ISA_TEST_UTIL_H_
