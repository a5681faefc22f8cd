#include "base/cli.h"

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>

namespace otpu::cli {
namespace {

// Every program family's usage code is 2 (base/exit_codes.h).
constexpr int kExitUsage = 2;

constexpr const char* kCompleteFlag = "--complete";

// Value names whose values are files or directories (see Spec).
bool IsFileValue(const std::string& name) {
  static const char* const kFiles[] = {"FILE", "OUT", "BASE", "NEW", "MATRIX", "INDEX",
                                       "PREFIX", "PATH", "BINARY"};
  for (const char* f : kFiles) {
    if (name == f) return true;
  }
  return false;
}

std::string ValueName(const po::option_description& o) {
  if (o.semantic()->max_tokens() == 0) return "";
  std::string text = o.format_parameter();  // "FILE" or "N (=64)"
  const size_t def = text.find(" (=");
  return def == std::string::npos ? text : text.substr(0, def);
}

// The default value's text ("64"), or "" when the option has none.
std::string DefaultText(const po::option_description& o) {
  if (o.semantic()->max_tokens() == 0) return "";
  const std::string text = o.format_parameter();
  const size_t def = text.find(" (=");
  if (def == std::string::npos || text.back() != ')') return "";
  return text.substr(def + 3, text.size() - def - 4);
}

// "-o, --out" or "--isa".
std::string Names(const po::option_description& o) {
  const std::string format = o.format_name();  // "-o [ --out ]" or "--isa"
  const std::string long_name = "--" + o.long_name();
  if (format.size() >= 2 && format[0] == '-' && format[1] != '-')
    return format.substr(0, 2) + ", " + long_name;
  return long_name;
}

// The option of `spec` named by `word` ("--out", "--out=x", "-o"), or null.
const po::option_description* FindOption(const Spec& spec, const std::string& word) {
  std::string key;
  if (word.rfind("--", 0) == 0) {
    key = word.substr(2, word.find('=') == std::string::npos ? std::string::npos : word.find('=') - 2);
    for (const po::options_description* d : {&spec.visible, &spec.hidden}) {
      if (const po::option_description* o = d->find_nothrow(key, false)) return o;
    }
    return nullptr;
  }
  if (word.size() == 2 && word[0] == '-') {
    for (const po::options_description* d : {&spec.visible, &spec.hidden}) {
      for (const auto& o : d->options()) {
        if (o->canonical_display_name(po::command_line_style::allow_dash_for_short) == word)
          return o.get();
      }
    }
  }
  return nullptr;
}

// Whether `word` is an option that takes its value from the next word.
bool TakesNextWord(const Spec& spec, const std::string& word) {
  if (word.find('=') != std::string::npos) return false;
  const po::option_description* o = FindOption(spec, word);
  return o && o->semantic()->max_tokens() > 0;
}

const Command* FindCommand(const Program& program, const std::string& name) {
  for (const Command& c : program.commands) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

bool Named(const Program& program) {
  return !(program.commands.size() == 1 && program.commands[0].name.empty());
}

std::string CommandNames(const Program& program) {
  std::string names;
  for (const Command& c : program.commands) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

// The candidates for a value named `name` (see Spec).
std::vector<std::string> ValuesFor(const Program& program, const std::string& name) {
  if (IsFileValue(name) || name.find("FILE") != std::string::npos) return {"@files"};
  if (name == "DIR" || name == "MOUNTPOINT") return {"@dirs"};
  if (name == "COMMAND") return {"@command"};
  std::string bare = name;
  if (bare.size() > 3 && bare.compare(bare.size() - 3, 3, "...") == 0) bare.resize(bare.size() - 3);
  if (auto it = program.values.find(bare); it != program.values.end()) return it->second();
  std::vector<std::string> out;
  if (name.find('|') != std::string::npos) {
    size_t start = 0;
    for (size_t bar; (bar = name.find('|', start)) != std::string::npos; start = bar + 1)
      out.push_back(name.substr(start, bar - start));
    out.push_back(name.substr(start));
  }
  return out;
}

std::vector<std::string> Matching(std::vector<std::string> candidates, const std::string& prefix) {
  if (candidates.size() == 1 && candidates[0][0] == '@') return candidates;
  std::vector<std::string> out;
  for (std::string& c : candidates) {
    if (c.compare(0, prefix.size(), prefix) == 0) out.push_back(std::move(c));
  }
  return out;
}

// The value name of the positional at `index` of `spec`, or "".
std::string PositionalName(const Spec& spec, size_t index) {
  if (index >= spec.positional.max_total_count()) return "";
  const std::string& key = spec.positional.name_for_position(unsigned(index));
  for (const po::options_description* d : {&spec.hidden, &spec.visible}) {
    if (const po::option_description* o = d->find_nothrow(key, false)) return ValueName(*o);
  }
  return "";
}

std::vector<std::string> CompleteCommand(const Program& program, const Command& command,
                                         const std::vector<std::string>& words) {
  Spec spec;
  command.describe(&spec);
  const std::string& cur = words.back();
  size_t positionals = 0;
  bool options_over = false;
  const po::option_description* pending = nullptr;  // an option whose value is the next word
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string& w = words[i];
    if (pending) {
      pending = nullptr;
    } else if (options_over || w == "--" || w.empty() || w[0] != '-') {
      if (w == "--") {
        options_over = true;
        continue;
      }
      ++positionals;
      if (command.options_end_at_positional) return {"@files"};  // the command's own arguments
    } else if (TakesNextWord(spec, w)) {
      pending = FindOption(spec, w);
    }
  }
  if (pending) return Matching(ValuesFor(program, ValueName(*pending)), cur);
  if (!options_over && cur.rfind("--", 0) == 0 && cur.find('=') != std::string::npos) {
    // --name=VALUE: complete the value, keeping the prefix bash sees as part of the word
    const po::option_description* o = FindOption(spec, cur);
    if (!o) return {};
    const std::string head = cur.substr(0, cur.find('=') + 1);
    std::vector<std::string> values = ValuesFor(program, ValueName(*o));
    if (!values.empty() && values[0][0] == '@') return values;
    for (std::string& v : values) v = head + v;
    return Matching(values, cur);
  }
  if (!options_over && !cur.empty() && cur[0] == '-') {
    std::vector<std::string> names;
    for (const auto& o : spec.visible.options()) names.push_back("--" + o->long_name());
    names.push_back("--help");
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return Matching(names, cur);
  }
  return Matching(ValuesFor(program, PositionalName(spec, positionals)), cur);
}

}  // namespace

bool Parse(const std::string& prog, const std::string& cmd, const std::vector<std::string>& args,
           const Spec& spec, po::variables_map* vm) {
  po::options_description all;
  all.add(spec.visible).add(spec.hidden);
  try {
    po::store(po::command_line_parser(args).options(all).positional(spec.positional).run(), *vm);
    po::notify(*vm);
  } catch (const po::error& e) {
    std::cerr << prog << (cmd.empty() ? "" : " " + cmd) << ": " << e.what() << "\n";
    return false;
  }
  return true;
}

std::string OptionLines(const po::options_description& options) {
  std::vector<std::pair<std::string, std::string>> rows;
  size_t width = 0;
  bool has_help = false;
  for (const auto& o : options.options()) {
    has_help |= o->long_name() == "help";
    std::string left = Names(*o);
    if (const std::string value = ValueName(*o); !value.empty()) left += " " + value;
    std::string right = o->description();
    if (const std::string def = DefaultText(*o); !def.empty() && right.find("default") == std::string::npos)
      right += " (default " + def + ")";
    width = std::max(width, left.size());
    rows.emplace_back(std::move(left), std::move(right));
  }
  if (!has_help) rows.emplace_back("-h, --help", "print this help");
  width = std::min<size_t>(std::max<size_t>(width, 10), 34);
  std::string out;
  for (const auto& [left, right] : rows) {
    out += "  " + left;
    out += left.size() < width ? std::string(width - left.size(), ' ') : std::string();
    out += "  " + right + "\n";
  }
  return out;
}

std::string ProgramHelp(const Program& program) {
  std::string out;
  if (!Named(program)) {
    const Command& c = program.commands[0];
    Spec spec;
    c.describe(&spec);
    po::options_description shown(1000);
    shown.add(spec.visible).add_options()("version", "print the version and exit");
    out = "usage: " + program.name + " " + c.synopsis + "\n" + program.summary + "\n\noptions:\n" +
          OptionLines(shown);
  } else {
    out = "usage: " + program.name + " COMMAND [ARGS...]\n" + program.summary + "\n\ncommands:\n";
    size_t width = 0;
    for (const Command& c : program.commands) width = std::max(width, c.name.size());
    for (const Command& c : program.commands)
      out += "  " + c.name + std::string(width - c.name.size() + 2, ' ') + c.summary + "\n";
    out += "\nRun '" + program.name + " COMMAND --help' for a command's options; '" +
           program.name + " --version' prints the version.\n";
  }
  if (!program.epilog.empty()) out += "\n" + program.epilog;
  return out + "\n" + exit_codes::ExitStatusHelp(program.family);
}

std::string CommandHelp(const Program& program, const Command& command) {
  Spec spec;
  command.describe(&spec);
  const std::string name = program.name + (command.name.empty() ? "" : " " + command.name);
  return "usage: " + name + " " + command.synopsis + "\n" + command.summary + "\n\noptions:\n" +
         OptionLines(spec.visible) + "\n" + exit_codes::ExitStatusHelp(program.family);
}

bool WantsHelp(const Command& command, const std::vector<std::string>& args) {
  Spec spec;
  command.describe(&spec);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") return false;
    if (a == "--help" || a == "-h") return true;
    if (a.empty() || a[0] != '-') {
      if (command.options_end_at_positional) return false;
      continue;
    }
    if (TakesNextWord(spec, a)) ++i;
  }
  return false;
}

std::vector<std::string> Complete(const Program& program, const std::vector<std::string>& words) {
  if (words.empty()) return {};
  if (!Named(program)) return CompleteCommand(program, program.commands[0], words);
  // The command is the first word; before it only --help and --version.
  if (words.size() == 1) {
    if (!words[0].empty() && words[0][0] == '-') return Matching({"--help", "--version"}, words[0]);
    std::vector<std::string> names;
    for (const Command& c : program.commands) names.push_back(c.name);
    names.push_back("help");
    return Matching(names, words[0]);
  }
  if (words[0] == "help") {
    if (words.size() > 2) return {};
    std::vector<std::string> names;
    for (const Command& c : program.commands) names.push_back(c.name);
    return Matching(names, words[1]);
  }
  const Command* command = FindCommand(program, words[0]);
  if (!command) return {};
  return CompleteCommand(program, *command, std::vector<std::string>(words.begin() + 1, words.end()));
}

int RunProgram(const Program& program, int argc, char** argv) {
  const std::vector<std::string> words(argv + 1, argv + argc);
  if (!words.empty() && words[0] == kCompleteFlag) {
    for (const std::string& c : Complete(program, std::vector<std::string>(words.begin() + 1, words.end())))
      std::printf("%s\n", c.c_str());
    return 0;
  }
  if (!Named(program)) {
    const Command& c = program.commands[0];
    if (WantsHelp(c, words)) {
      std::fputs(ProgramHelp(program).c_str(), stdout);
      return 0;
    }
    return c.run(words);
  }
  if (words.empty()) {
    std::cerr << program.name << ": no command (" << CommandNames(program) << "); see "
              << program.name << " --help\n";
    return kExitUsage;
  }
  const std::string& cmd = words[0];
  const std::vector<std::string> args(words.begin() + 1, words.end());
  if (cmd == "-h" || cmd == "--help" || (cmd == "help" && args.empty())) {
    std::fputs(ProgramHelp(program).c_str(), stdout);
    return 0;
  }
  if (cmd == "help") {
    const Command* c = FindCommand(program, args[0]);
    if (!c || args.size() > 1) {
      std::cerr << program.name << " help: " << (c ? "one COMMAND at a time" : "unknown command '" + args[0] + "'")
                << " (" << CommandNames(program) << ")\n";
      return kExitUsage;
    }
    std::fputs(CommandHelp(program, *c).c_str(), stdout);
    return 0;
  }
  const Command* c = FindCommand(program, cmd);
  if (!c) {
    std::cerr << program.name << ": unknown command '" << cmd << "' (" << CommandNames(program)
              << ")\n";
    return kExitUsage;
  }
  if (WantsHelp(*c, args)) {
    std::fputs(CommandHelp(program, *c).c_str(), stdout);
    return 0;
  }
  return c->run(args);
}

}  // namespace otpu::cli
