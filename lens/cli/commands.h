// The subcommands `lens` and `otpu-lens` share (SPEC 9: otpu-lens's open/html/info/list are the
// same code as lens's): list, info, summary, open, html, export, diff, and the small helpers of
// their command lines. `prog` is the program's name, for the one stderr line of a failure
// ("lens info: ...", "otpu-lens info: ...").
#ifndef OTPU_LENS_CLI_COMMANDS_H_
#define OTPU_LENS_CLI_COMMANDS_H_

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "base/exit_codes.h"

namespace otpu::lens::cli {

// Exit codes of both programs (base/exit_codes.h); 3 (device busy) is otpu-lens's alone.
using exit_codes::lens::kExitBadFile;
using exit_codes::lens::kExitBusy;
using exit_codes::lens::kExitFailure;
using exit_codes::lens::kExitOk;
using exit_codes::lens::kExitUsage;

// Prints `line` on stderr and returns `code`.
int Fail(int code, const std::string& line);

// The usage error (without the program prefix) for an output path `out` that would destroy the
// input `in` (the same file, by inode) or that is a directory; "" when `out` is fine. Checked
// before any work, so a long run never ends at its final rename.
std::string OutputProblem(const std::string& out, const std::string& in = "");

// Parses `args` of `prog cmd` against `opts` (positionals into `pos`); false, with the usage
// error printed, when they do not fit.
bool Parse(const std::string& prog, const std::string& cmd, const std::vector<std::string>& args,
           const boost::program_options::options_description& opts,
           const boost::program_options::positional_options_description& pos,
           boost::program_options::variables_map* vm);

// The subcommands; each returns the exit code.
int List(const std::string& prog, const std::vector<std::string>& args);
int Info(const std::string& prog, const std::vector<std::string>& args);
int Summary(const std::string& prog, const std::vector<std::string>& args);
int Open(const std::string& prog, const std::vector<std::string>& args);
int Html(const std::string& prog, const std::vector<std::string>& args);
int Export(const std::string& prog, const std::vector<std::string>& args);
// `diff BASE NEW [--json] [--top N]`: exit 0 equal, 1 different, 2 usage, 4 a bad file.
int Diff(const std::string& prog, const std::vector<std::string>& args);

}  // namespace otpu::lens::cli

#endif  // OTPU_LENS_CLI_COMMANDS_H_
