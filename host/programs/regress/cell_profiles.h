// The profiles a regression cell keeps (docs/regress.md "Results"): its hw and rtl profiles in
// one .otpuprof under the output directory, named after the cell, for `lens open` and `lens
// diff` on a failure.
#ifndef OTPU_HOST_PROGRAMS_REGRESS_CELL_PROFILES_H_
#define OTPU_HOST_PROGRAMS_REGRESS_CELL_PROFILES_H_

#include <optional>
#include <string>

#include "host/programs/regress/matrix.h"
#include "lens/profile.h"

namespace otpu::regress {

// Writes `hw` and `rtl` (when there is one), named "<cell id> (hw)" and "<cell id> (rtl)", to
// <out_dir>/profiles/<cell file name>.otpuprof. Returns the path relative to `out_dir`, or ""
// when the file could not be written (the cell's verdicts stand without it).
std::string SaveCellProfiles(const std::string& out_dir, const Cell& cell,
                             const lens::Profile& hw, const std::optional<lens::Profile>& rtl);

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_CELL_PROFILES_H_
