// The build's one version string, shared by every program's --version, every profile's
// `tool_version` and every regression result: which commit, which RTL configurations are built
// in, which register maps the host side speaks.
#pragma once

#include <string>

namespace otpu {

// "otpu <git describe> (rtl configurations: sim board; register maps: 1 2)"; the describe is
// "unknown" for a build outside git.
const std::string& VersionString();

// For a program's main(): when argv[1] is --version, prints "PROGRAM VersionString()" to stdout
// and returns true (exit 0 then); any later --version is the program's own parser's business.
bool PrintVersionIfAsked(const char* program, int argc, char** argv);

}  // namespace otpu
