// The Verilated otpu_fp_testtop (rtl/fp) as a plain function: one combinational evaluation of
// every fp32 unit on the same two operands.
#ifndef OTPU_TESTS_RTL_FP_FP_TESTTOP_H_
#define OTPU_TESTS_RTL_FP_FP_TESTTOP_H_

#include <cstdint>
#include <memory>

class VerilatedContext;
class Votpu_fp_testtop;

namespace otpu::rtl {

// Every output of otpu_fp_testtop for one input vector, as raw bits.
struct FpOutputs {
  uint32_t add = 0;       // a + b, or a - b when sub
  uint32_t mul = 0;       // a * b
  uint32_t max = 0;       // max(a, b)
  uint32_t min = 0;       // min(a, b)
  uint32_t exp2 = 0;      // exp2(a)
  uint32_t recip = 0;     // recip(a)
  uint32_t rsqrt = 0;     // rsqrt(a)
  uint32_t from_int = 0;  // a read as int32, converted
  int8_t quant = 0;       // clamp(rne(a * b), -127, 127), b being the quantizer's inv
};

// Owns one Verilated model and its own context (no globals), so several can coexist.
class FpTestTop {
 public:
  FpTestTop();
  ~FpTestTop();
  FpTestTop(const FpTestTop&) = delete;
  FpTestTop& operator=(const FpTestTop&) = delete;

  // Drives a_i, b_i and sub_i and returns the settled outputs (every unit is combinational).
  FpOutputs Eval(uint32_t a, uint32_t b, bool sub);

 private:
  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Votpu_fp_testtop> top_;
};

}  // namespace otpu::rtl

#endif  // OTPU_TESTS_RTL_FP_FP_TESTTOP_H_
