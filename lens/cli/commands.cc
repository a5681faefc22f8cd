#include "lens/cli/commands.h"

#include <algorithm>
#include <sys/stat.h>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "lens/app/page.h"
#include "lens/app/app_server.h"
#include "lens/chrome_trace.h"
#include "lens/diff.h"
#include "lens/file_io.h"
#include "lens/app/html_export.h"
#include "lens/info.h"
#include "lens/otpuprof.h"
#include "lens/summary.h"
#include "workloads/list.h"

namespace otpu::lens::cli {
namespace {

namespace po = boost::program_options;

// The one FILE positional of `cmd`: its path, or "" (and the usage error printed) when there is
// none (and `required`) or more than one.
bool OneFile(const std::string& prog, const std::string& cmd, const po::variables_map& vm,
             bool required, std::string* path) {
  if (!vm.count("file")) {
    if (required) Fail(kExitUsage, prog + " " + cmd + ": name a profile FILE");
    return !required;
  }
  const std::vector<std::string>& files = vm["file"].as<std::vector<std::string>>();
  if (files.size() > 1) {
    Fail(kExitUsage, prog + " " + cmd + ": one FILE at a time (also got '" + files[1] + "')");
    return false;
  }
  *path = files[0];
  return true;
}

// Reads a profile file for `cmd`; on failure prints the error and sets *code.
std::optional<ProfileFile> ReadFor(const std::string& prog, const std::string& cmd,
                                   const std::string& path, int* code) {
  StatusOr<ProfileFile> file = Read(path);
  if (!file.ok()) {
    *code = Fail(file.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure,
                 prog + " " + cmd + ": " + file.status().message());
    return std::nullopt;
  }
  return std::move(file).value();
}

}  // namespace

std::string OutputProblem(const std::string& out, const std::string& in) {
  struct stat o {}, i {};
  if (::stat(out.c_str(), &o) != 0) return "";
  if (S_ISDIR(o.st_mode)) return "-o " + out + ": is a directory, not a file to write";
  if (!in.empty() && ::stat(in.c_str(), &i) == 0 && o.st_dev == i.st_dev && o.st_ino == i.st_ino) {
    return "-o " + out + ": is the input file; writing it would destroy " + in;
  }
  return "";
}

int Fail(int code, const std::string& line) {
  std::cerr << line << "\n";
  return code;
}

namespace {

int List(const std::string& prog, const std::vector<std::string>& args) {
  if (!args.empty()) return Fail(kExitUsage, prog + " list: unexpected argument '" + args[0] + "'");
  const std::vector<workloads::WorkloadInfo> list = workloads::ListWorkloads();
  int width = 0;  // the longest name: the descriptions start in one column
  for (const workloads::WorkloadInfo& w : list) width = std::max(width, int(w.name.size()));
  for (const workloads::WorkloadInfo& w : list) {
    std::printf("%-*s  %s\n", width, w.name.c_str(), w.description.c_str());
  }
  return kExitOk;
}

void DescribeInfo(otpu::cli::Spec* spec) {
  spec->visible.add_options()("json", po::bool_switch(),
                              "print one JSON object (docs/cli.md \"lens info --json\")");
  spec->hidden.add_options()("file", po::value<std::vector<std::string>>()->value_name("FILE"),
                             "profile file");
  spec->positional.add("file", -1);
}

int Info(const std::string& prog, const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeInfo(&spec);
  po::variables_map vm;
  std::string path;
  if (!Parse(prog, "info", args, spec, &vm) || !OneFile(prog, "info", vm, true, &path))
    return kExitUsage;
  int code = kExitOk;
  std::optional<ProfileFile> file = ReadFor(prog, "info", path, &code);
  if (!file) return code;
  std::fputs((vm["json"].as<bool>() ? InfoJson(*file, path) : InfoText(*file, path)).c_str(),
             stdout);
  return kExitOk;
}

void DescribeSummary(otpu::cli::Spec* spec) {
  spec->visible.add_options()("json", po::bool_switch(), "print JSON instead of text");
  spec->hidden.add_options()("file", po::value<std::vector<std::string>>()->value_name("FILE"),
                             "profile file");
  spec->positional.add("file", -1);
}

int Summary(const std::string& prog, const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeSummary(&spec);
  po::variables_map vm;
  std::string path;
  if (!Parse(prog, "summary", args, spec, &vm) || !OneFile(prog, "summary", vm, true, &path))
    return kExitUsage;
  int code = kExitOk;
  std::optional<ProfileFile> file = ReadFor(prog, "summary", path, &code);
  if (!file) return code;
  std::fputs((vm["json"].as<bool>() ? SummaryJson(*file, path) : SummaryText(*file, path)).c_str(),
             stdout);
  return kExitOk;
}

void DescribeDiff(otpu::cli::Spec* spec) {
  spec->visible.add_options()("json", po::bool_switch(), "print JSON instead of text")(
      "top", po::value<int>()->value_name("N")->default_value(10),
      "instructions listed per profile (text)");
  spec->hidden.add_options()("file", po::value<std::vector<std::string>>()->value_name("FILE"),
                             "BASE and NEW profile files");
  spec->positional.add("file", -1);
}

int Diff(const std::string& prog, const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeDiff(&spec);
  po::variables_map vm;
  if (!Parse(prog, "diff", args, spec, &vm)) return kExitUsage;
  const std::vector<std::string> files =
      vm.count("file") ? vm["file"].as<std::vector<std::string>>() : std::vector<std::string>{};
  if (files.size() != 2) {
    return Fail(kExitUsage, prog + " diff: name two profile files, BASE and NEW (got " +
                                std::to_string(files.size()) + ")");
  }
  if (vm["top"].as<int>() < 0) return Fail(kExitUsage, prog + " diff: --top must be >= 0");
  int code = kExitOk;
  std::optional<ProfileFile> base = ReadFor(prog, "diff", files[0], &code);
  if (!base) return code;
  std::optional<ProfileFile> now = ReadFor(prog, "diff", files[1], &code);
  if (!now) return code;
  const ProfileDiff diff = DiffProfiles(base->profiles, now->profiles);
  std::fputs((vm["json"].as<bool>() ? DiffJson(diff) : DiffText(diff, size_t(vm["top"].as<int>())))
                 .c_str(),
             stdout);
  return diff.equal() ? kExitOk : kExitFailure;
}

void DescribeHtml(otpu::cli::Spec* spec) {
  spec->visible.add_options()("out,o", po::value<std::string>()->value_name("OUT"),
                              "page to write (required)")(
      "baseline", po::value<std::string>()->value_name("BASE"),
      "a second profile file to compare against");
  spec->hidden.add_options()("file", po::value<std::vector<std::string>>()->value_name("FILE"),
                             "profile file");
  spec->positional.add("file", -1);
}

int Html(const std::string& prog, const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeHtml(&spec);
  po::variables_map vm;
  std::string path;
  if (!Parse(prog, "html", args, spec, &vm) || !OneFile(prog, "html", vm, true, &path))
    return kExitUsage;
  if (!vm.count("out")) return Fail(kExitUsage, prog + " html: missing -o OUT (the page to write)");
  const std::string out = vm["out"].as<std::string>();
  if (std::string why = OutputProblem(out, path); !why.empty()) {
    return Fail(kExitUsage, prog + " html: " + why);
  }
  StatusOr<HtmlExportInfo> info =
      ExportHtml(path, out, vm.count("baseline") ? vm["baseline"].as<std::string>() : "");
  if (!info.ok()) {
    return Fail(info.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure,
                prog + " html: " + info.status().message());
  }
  std::printf("wrote %s (%.1f MB, %d profile%s); open it in a browser: file://%s\n", out.c_str(),
              double(info->page_bytes) / 1e6, info->profiles, info->profiles == 1 ? "" : "s",
              std::filesystem::absolute(out).c_str());
  return kExitOk;
}

}  // namespace

void AddOpenOptions(otpu::cli::Spec* spec) {
  spec->visible.add_options()("port", po::value<int>()->value_name("N")->default_value(0),
                              "port on 127.0.0.1 (0: any free one)")(
      "no-browser", po::bool_switch(), "do not open a browser");
}

std::string PortProblem(const po::variables_map& vm) {
  const int port = vm.count("port") ? vm["port"].as<int>() : 0;
  if (port >= 0 && port <= 65535) return "";
  return "--port " + std::to_string(port) + ": expected 0 (any free port) to 65535";
}

namespace {

void DescribeOpen(otpu::cli::Spec* spec) {
  AddOpenOptions(spec);
  spec->visible.add_options()("baseline", po::value<std::string>()->value_name("BASE"),
                              "a second profile file to compare against");
  spec->hidden.add_options()("file", po::value<std::vector<std::string>>()->value_name("FILE"),
                             "profile file");
  spec->positional.add("file", -1);
}

int Open(const std::string& prog, const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeOpen(&spec);
  po::variables_map vm;
  std::string path;
  if (!Parse(prog, "open", args, spec, &vm) || !OneFile(prog, "open", vm, false, &path))
    return kExitUsage;
  if (std::string why = PortProblem(vm); !why.empty()) return Fail(kExitUsage, prog + " open: " + why);
  return OpenFile(prog, path, vm);
}

}  // namespace

int OpenFile(const std::string& prog, const std::string& path, const po::variables_map& vm) {
  const int port = vm.count("port") ? vm["port"].as<int>() : 0;
  // The file is opened once: what is checked here is what the server reads (app_server.h).
  std::optional<ProfileFile> file;
  UniqueFd fd;
  if (!path.empty()) {
    StatusOr<UniqueFd> opened = OpenRegularFile(path);
    StatusOr<std::string> bytes =
        opened.ok() ? ReadWholeFd(opened->get(), path) : StatusOr<std::string>(opened.status());
    StatusOr<ProfileFile> read =
        bytes.ok() ? ReadBytes(*bytes, path) : StatusOr<ProfileFile>(bytes.status());
    if (!read.ok()) {  // a bad file fails here, not in the page
      return Fail(read.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure,
                  prog + " open: " + read.status().message());
    }
    file = std::move(read).value();
    fd = std::move(opened).value();
  }
  std::string page(AppPage());
  if (file) {
    // The kernel sources' text for the Source view, read once here like the baseline.
    StatusOr<std::string> with_code = EmbedCode(page, SourceFilesJson(*file));
    if (with_code.ok()) page = std::move(with_code).value();
  }
  if (vm.count("baseline")) {
    // The baseline is embedded in the page (read once, here); the profile is served at /profile.
    const std::string base = vm["baseline"].as<std::string>();
    StatusOr<std::string> bytes = ReadCheckedGzip(base, nullptr);
    if (bytes.ok()) bytes = EmbedBaseline(page, *bytes, std::filesystem::path(base).filename().string());
    if (!bytes.ok()) {
      return Fail(bytes.status().code() == StatusCode::kDataLoss ? kExitBadFile : kExitFailure,
                  prog + " open: --baseline " + bytes.status().message());
    }
    page = std::move(bytes).value();
  }
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(
      std::move(page), path.empty() ? "" : std::filesystem::absolute(path).string(), port,
      std::move(fd));
  if (!server.ok()) return Fail(kExitFailure, prog + " open: " + server.status().message());
  std::printf("Lens is serving %s at %s (Ctrl-C to stop)\n",
              path.empty() ? "no profile" : path.c_str(), (*server)->Url().c_str());
  if (!(vm.count("no-browser") && vm["no-browser"].as<bool>())) {
    StatusOr<std::string> browser = OpenBrowser((*server)->Url());
    if (!browser.ok()) std::printf("%s\n", browser.status().message().c_str());
  }
  std::fflush(stdout);
  (*server)->Wait();
  return kExitOk;
}

namespace {

void DescribeExport(otpu::cli::Spec* spec) {
  spec->visible.add_options()("chrome-trace", po::bool_switch(),
                              "Chrome trace events (Perfetto) (required)")(
      "out,o", po::value<std::string>()->value_name("OUT"),
      "file to write (required): gzip when it ends in .gz, plain JSON otherwise");
  spec->hidden.add_options()("file", po::value<std::vector<std::string>>()->value_name("FILE"),
                             "profile file");
  spec->positional.add("file", -1);
}

int Export(const std::string& prog, const std::vector<std::string>& args) {
  otpu::cli::Spec spec;
  DescribeExport(&spec);
  po::variables_map vm;
  std::string path;
  if (!Parse(prog, "export", args, spec, &vm) || !OneFile(prog, "export", vm, true, &path))
    return kExitUsage;
  if (!vm["chrome-trace"].as<bool>())
    return Fail(kExitUsage, prog + " export: name a format: --chrome-trace");
  if (!vm.count("out"))
    return Fail(kExitUsage, prog + " export: missing -o OUT (the trace to write)");
  if (std::string why = OutputProblem(vm["out"].as<std::string>(), path); !why.empty()) {
    return Fail(kExitUsage, prog + " export: " + why);
  }
  int code = kExitOk;
  std::optional<ProfileFile> file = ReadFor(prog, "export", path, &code);
  if (!file) return code;
  const std::string out = vm["out"].as<std::string>();
  Status s = WriteChromeTrace(*file, out);
  if (!s.ok()) return Fail(kExitFailure, prog + " export: " + s.message());
  std::printf("wrote %s (Chrome trace events; open it in https://ui.perfetto.dev)\n", out.c_str());
  return kExitOk;
}

using Run = int (*)(const std::string&, const std::vector<std::string>&);

otpu::cli::Command MakeCommand(const std::string& prog, const char* name, const char* synopsis,
                               const char* summary, void (*describe)(otpu::cli::Spec*), Run run) {
  otpu::cli::Command c;
  c.name = name;
  c.synopsis = synopsis;
  c.summary = summary;
  c.describe = describe;
  c.run = [prog, run](const std::vector<std::string>& args) { return run(prog, args); };
  return c;
}

void DescribeNothing(otpu::cli::Spec*) {}

}  // namespace

otpu::cli::Command ListCommand(const std::string& prog) {
  return MakeCommand(prog, "list", "", "print the workloads record knows, one per line",
                     DescribeNothing, List);
}
otpu::cli::Command InfoCommand(const std::string& prog) {
  return MakeCommand(prog, "info", "FILE [--json]",
                     "summarise a profile file: per profile its cycles, roofline, counters, notes",
                     DescribeInfo, Info);
}
otpu::cli::Command SummaryCommand(const std::string& prog) {
  return MakeCommand(prog, "summary", "FILE [--json]",
                     "the overview as text, and where port B's cycles went", DescribeSummary,
                     Summary);
}
otpu::cli::Command DiffCommand(const std::string& prog) {
  return MakeCommand(prog, "diff", "BASE NEW [--json] [--top N]",
                     "what changed between two profile files, instruction by instruction",
                     DescribeDiff, Diff);
}
otpu::cli::Command OpenCommand(const std::string& prog) {
  return MakeCommand(prog, "open", "[FILE] [--port N] [--no-browser] [--baseline BASE]",
                     "serve the Lens app on 127.0.0.1 and open it in a browser", DescribeOpen, Open);
}
otpu::cli::Command HtmlCommand(const std::string& prog) {
  return MakeCommand(prog, "html", "FILE -o OUT [--baseline BASE]",
                     "write one standalone page with the profile inside", DescribeHtml, Html);
}
otpu::cli::Command ExportCommand(const std::string& prog) {
  return MakeCommand(prog, "export", "FILE --chrome-trace -o OUT",
                     "write the timelines as Chrome trace events for Perfetto", DescribeExport,
                     Export);
}

void AddCompletionValues(otpu::cli::Program* program) {
  program->values["WORKLOAD"] = [] {
    std::vector<std::string> names;
    for (const workloads::WorkloadInfo& w : workloads::ListWorkloads()) names.push_back(w.name);
    return names;
  };
}

}  // namespace otpu::lens::cli
