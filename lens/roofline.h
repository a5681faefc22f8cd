// The DRAM roofline of a run (docs/profile.md): a slice needs at least as many cycles as its
// busier port has transfers (port B: one chunk a cycle, port A: one word a cycle); the run's
// bound is its slowest slice's, and its efficiency is bound / cycles. Every profile builder
// computes it here, so the kinds agree on what "% of the roofline" means.
#ifndef OTPU_LENS_ROOFLINE_H_
#define OTPU_LENS_ROOFLINE_H_

#include <cstdint>
#include <vector>

#include "lens/profile.h"

namespace otpu::lens {

// One slice's roofline from its port-B chunk and port-A word transfers.
SliceRoofline SliceRooflineOf(int64_t portb, int64_t porta);

// One slice's roofline from its transfers by who made them (B: bmxu + bdma, A: amxu + aq).
SliceRoofline SliceRooflineOf(const Ports& ports);

// The run's roofline over `per_slice` in `cycles`: the largest slice bound, and bound / cycles
// (0 for a run of no cycles).
Roofline RooflineOf(std::vector<SliceRoofline> per_slice, int64_t cycles);

}  // namespace otpu::lens

#endif  // OTPU_LENS_ROOFLINE_H_
