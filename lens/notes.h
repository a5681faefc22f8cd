// The notes of a profile (SPEC 6): the verdict against the roofline first, then where the
// cycles went, naming instructions and their kernel source lines. Works on any kind.
#ifndef OTPU_LENS_NOTES_H_
#define OTPU_LENS_NOTES_H_

#include <vector>

#include "lens/profile.h"

namespace otpu::lens {

// Share of the roofline at or above which a run is "good", and below which it is "bad"
// (between the two it is "warn").
inline constexpr double kGoodEfficiency = 0.8;
inline constexpr double kBadEfficiency = 0.4;
// How many instructions the notes name as the biggest consumers of cycles.
inline constexpr int kHotspotNotes = 3;

// Notes from the profile's roofline, instrs, programs and sources, most important first.
std::vector<Note> MakeNotes(const Profile& p);

}  // namespace otpu::lens

#endif  // OTPU_LENS_NOTES_H_
