// printf-style formatting into std::string (messages, listings, reports).
#ifndef OTPU_BASE_STRINGS_H_
#define OTPU_BASE_STRINGS_H_

#include <string>

namespace otpu {

// Formats like printf; any length.
std::string StrFormat(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace otpu

#endif  // OTPU_BASE_STRINGS_H_
