// lens_page_bench: measures the Lens app on a synthetic profile (scripts/bench.sh). Writes a
// profile of N instructions, times `lens html` on it (ExportHtml), loads the page in headless
// chromium and reports the page's load-to-ready time and, with --selftest, its self-test.
// Prints one JSON object. Measures, never asserts (exit 1 only when it cannot measure).
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "lens/app/chromium.h"
#include "lens/file_io.h"
#include "lens/app/html_export.h"
#include "lens/otpuprof.h"
#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

namespace po = boost::program_options;
using Clock = std::chrono::steady_clock;

double Since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Rewrites `base`.html as the page template at `page_path` with `profile` embedded.
Status ReplacePage(const std::string& page_path, const std::string& profile, const std::string& base) {
  ASSIGN_OR_RETURN(std::string page, ReadWholeFile(page_path));
  ASSIGN_OR_RETURN(std::string gz, ReadCheckedGzip(profile, nullptr));
  ASSIGN_OR_RETURN(std::string html, EmbedProfile(page, gz, "lens_page_bench.otpuprof"));
  return WriteFileAtomically(base + ".html", html);
}

int Main(int argc, char** argv) {
  po::options_description opts("lens_page_bench options");
  opts.add_options()("help,h", "print this help")
      ("instrs", po::value<int64_t>()->default_value(1000000), "instructions")
      ("dir", po::value<std::string>()->default_value(std::filesystem::temp_directory_path().string()), "where the files go")
      ("selftest", po::bool_switch(), "also run the page's #selftest and report it")
      ("keep", po::bool_switch(), "keep the profile and page")
      ("page", po::value<std::string>(), "load the profile into this page (e.g. an older build's lens_page.html) instead of the built-in one")
      ("profile", po::value<std::string>(), "export and load this profile file instead of a synthetic one (--instrs is then ignored)");
  po::variables_map vm;
  try {
    po::store(po::parse_command_line(argc, argv, opts), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::cerr << "lens_page_bench: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    std::cout << "usage: lens_page_bench [options]\n"
                 "Writes a synthetic profile, exports it with lens html and loads the page in headless\n"
                 "chromium; prints one JSON object (load-to-ready and html write times).\n\n"
              << opts;
    return 0;
  }
  int64_t n = vm["instrs"].as<int64_t>();
  const std::string base = (std::filesystem::path(vm["dir"].as<std::string>()) /
                            ("lens_page_bench." + std::to_string(::getpid()))).string();
  const bool given = vm.count("profile") > 0;
  const std::string profile = given ? vm["profile"].as<std::string>() : base + ".otpuprof";
  if (given) {
    StatusOr<ProfileFile> f = Read(profile);
    if (!f.ok()) {
      std::cerr << "lens_page_bench: " << f.status().message() << "\n";
      return 1;
    }
    n = 0;
    for (const Profile& p : f->profiles) n += int64_t(p.instrs.size());
  } else {
    Status w = Write(profile, SyntheticFile({ProfileKind::kRtl}, n));
    if (!w.ok()) {
      std::cerr << "lens_page_bench: " << w.message() << "\n";
      return 1;
    }
  }
  Clock::time_point t0 = Clock::now();
  StatusOr<HtmlExportInfo> info = ExportHtml(profile, base + ".html");
  double html_s = Since(t0);
  if (!info.ok()) {
    std::cerr << "lens_page_bench: " << info.status().message() << "\n";
    return 1;
  }
  if (vm.count("page")) {
    Status s = ReplacePage(vm["page"].as<std::string>(), profile, base);
    if (!s.ok()) {
      std::cerr << "lens_page_bench: " << s.message() << "\n";
      return 1;
    }
  }
  StatusOr<std::unique_ptr<HeadlessChromium>> c = HeadlessChromium::Start();
  if (!c.ok()) {
    std::cerr << "lens_page_bench: " << c.status().message() << "\n";
    return 1;
  }
  const bool selftest = vm["selftest"].as<bool>();
  t0 = Clock::now();
  Status nav = (*c)->Navigate("file://" + base + ".html" + (selftest ? "#selftest" : ""), 300);
  StatusOr<std::string> ready = (*c)->WaitForString("document.body.dataset.ready || ''", 300);
  double wall_s = Since(t0);
  StatusOr<std::string> timing = (*c)->Evaluate("JSON.stringify(lens.app.timing)");
  // Page ready against inflating and parsing the profile in the page (issue 23: at most 2).
  StatusOr<std::string> ratio = (*c)->Evaluate(
      "(function(t){var ip=(t.inflate_ms||0)+(t.parse_ms||0);"
      "return ip>0&&t.ready_ms?String(t.ready_ms/ip):'null';})(lens.app.timing)");
  std::string verdict = "\"skipped\"", result = "null";
  if (selftest) {
    StatusOr<std::string> v = (*c)->WaitForString("document.body.dataset.selftest || ''", 600);
    verdict = v.ok() ? "\"" + *v + "\"" : "\"timeout\"";
    StatusOr<std::string> r = (*c)->Evaluate("document.getElementById('selftest-result').textContent");
    if (r.ok()) result = *r;
  }
  // The same bytes inflated and parsed bare in the page (DecompressionStream, TextDecoder and
  // JSON.parse), after everything else: the least any reader in the page could take.
  StatusOr<std::string> bare = (*c)->Evaluate(
      "(async function(){var b=Uint8Array.fromBase64(document.getElementById('lens-data').textContent.trim());"
      "var t0=performance.now();var raw=new Uint8Array(await new Response(new Blob([b]).stream()"
      ".pipeThrough(new DecompressionStream('gzip'))).arrayBuffer());var t1=performance.now();"
      "JSON.parse(new TextDecoder().decode(raw));var t2=performance.now();"
      "var t=lens.app.timing;return {inflate_ms:Math.round(t1-t0),json_parse_ms:Math.round(t2-t1),"
      "ready_over:t.ready_ms?t.ready_ms/(t2-t0):null};})()", 300);
  if (!bare.ok()) std::cerr << "lens_page_bench: " << bare.status().message() << "\n";
  std::printf(
      "{\"instrs\": %lld, \"profile_bytes\": %lld, \"page_bytes\": %lld, \"html_write_s\": %.3f,"
      " \"page_ready\": %s, \"load_to_ready_wall_s\": %.3f, \"page_timing\": %s,"
      " \"ready_over_inflate_parse\": %s, \"bare_inflate_parse\": %s,"
      " \"selftest\": %s, \"selftest_result\": %s, \"page_errors\": %zu}\n",
      (long long)n, (long long)info->profile_bytes, (long long)info->page_bytes, html_s,
      ready.ok() ? ("\"" + *ready + "\"").c_str() : "\"timeout\"", wall_s,
      timing.ok() ? timing->c_str() : "null", ratio.ok() ? ratio->c_str() : "null",
      bare.ok() ? bare->c_str() : "null",
      verdict.c_str(), result.c_str(), (*c)->errors().size());
  for (const std::string& e : (*c)->errors()) std::cerr << "page error: " << e << "\n";
  if (!vm["keep"].as<bool>()) {
    if (!given) std::filesystem::remove(profile);
    std::filesystem::remove(base + ".html");
  }
  return nav.ok() && ready.ok() ? 0 : 1;
}

}  // namespace
}  // namespace otpu::lens

int main(int argc, char** argv) { return otpu::lens::Main(argc, argv); }
