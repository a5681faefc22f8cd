#include "host/programs/regress/captured_command.h"

#include "base/subprocess.h"

namespace otpu::regress {

StatusOr<CapturedResult> RunCaptured(const std::vector<std::string>& argv) {
  if (argv.empty()) return InvalidArgument("RunCaptured: empty command");
  const std::string& program = argv[0];
  SubprocessOptions options;
  options.argv = argv;
  options.out = Stream::Capture();
  options.err = Stream::Capture();
  StatusOr<SubprocessResult> run = RunSubprocess(options);
  if (run.status().code() == StatusCode::kNotFound) {
    return NotFound(program + ": command not found" +
                    (program.find('/') == std::string::npos ? " in PATH" : ""));
  }
  if (!run.ok()) return Internal(run.status().message());
  CapturedResult result;
  result.exit_code = run->exit_code;
  result.out = std::move(run->out);
  result.err = std::move(run->err);
  return result;
}

std::string ShellQuote(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') quoted += "'\\''"; else quoted += c;
  }
  return quoted + "'";
}

std::string CommandLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) {
    if (!line.empty()) line += ' ';
    bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`;&|<>()*?[]#~") == std::string::npos;
    line += plain ? a : ShellQuote(a);
  }
  return line;
}

}  // namespace otpu::regress
