#include "workloads/kernels/quantize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace otpu::kernels {
namespace {

uint64_t RoundUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string Hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

bool IsFourBit(isa::WFormat wf) { return wf != isa::WFormat::kINT8; }

// Index (bits 2:0) of the fp4 code nearest to v >= 0, ties to the smaller magnitude.
// Distances in double are exact for these magnitudes.
int Fp4Index(float v) {
  int best = 0;
  double best_d = std::fabs(double(v) - kFp4Codes[0]);
  for (int i = 1; i < 8; ++i) {
    double d = std::fabs(double(v) - kFp4Codes[i]);
    if (d < best_d) {
      best = i;
      best_d = d;
    }
  }
  return best;
}

int Clamp(float v, int limit) {
  float r = std::nearbyint(v);  // default rounding mode: to nearest even
  return int(std::clamp(r, float(-limit), float(limit)));
}

// The nibble or byte stored for value x with inv = N / amax.
uint8_t Encode(float x, float inv, isa::WFormat wf) {
  float v = x * inv;
  switch (wf) {
    case isa::WFormat::kINT8:
      return uint8_t(int8_t(Clamp(v, 127)));
    case isa::WFormat::kINT4:
      return uint8_t(Clamp(v, 7)) & 0xF;
    case isa::WFormat::kFP4: {
      int idx = Fp4Index(std::fabs(v));
      return uint8_t((idx != 0 && v < 0 ? 8 : 0) | idx);
    }
  }
  return 0;
}

}  // namespace

int MaxCode(isa::WFormat wf) {
  switch (wf) {
    case isa::WFormat::kINT8: return 127;
    case isa::WFormat::kINT4: return 7;
    case isa::WFormat::kFP4: return 12;
  }
  return 0;
}

uint32_t RowBytes(int k, isa::WFormat wf) { return IsFourBit(wf) ? uint32_t(k) / 2 : uint32_t(k); }

size_t QuantizedMatrix::ScaleIndex(int r, int b) const {
  int per_tile = opts.k_tile / opts.block;
  int t = b / per_tile;
  return size_t(t) * n * per_tile + size_t(r) * per_tile + (b % per_tile);
}

int QuantizedMatrix::Code(int r, int e) const {
  const uint8_t* row = bytes.data() + size_t(r) * row_stride;
  if (opts.wf == isa::WFormat::kINT8) return int8_t(row[e]);
  uint8_t nib = (e % 2 == 0) ? (row[e / 2] & 0xF) : (row[e / 2] >> 4);
  if (opts.wf == isa::WFormat::kINT4) return (nib & 8) ? int(nib) - 16 : int(nib);
  int mag = kFp4Codes[nib & 7];
  return (nib & 8) ? -mag : mag;
}

std::vector<float> QuantizedMatrix::Dequantize() const {
  std::vector<float> out(size_t(n) * k);
  for (int r = 0; r < n; ++r)
    for (int e = 0; e < k; ++e)
      out[size_t(r) * k + e] = float(Code(r, e)) * scales[ScaleIndex(r, e / opts.block)];
  return out;
}

Status QuantizedMatrix::WriteTo(SparseMemory* mem, uint64_t w_addr, uint64_t s_addr) const {
  if (!mem->Contains(w_addr, bytes.size()))
    return InvalidArgument("weights of " + std::to_string(n) + "x" + std::to_string(k) +
                           " at DRAM " + Hex(w_addr) + " do not fit the image");
  if (!mem->Contains(s_addr, ScaleBytes()))
    return InvalidArgument("weight scales of " + std::to_string(n) + "x" + std::to_string(k) +
                           " at DRAM " + Hex(s_addr) + " do not fit the image");
  mem->Write(w_addr, bytes.data(), bytes.size());
  mem->Write(s_addr, scales.data(), ScaleBytes());
  return OkStatus();
}

