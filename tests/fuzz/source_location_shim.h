// Forced into every fuzz compile (-include): clang 14 with libstdc++ 12 has no
// std::source_location (libstdc++ needs __builtin_source_location, clang 15+), which
// workloads/isa/program.h uses. Test-only; the main build (gcc) never sees this.
#ifndef OTPU_TESTS_FUZZ_SOURCE_LOCATION_SHIM_H_
#define OTPU_TESTS_FUZZ_SOURCE_LOCATION_SHIM_H_

#include <source_location>
#include <version>

#if !defined(__cpp_lib_source_location)
#include <cstdint>
namespace std {
struct source_location {
  static constexpr source_location current(const char* file = __builtin_FILE(),
                                           const char* func = __builtin_FUNCTION(),
                                           uint_least32_t line = __builtin_LINE()) noexcept {
    source_location s;
    s.file_ = file;
    s.func_ = func;
    s.line_ = line;
    return s;
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return func_; }
  constexpr uint_least32_t line() const noexcept { return line_; }
  constexpr uint_least32_t column() const noexcept { return 0; }
  const char* file_ = "";
  const char* func_ = "";
  uint_least32_t line_ = 0;
};
}  // namespace std
#endif

#endif  // OTPU_TESTS_FUZZ_SOURCE_LOCATION_SHIM_H_
