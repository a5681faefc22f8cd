#include "host/xdma_emu/fault_plan.h"

#include <cerrno>
#include <charconv>
#include <limits>

namespace otpu::xdma_emu {
namespace {

constexpr char kGrammar[] =
    "expected eio:FILE:N, short:FILE:N, timeout:FILE:N, slow:FILE:MS or hang, FILE = user, "
    "h2c or c2h";

std::vector<std::string> SplitColons(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon - start));
    if (colon == std::string::npos) return parts;
    start = colon + 1;
  }
}

StatusOr<int64_t> ParsePositive(const std::string& text, const std::string& spec,
                                const char* what) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || value < 1 ||
      value > std::numeric_limits<int>::max()) {
    return InvalidArgument("--fault " + spec + ": " + what + " '" + text +
                           "' is not a positive whole number");
  }
  return value;
}

}  // namespace

const char* DeviceFileWord(DeviceFile file) {
  switch (file) {
    case DeviceFile::kUser: return "user";
    case DeviceFile::kH2c: return "h2c";
    case DeviceFile::kC2h: return "c2h";
  }
  return "?";
}

StatusOr<Fault> ParseFault(const std::string& spec) {
  std::vector<std::string> parts = SplitColons(spec);
  Fault fault;
  if (parts.size() == 1 && parts[0] == "hang") {
    fault.kind = FaultKind::kHang;
    return fault;
  }
  if (parts.size() != 3) return InvalidArgument("--fault " + spec + ": " + kGrammar);
  const std::string& kind = parts[0];
  if (kind == "eio") fault.kind = FaultKind::kEio;
  else if (kind == "short") fault.kind = FaultKind::kShort;
  else if (kind == "timeout") fault.kind = FaultKind::kTimeout;
  else if (kind == "slow") fault.kind = FaultKind::kSlow;
  else return InvalidArgument("--fault " + spec + ": unknown fault '" + kind + "'; " + kGrammar);

  bool file_known = false;
  for (DeviceFile file : {DeviceFile::kUser, DeviceFile::kH2c, DeviceFile::kC2h}) {
    if (parts[1] == DeviceFileWord(file)) {
      fault.file = file;
      file_known = true;
    }
  }
  if (!file_known) {
    return InvalidArgument("--fault " + spec + ": unknown device file '" + parts[1] +
                           "' (user, h2c or c2h)");
  }
  if (fault.kind == FaultKind::kSlow) {
    ASSIGN_OR_RETURN(int64_t ms, ParsePositive(parts[2], spec, "delay in milliseconds"));
    fault.delay_ms = static_cast<int>(ms);
  } else {
    ASSIGN_OR_RETURN(fault.nth, ParsePositive(parts[2], spec, "request number"));
  }
  return fault;
}

FaultAction FaultPlan::Next(DeviceFile file) {
  const int64_t n = ++requests_[static_cast<int>(file)];
  FaultAction action;
  for (const Fault& fault : faults_) {
    if (fault.kind == FaultKind::kHang || fault.file != file) continue;
    switch (fault.kind) {
      case FaultKind::kSlow: action.delay_ms += fault.delay_ms; break;
      case FaultKind::kEio:
        if (fault.nth == n) action.error = EIO;
        break;
      case FaultKind::kTimeout:
        if (fault.nth == n) action.error = ETIMEDOUT;
        break;
      case FaultKind::kShort:
        if (fault.nth == n) action.half = true;
        break;
      case FaultKind::kHang: break;
    }
  }
  return action;
}

bool FaultPlan::hang() const {
  for (const Fault& fault : faults_) {
    if (fault.kind == FaultKind::kHang) return true;
  }
  return false;
}

}  // namespace otpu::xdma_emu
