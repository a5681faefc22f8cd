// Bit fields of Verilated ports: narrow ports are plain integers, wide ones VlWide<N> arrays of
// 32-bit words (bit i in word i / 32). Fields are at most 64 bits wide.
#ifndef OTPU_TESTS_RTL_UNITS_VL_BITS_H_
#define OTPU_TESTS_RTL_UNITS_VL_BITS_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "verilated.h"

namespace otpu::rtl::units {

inline constexpr uint64_t Mask(int width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// Bits [lsb, lsb + width) of a port.
template <typename T>
requires std::is_integral_v<T> uint64_t GetBits(const T& port, int lsb, int width) {
  return (uint64_t(port) >> lsb) & Mask(width);
}

template <std::size_t N>
uint64_t GetBits(const VlWide<N>& port, int lsb, int width) {
  std::size_t k = std::size_t(lsb / 32);
  const int off = lsb % 32;
  uint64_t v = port[k++] >> off;
  for (int have = 32 - off; have < width && k < N; have += 32) v |= uint64_t(port[k++]) << have;
  return v & Mask(width);
}

// Writes bits [lsb, lsb + width) of a port.
template <typename T>
requires std::is_integral_v<T>
void SetBits(T& port, int lsb, int width, uint64_t value) {
  const uint64_t m = Mask(width) << lsb;
  port = T((uint64_t(port) & ~m) | ((value << lsb) & m));
}

template <std::size_t N>
void SetBits(VlWide<N>& port, int lsb, int width, uint64_t value) {
  if (lsb % 32 == 0 && width == 32) {  // the common case: one whole word
    port[lsb / 32] = uint32_t(value);
    return;
  }
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i;
    const uint32_t bit = 1u << (b % 32);
    port[b / 32] = ((value >> i) & 1) ? (port[b / 32] | bit) : (port[b / 32] & ~bit);
  }
}

// A 32-bit word at word index i of a port (wide or narrow).
template <typename T>
uint32_t GetWord(const T& port, int i) {
  return uint32_t(GetBits(port, 32 * i, 32));
}

template <typename T>
void SetWord(T& port, int i, uint32_t v) {
  SetBits(port, 32 * i, 32, v);
}

}  // namespace otpu::rtl::units

#endif  // OTPU_TESTS_RTL_UNITS_VL_BITS_H_
