#include "host/programs/regress/cell_profiles.h"

#include <filesystem>
#include <system_error>
#include <utility>

#include "lens/otpuprof.h"

namespace otpu::regress {

std::string SaveCellProfiles(const std::string& out_dir, const Cell& cell,
                             const lens::Profile& hw, const std::optional<lens::Profile>& rtl) {
  lens::ProfileFile file;
  file.created = lens::NowIso8601();
  lens::Profile named_hw = hw;
  named_hw.name = cell.id + " (hw)";
  file.profiles.push_back(std::move(named_hw));
  if (rtl) {
    lens::Profile named_rtl = *rtl;
    named_rtl.name = cell.id + " (rtl)";
    file.profiles.push_back(std::move(named_rtl));
  }
  const std::string rel = "profiles/" + cell.FileName() + ".otpuprof";
  std::error_code ec;
  std::filesystem::create_directories(out_dir + "/profiles", ec);
  return lens::Write(out_dir + "/" + rel, file).ok() ? rel : "";
}

}  // namespace otpu::regress