StatusOr<QuantizedMatrix> Quantize(const std::vector<float>& w, int n, int k,
                                   const QuantOptions& opts, const std::string& what) {
  QuantizedMatrix q;
  q.n = n;
  q.k = k;
  q.opts = opts;
  if (q.opts.k_tile == 0) q.opts.k_tile = k;
  const int block = opts.block, k_tile = q.opts.k_tile;
  auto bad = [&](const std::string& m) { return InvalidArgument(what + ": " + m); };
  if (n < 1 || k < 1) return bad("shape " + std::to_string(n) + "x" + std::to_string(k));
  if (w.size() != size_t(n) * k)
    return bad("has " + std::to_string(w.size()) + " values, expected " +
               std::to_string(size_t(n) * k));
  if (block < 1 || k_tile % block != 0 || k % k_tile != 0)
    return bad("block " + std::to_string(block) + " and k_tile " + std::to_string(k_tile) +
               " do not divide k=" + std::to_string(k));
  if (IsFourBit(opts.wf) && (block % 2 != 0 || k_tile % 2 != 0))
    return bad("4-bit weights need an even block and k_tile");
  if (opts.align < 1) return bad("align " + std::to_string(opts.align));

  q.row_stride = uint32_t(RoundUp(RowBytes(k, opts.wf), uint64_t(opts.align)));
  q.bytes.assign(size_t(n) * q.row_stride, 0);
  q.scales.assign(size_t(n) * (k / block), 0.0f);
  const float max_code = float(MaxCode(opts.wf));
  for (int r = 0; r < n; ++r) {
    const float* row = w.data() + size_t(r) * k;
    uint8_t* out = q.bytes.data() + size_t(r) * q.row_stride;
    for (int b = 0; b < k / block; ++b) {
      float amax = 0;
      for (int e = b * block; e < (b + 1) * block; ++e) {
        if (!std::isfinite(row[e]))
          return bad("element (" + std::to_string(r) + ", " + std::to_string(e) +
                     ") is not finite");
        amax = std::max(amax, std::fabs(row[e]));
      }
      q.scales[q.ScaleIndex(r, b)] = amax / max_code;
      if (amax == 0) continue;
      const float inv = max_code / amax;
      for (int e = b * block; e < (b + 1) * block; ++e) {
        uint8_t code = Encode(row[e], inv, opts.wf);
        if (!IsFourBit(opts.wf))
          out[e] = code;
        else
          out[e / 2] |= uint8_t(e % 2 == 0 ? code : code << 4);
      }
    }
  }
  return q;
}

DramLayout::DramLayout(uint64_t base, uint32_t align)
    : next_(RoundUp(base, align)), align_(align) {}

uint64_t DramLayout::Alloc(const std::string& name, uint64_t bytes) {
  uint64_t addr = next_;
  regions_.push_back(Region{name, addr, bytes});
  next_ = RoundUp(addr + bytes, align_);
  return addr;
}

Status DramLayout::CheckFits(uint64_t dram_bytes) const {
  for (const Region& r : regions_)
    if (r.addr + r.bytes > dram_bytes)
      return InvalidArgument("DRAM region '" + r.name + "' [" + Hex(r.addr) + ", " +
                             Hex(r.addr + r.bytes) + ") ends past DRAM_BYTES=" + Hex(dram_bytes));
  return OkStatus();
}

Status WriteFloats(SparseMemory* mem, uint64_t addr, const std::vector<float>& v,
                   const std::string& what) {
  if (!mem->Contains(addr, v.size() * 4))
    return InvalidArgument(what + ": " + std::to_string(v.size()) + " floats at DRAM " +
                           Hex(addr) + " do not fit the image");
  mem->Write(addr, v.data(), v.size() * 4);
  return OkStatus();
}

std::vector<float> ReadFloats(const SparseMemory& mem, uint64_t addr, size_t count) {
  std::vector<float> v(count);
  mem.Read(addr, v.data(), count * 4);
  return v;
}

}  // namespace otpu::kernels
