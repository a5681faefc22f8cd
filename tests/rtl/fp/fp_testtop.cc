#include "tests/rtl/fp/fp_testtop.h"

#include "Votpu_fp_testtop.h"
#include "verilated.h"

namespace otpu::rtl {

FpTestTop::FpTestTop()
    : context_(std::make_unique<VerilatedContext>()),
      top_(std::make_unique<Votpu_fp_testtop>(context_.get(), "otpu_fp_testtop")) {}

FpTestTop::~FpTestTop() { top_->final(); }

FpOutputs FpTestTop::Eval(uint32_t a, uint32_t b, bool sub) {
  top_->a_i = a;
  top_->b_i = b;
  top_->sub_i = sub;
  top_->eval();
  FpOutputs out;
  out.add = top_->add_o;
  out.mul = top_->mul_o;
  out.max = top_->max_o;
  out.min = top_->min_o;
  out.exp2 = top_->exp2_o;
  out.recip = top_->recip_o;
  out.rsqrt = top_->rsqrt_o;
  out.from_int = top_->from_int_o;
  out.quant = static_cast<int8_t>(top_->quant_o);
  return out;
}

}  // namespace otpu::rtl
