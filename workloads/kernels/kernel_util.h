// Small pieces every kernel uses: the TMEM bump allocator, the constant table kernels load
// into TMEM, a fluent VOP operand builder, and the RMSNorm sequence.
#ifndef OTPU_WORKLOADS_KERNELS_KERNEL_UTIL_H_
#define OTPU_WORKLOADS_KERNELS_KERNEL_UTIL_H_

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"

namespace otpu::kernels {

// fp32 bits of a float, for VOP's C operand.
inline uint32_t F32(float f) { return std::bit_cast<uint32_t>(f); }

inline constexpr float kLog2E = 1.4426950408889634f;
// RMSNorm epsilon of every kernel (Qwen3's).
inline constexpr float kRmsEps = 1e-6f;
// Stand-in for -inf in running maxima and masks: finite, so (s - m) never becomes inf - inf,
// and exp2 of anything scaled from it flushes to +0.
inline constexpr float kNegBig = -1e30f;

// The constant table a kernel loads from DRAM into TMEM (kConstWords fp32 words).
enum ConstIndex : uint32_t { kCNegEps = 0, kCNegOne = 1, kCNegBig = 2, kCZero = 3 };
inline constexpr uint32_t kConstWords = 8;
// Values of the table, in ConstIndex order, padded with zeros.
std::vector<float> ConstTable();

// Bump allocator of TMEM buffers (word addresses), LANES-aligned so rows start on bank 0.
class TmemLayout {
 public:
  explicit TmemLayout(uint32_t align) : align_(align) {}
  // Address of a new buffer of `words` words, remembered under `name`.
  uint32_t Alloc(const std::string& name, uint64_t words);
  uint64_t end() const { return next_; }
  // InvalidArgument naming `kernel`, the buffer that overflows and TMEM_WORDS.
  Status CheckFits(const isa::Config& cfg, const std::string& kernel) const;

 private:
  struct Buffer {
    std::string name;
    uint64_t addr, words;
  };
  uint32_t align_;
  uint64_t next_ = 0;
  std::vector<Buffer> buffers_;
};

// A VopOp filled fluently: V(kMUL).Shape(m, n).Dst(a, s).A(a, s).BRow(r).
struct V : isa::VopOp {
  explicit V(isa::VopFn f) { fn = f; }
  V& Shape(uint32_t rows, uint32_t cols) { m = rows; n = cols; return *this; }
  V& Dst(isa::Addr at, uint32_t stride = 0) { dst = at; dst_stride = stride; return *this; }
  V& Dst(uint32_t at, uint32_t stride = 0) { return Dst(isa::At(at), stride); }
  V& A(isa::Addr at, uint32_t stride = 0) { a = at; a_stride = stride; return *this; }
  V& A(uint32_t at, uint32_t stride = 0) { return A(isa::At(at), stride); }
  // dst = A = `at` with one stride: the exactly-in-place form docs/isa.md allows.
  V& InPlace(isa::Addr at, uint32_t stride = 0) { return Dst(at, stride).A(at, stride); }
  V& InPlace(uint32_t at, uint32_t stride = 0) { return InPlace(isa::At(at), stride); }
  V& B(isa::Addr at, uint32_t stride = 0) { return Bm(isa::BMode::kFULL, at, stride); }
  V& B(uint32_t at, uint32_t stride = 0) { return B(isa::At(at), stride); }
  // One B value per row, at `at + r*stride`.
  V& BRow(isa::Addr at, uint32_t stride = 1) { return Bm(isa::BMode::kROW, at, stride); }
  V& BRow(uint32_t at, uint32_t stride = 1) { return BRow(isa::At(at), stride); }
  // One B value per column, at `at + j`, shared by every row.
  V& BCol(isa::Addr at) { return Bm(isa::BMode::kCOL, at, 0); }
  V& BCol(uint32_t at) { return BCol(isa::At(at)); }
  V& BScalar(uint32_t at) { return Bm(isa::BMode::kSCALAR, isa::At(at), 0); }
  V& BZero() { bzero = true; return *this; }
  V& C(float v) { c = F32(v); return *this; }

 private:
  V& Bm(isa::BMode mode, isa::Addr at, uint32_t stride) {
    bmode = mode;
    b = at;
    b_stride = stride;
    return *this;
  }
};

// Operands of EmitRmsNorm. All addresses are TMEM words.
struct RmsNormArgs {
  isa::Addr dst, src;     // rows of n, `stride` words apart (dst may equal src)
  uint32_t rows = 1, n = 0, stride = 0;
  uint32_t g = 0;         // the n weights, shared by every row
  uint32_t ss = 0;        // scratch: one word per row
  uint32_t consts = 0;    // the constant table
};
// dst = src * rsqrt(mean(src^2) + eps) * g, row by row: RSSQ, RSQRT, MUL (row), MUL (col).
void EmitRmsNorm(isa::ProgramBuilder& b, const RmsNormArgs& a,
                 isa::ProgramBuilder::Loc loc = isa::ProgramBuilder::Loc::current());

// Round v up to a multiple of a.
inline uint64_t RoundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_KERNEL_UTIL_H_
