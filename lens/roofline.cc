#include "lens/roofline.h"

#include <algorithm>
#include <utility>

namespace otpu::lens {

SliceRoofline SliceRooflineOf(int64_t portb, int64_t porta) {
  return {portb, porta, std::max(portb, porta)};
}

SliceRoofline SliceRooflineOf(const Ports& ports) {
  return SliceRooflineOf(ports.bmxu + ports.bdma, ports.amxu + ports.aq);
}

Roofline RooflineOf(std::vector<SliceRoofline> per_slice, int64_t cycles) {
  Roofline r;
  for (const SliceRoofline& s : per_slice) r.bound = std::max(r.bound, s.bound);
  r.efficiency = cycles > 0 ? double(r.bound) / double(cycles) : 0.0;
  r.per_slice = std::move(per_slice);
  return r;
}

}  // namespace otpu::lens
