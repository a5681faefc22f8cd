// Synthetic profiles with every field filled: for round-trip tests and lens_bench.
#ifndef OTPU_LENS_SYNTHETIC_H_
#define OTPU_LENS_SYNTHETIC_H_

#include <cstdint>

#include "lens/profile.h"

namespace otpu::lens {

// A profile of kind `kind` with `instrs` instruction rows that look like a decode kernel's
// (LD, MM, QACT, QST, VOP cycling over a 16-instruction program, back to back), its program,
// sources, notes, slice counters in 64-cycle windows; board and hwtrace for kinds board and hw.
// Deterministic: the same arguments give the same profile.
Profile SyntheticProfile(ProfileKind kind, int64_t instrs);

// A file holding SyntheticProfile(kind, instrs) for each kind given.
ProfileFile SyntheticFile(std::initializer_list<ProfileKind> kinds, int64_t instrs);

}  // namespace otpu::lens

#endif  // OTPU_LENS_SYNTHETIC_H_
