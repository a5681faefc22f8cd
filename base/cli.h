// The command line of every program, in one shape (docs/cli.md "Help and completion"): a
// program is a table of commands, each with a one-line summary and a function that describes
// its Boost.Program_options. `PROG --help` lists the commands, `PROG COMMAND --help` the
// command's options one line each, and `PROG --complete WORD...` answers bash completion
// (scripts/completions/otpu.bash), all read from the same descriptions the parser uses, so
// none of them can drift from what the program accepts.
#ifndef OTPU_BASE_CLI_H_
#define OTPU_BASE_CLI_H_

#include <boost/program_options.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "base/exit_codes.h"

namespace otpu::cli {

namespace po = boost::program_options;

// One command's command line. Options in `visible` are listed by --help and completed;
// `hidden` ones (positionals, deprecated spellings) are parsed only. An option's value name
// (po::value<T>()->value_name("FILE")) is what help shows and what completion offers:
// "a|b|c" offers a, b and c; FILE, OUT, BASE, NEW, MATRIX, INDEX, PREFIX, PATH offer files;
// DIR and MOUNTPOINT directories; COMMAND a command; any name in Program::values that list.
struct Spec {
  po::options_description visible{"options", 1000};
  po::options_description hidden;
  po::positional_options_description positional;
};

// A command of a program ("record"), or the whole command line of a program without commands
// (name "").
struct Command {
  std::string name;
  std::string synopsis;  // after "PROG NAME ": "WORKLOAD... -o FILE [options]"
  std::string summary;   // one line: what it does
  std::function<void(Spec*)> describe;
  // Runs the command with the words after its name (the program's words when name is "").
  std::function<int(const std::vector<std::string>& args)> run;
  // Options end at the first positional (otpu-lock: the rest is the command to run).
  bool options_end_at_positional = false;
};

struct Program {
  std::string name;     // "lens"
  std::string summary;  // one line
  std::string epilog;   // printed after the options or commands of the help ("" for none)
  exit_codes::Family family;
  std::vector<Command> commands;
  // Completion values by value name ("WORKLOAD": the names `list` prints).
  std::map<std::string, std::function<std::vector<std::string>()>> values;
};

// Parses `args` of `prog cmd` against `spec`; false, with the usage error on stderr as one
// line ("PROG CMD: MESSAGE"), when they do not fit.
bool Parse(const std::string& prog, const std::string& cmd, const std::vector<std::string>& args,
           const Spec& spec, po::variables_map* vm);

// The options of `options`, one line each: "  -o, --out FILE   what it is (default X)".
std::string OptionLines(const po::options_description& options);

// `PROG --help`: the usage, the summary, the commands one line each (or the options of a
// program without commands), how to get a command's help, the epilog and the exit codes.
std::string ProgramHelp(const Program& program);

// `PROG COMMAND --help`: the command's usage, summary and options, one line each.
std::string CommandHelp(const Program& program, const Command& command);

// Whether `args` ask for help (-h or --help where an option may stand, before "--").
bool WantsHelp(const Command& command, const std::vector<std::string>& args);

// Completion of the last of `words` (the words after the program's name; the last may be
// empty): candidates starting with it, one per line, or one directive line: "@files",
// "@dirs" or "@command" (the shell completes those itself).
std::vector<std::string> Complete(const Program& program, const std::vector<std::string>& words);

// The main of a program: `--complete WORD...`, `--help`, `help [COMMAND]`, `COMMAND --help`,
// then the command (an unknown or missing one is a usage error naming the commands). Returns
// the exit code. `--version` is answered before this (workloads/version.h).
int RunProgram(const Program& program, int argc, char** argv);

}  // namespace otpu::cli

#endif  // OTPU_BASE_CLI_H_
