// Host-side quantization of weights (and of a prefilled KV cache) into the MM layout of
// docs/isa.md, and the DRAM bump allocator kernels place their arrays with.
//
// The rule, per row r and block b of `block` elements of W[n x k] (fp32 IEEE arithmetic,
// round to nearest even; every division and product below is one fp32 operation):
//   amax  = max |W[r][e]| over the block
//   N     = 127 (int8), 7 (int4), 12 (fp4 E2M1 stored doubled)
//   scale = amax / N          inv = N / amax          v = W[r][e] * inv
//   int8: q = clamp(rne(v), -127, 127), one signed byte
//   int4: q = clamp(rne(v), -7, 7), a two's-complement nibble
//   fp4:  the nearest of {0, 1, 2, 3, 4, 6, 8, 12} to |v| (ties to the smaller magnitude),
//         nibble = sign << 3 | index of that code (sign set only for a nonzero negative code)
//   amax = 0: scale 0 and every code 0.
// So W[r][e] ~ q * scale: the MXU multiplies the integer codes (fp4 as twice its E2M1 value)
// and applies the fp32 scale per block. This is the scheme of the on-chip block quantizer
// (QACT, QST) with a plain fp32 division in place of its recip sequence, so it is not
// bit-identical to QST; nothing needs it to be.
//
// Layout: row r at byte r * row_stride, row_stride = the row's bytes (k, or k/2 for 4-bit)
// rounded up to `align`; 4-bit rows hold element 2i in the low nibble of byte i. Scales are
// fp32, one per (row, block), grouped by column tiles of `k_tile` elements so that an MM over
// columns [t*k_tile, (t+1)*k_tile) finds its scales at the layout docs/isa.md asks for:
//   scale(r, b) at index t * n * (k_tile/block) + r * (k_tile/block) + (b mod k_tile/block),
// t = b / (k_tile/block). k_tile = k (the default) is the plain [n x k/block] layout.
#ifndef OTPU_WORKLOADS_KERNELS_QUANTIZE_H_
#define OTPU_WORKLOADS_KERNELS_QUANTIZE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/defs.h"

namespace otpu::kernels {

// How to quantize one matrix.
struct QuantOptions {
  isa::WFormat wf = isa::WFormat::kINT8;
  int block = 32;     // elements per scale (D for MM weights; k for one scale per row)
  int k_tile = 0;     // column tile the scales are grouped by; 0 = k
  int align = 32;     // row stride alignment in bytes (D for MM weights)
};

// A quantized W[n x k]: DRAM bytes and scales in the layout above.
struct QuantizedMatrix {
  int n = 0, k = 0;
  QuantOptions opts;
  uint32_t row_stride = 0;     // bytes between rows
  std::vector<uint8_t> bytes;  // n * row_stride
  std::vector<float> scales;   // n * k / block, tile-grouped

  // Bytes of the scale array in DRAM.
  uint64_t ScaleBytes() const { return scales.size() * 4; }
  // Index into `scales` of row r, block b (b counts blocks over the whole row).
  size_t ScaleIndex(int r, int b) const;
  // The integer code of element (r, e) (fp4: twice its E2M1 value, signed).
  int Code(int r, int e) const;
  // code * scale for every element, row-major [n x k]: what the MXU computes with.
  std::vector<float> Dequantize() const;
  // Writes the bytes at `w_addr` and the scales at `s_addr`; InvalidArgument naming the
  // region when either does not fit `mem`.
  Status WriteTo(SparseMemory* mem, uint64_t w_addr, uint64_t s_addr) const;
};

// Quantizes the row-major W[n x k]. InvalidArgument (naming `what` and the offending
// field or element) for a shape the options do not divide or a non-finite weight.
StatusOr<QuantizedMatrix> Quantize(const std::vector<float>& w, int n, int k,
                                   const QuantOptions& opts, const std::string& what);

// The fp4 magnitude table {0, 1, 2, 3, 4, 6, 8, 12} (E2M1 doubled), indexed by bits 2:0.
inline constexpr int kFp4Codes[8] = {0, 1, 2, 3, 4, 6, 8, 12};
// The largest code of a format: 127, 7 or 12.
int MaxCode(isa::WFormat wf);
// Bytes of one row of k elements before alignment.
uint32_t RowBytes(int k, isa::WFormat wf);

// Bump allocator of aligned DRAM regions, remembering what each region holds so a kernel
// can describe its layout.
class DramLayout {
 public:
  struct Region {
    std::string name;
    uint64_t addr = 0;
    uint64_t bytes = 0;
  };

  // Regions start at `base` (rounded up to `align`) and are each `align`-aligned.
  DramLayout(uint64_t base, uint32_t align);

  // Returns the address of a new region of `bytes` bytes.
  uint64_t Alloc(const std::string& name, uint64_t bytes);
  // First free address (aligned).
  uint64_t end() const { return next_; }
  const std::vector<Region>& regions() const { return regions_; }
  // InvalidArgument naming the first region that ends past `dram_bytes`.
  Status CheckFits(uint64_t dram_bytes) const;

 private:
  uint64_t next_;
  uint32_t align_;
  std::vector<Region> regions_;
};

// Writes fp32 values to DRAM at `addr`; InvalidArgument naming `what` when they do not fit.
Status WriteFloats(SparseMemory* mem, uint64_t addr, const std::vector<float>& v,
                   const std::string& what);
// Reads `count` fp32 values from DRAM at `addr` (the caller checked the range).
std::vector<float> ReadFloats(const SparseMemory& mem, uint64_t addr, size_t count);

}  // namespace otpu::kernels

#endif  // OTPU_WORKLOADS_KERNELS_QUANTIZE_H_
