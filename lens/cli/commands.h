// The subcommands `lens` and `otpu-lens` share (SPEC 9: otpu-lens's open/html/info/list are the
// same code as lens's): list, info, summary, open, html, export, diff, and the small helpers of
// their command lines. `prog` is the program's name, for the one stderr line of a failure
// ("lens info: ...", "otpu-lens info: ...").
#ifndef OTPU_LENS_CLI_COMMANDS_H_
#define OTPU_LENS_CLI_COMMANDS_H_

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "base/cli.h"
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

// Parses `args` of `prog cmd` against a Spec; false, with the usage error printed, when they
// do not fit.
using otpu::cli::Parse;

// The shared subcommands of program `prog` (help, completion and the run, base/cli.h).
otpu::cli::Command ListCommand(const std::string& prog);
otpu::cli::Command InfoCommand(const std::string& prog);
otpu::cli::Command SummaryCommand(const std::string& prog);
otpu::cli::Command OpenCommand(const std::string& prog);
otpu::cli::Command HtmlCommand(const std::string& prog);
otpu::cli::Command ExportCommand(const std::string& prog);
// `diff BASE NEW [--json] [--top N]`: exit 0 equal, 1 different, 2 usage, 4 a bad file.
otpu::cli::Command DiffCommand(const std::string& prog);

// `open`'s options, for `record --open` to take the same --port and --no-browser.
void AddOpenOptions(otpu::cli::Spec* spec);
// The --port of `vm` when it is out of range: the usage error without the program prefix.
std::string PortProblem(const boost::program_options::variables_map& vm);
// `prog open FILE` with the --port and --no-browser of `vm` (which may have none).
int OpenFile(const std::string& prog, const std::string& path,
             const boost::program_options::variables_map& vm);

// Completion values both programs offer: WORKLOAD (the names `list` prints).
void AddCompletionValues(otpu::cli::Program* program);

}  // namespace otpu::lens::cli

#endif  // OTPU_LENS_CLI_COMMANDS_H_
