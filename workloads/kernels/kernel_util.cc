#include "workloads/kernels/kernel_util.h"

namespace otpu::kernels {

using isa::VopFn;

std::vector<float> ConstTable() {
  std::vector<float> t(kConstWords, 0.0f);
  t[kCNegEps] = -kRmsEps;
  t[kCNegOne] = -1.0f;
  t[kCNegBig] = kNegBig;
  t[kCZero] = 0.0f;
  return t;
}

uint32_t TmemLayout::Alloc(const std::string& name, uint64_t words) {
  uint64_t addr = next_;
  buffers_.push_back(Buffer{name, addr, words});
  next_ = RoundUp(addr + words, align_);
  return uint32_t(addr);
}

Status TmemLayout::CheckFits(const isa::Config& cfg, const std::string& kernel) const {
  for (const Buffer& buf : buffers_)
    if (buf.addr + buf.words > cfg.TMEM_WORDS)
      return InvalidArgument(kernel + ": TMEM buffer '" + buf.name + "' [" +
                             std::to_string(buf.addr) + ", " +
                             std::to_string(buf.addr + buf.words) + ") ends past TMEM_WORDS=" +
                             std::to_string(cfg.TMEM_WORDS));
  return OkStatus();
}

void EmitRmsNorm(isa::ProgramBuilder& b, const RmsNormArgs& a, isa::ProgramBuilder::Loc loc) {
  // ss = mean(x^2); ss = rsqrt(ss - (-eps)); dst = x * ss (per row); dst *= g (per column).
  b.Vop(V(VopFn::kRSSQ).Shape(a.rows, a.n).Dst(a.ss, 1).A(a.src, a.stride).C(1.0f / float(a.n)),
        loc);
  b.Vop(V(VopFn::kRSQRT).Shape(1, a.rows).InPlace(a.ss).BScalar(a.consts + kCNegEps), loc);
  b.Vop(V(VopFn::kMUL).Shape(a.rows, a.n).Dst(a.dst, a.stride).A(a.src, a.stride).BRow(a.ss),
        loc);
  b.Vop(V(VopFn::kMUL).Shape(a.rows, a.n).InPlace(a.dst, a.stride).BCol(a.g), loc);
}

}  // namespace otpu::kernels
