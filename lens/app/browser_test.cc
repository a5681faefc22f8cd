// The Lens app in headless Debian chromium: the page's #selftest on real and large profiles, the
// messages for bad files, the page served by AppServer, and screenshots of every view written to
// the build directory (lens/app/screenshots/) for people to look at.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "lens/app/chromium.h"
#include "lens/app/page.h"
#include "lens/app/app_server.h"
#include "lens/attribution.h"
#include "lens/chrome_trace.h"
#include "lens/diff.h"
#include "lens/gzip.h"
#include "lens/app/html_export.h"
#include "lens/otpuprof.h"
#include "lens/profile_json.h"
#include "lens/recorder.h"
#include "lens/summary.h"
#include "lens/synthetic.h"
#include "rapidjson/document.h"
#include "workloads/list.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

// Views in tab order, as the page names them in `#view=`.
const char* const kViews[] = {"overview", "cycles", "timeline", "floorplan", "instructions", "source", "program"};
// Instructions of the large synthetic profile: big enough to exercise the indexes, small enough
// to keep this test in seconds (scripts/bench.sh loads a million).
constexpr int64_t kLargeInstrs = 100000;

class BrowserTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string tmpl = (fs::temp_directory_path() / "lens_browser_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = new fs::path(tmpl);
    fs::create_directories(LENS_SCREENSHOT_DIR);
    StatusOr<std::unique_ptr<HeadlessChromium>> c = HeadlessChromium::Start();
    ASSERT_TRUE(c.ok()) << c.status().message();
    chromium_ = std::move(c).value().release();
  }
  static void TearDownTestSuite() {
    delete chromium_;
    chromium_ = nullptr;
    if (dir_) fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(chromium_, nullptr);
    chromium_->ClearErrors();
  }

  static std::string PathOf(const std::string& name) { return (*dir_ / name).string(); }

  // Writes `gz` (any bytes) embedded in the app page; returns the page's file URL.
  static std::string PageWith(const std::string& gz, const std::string& name) {
    StatusOr<std::string> page = EmbedProfile(AppPage(), gz, name);
    EXPECT_TRUE(page.ok()) << page.status().message();
    std::ofstream(PathOf(name + ".html"), std::ios::binary) << *page;
    return "file://" + PathOf(name + ".html");
  }
  // Writes `file` as a profile and exports it as a page with ExportHtml; returns the page's URL.
  static std::string PageOf(const ProfileFile& file, const std::string& name) {
    EXPECT_TRUE(Write(PathOf(name + ".otpuprof"), file).ok());
    StatusOr<HtmlExportInfo> info = ExportHtml(PathOf(name + ".otpuprof"), PathOf(name + ".html"));
    EXPECT_TRUE(info.ok()) << info.status().message();
    return "file://" + PathOf(name + ".html");
  }

  // Loads `url` with #selftest and expects the page to report no failure and no error.
  // `min_checks`: a counters-only profile has fewer views to check.
  static void ExpectSelftestPasses(const std::string& url, double timeout_s = 60, int min_checks = 50) {
    ASSERT_TRUE(chromium_->Navigate(url + "#selftest").ok());
    StatusOr<std::string> verdict = chromium_->WaitForString("document.body.dataset.selftest || ''", timeout_s);
    ASSERT_TRUE(verdict.ok()) << verdict.status().message() << "\npage errors: " << Errors();
    StatusOr<std::string> text = chromium_->Evaluate("document.getElementById('selftest-result').textContent");
    ASSERT_TRUE(text.ok());
    rapidjson::Document outer, result;
    outer.Parse(text->c_str());
    ASSERT_TRUE(outer.IsString());
    result.Parse(outer.GetString());
    ASSERT_TRUE(result.IsObject()) << outer.GetString();
    std::string failures;
    for (const auto& f : result["failures"].GetArray()) failures += std::string("\n  ") + f.GetString();
    for (const auto& e : result["errors"].GetArray()) failures += std::string("\n  error: ") + e.GetString();
    EXPECT_EQ(*verdict, "ok") << failures;
    EXPECT_GT(result["checks"].GetInt(), min_checks);
    EXPECT_TRUE(chromium_->errors().empty()) << Errors();
  }

  // The value of `js` in the page as JSON text, or the error.
  static std::string Eval(const std::string& js) {
    StatusOr<std::string> r = chromium_->Evaluate(js);
    return r.ok() ? *r : "error: " + r.status().message();
  }

  static std::string Errors() {
    std::string s;
    for (const std::string& e : chromium_->errors()) s += "\n  " + e;
    return s;
  }

  // Shows each view of the loaded page and writes `<prefix>-<view>.png`.
  static void Screenshots(const std::string& prefix) {
    for (const char* view : kViews) {
      std::string setup = std::string("document.getElementById('selftest-result').hidden = true;") +
                          "lens.setHash({view: '" + view + "', pin: null, filter: null, range: null, t: null}, true);";
      if (std::string(view) == "floorplan") {
        // A moment with the MXU at work, and the MXU's hover card open.
        setup +=
            "{ const m = lens.app.m, mm = m.names.indexOf('MM'); let t = Math.floor(m.cycles / 2);"
            "  for (let i = 0; i < m.n; ++i) if (m.nameId[i] === mm) { t = m.s[i] + 7; break; }"
            "  lens.setHash({t}); const el = document.querySelector('[data-el=mxu]'), r = el && el.getBoundingClientRect();"
            "  if (el && r.width) el.dispatchEvent(new MouseEvent('mouseover', {bubbles: true, clientX: r.right - 40, clientY: r.top + 30})); }";
      } else if (std::string(view) == "timeline") {
        setup += "{ const m = lens.app.m, i = m.byStart[Math.floor(m.n / 3)] || 0; if (m.n) lens.setHash({pin: m.idx[i], t: m.s[i]}); }";
      }
      StatusOr<std::string> r = chromium_->Evaluate(
          setup + " new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 60)))");
      ASSERT_TRUE(r.ok()) << view << ": " << r.status().message();
      std::string png = std::string(LENS_SCREENSHOT_DIR) + "/" + prefix + "-" + view + ".png";
      ASSERT_TRUE(chromium_->Screenshot(png).ok()) << png;
      EXPECT_GT(fs::file_size(png), 5000u) << png;
    }
    EXPECT_TRUE(chromium_->errors().empty()) << Errors();
  }

  // The page's message after it tried to load `url`.
  static std::string MessageOf(const std::string& url) {
    EXPECT_TRUE(chromium_->Navigate(url).ok());
    StatusOr<std::string> ready = chromium_->WaitForString("document.body.dataset.ready || ''", 30);
    EXPECT_TRUE(ready.ok()) << ready.status().message();
    StatusOr<std::string> msg = chromium_->Evaluate("document.getElementById('message').textContent");
    EXPECT_TRUE(msg.ok());
    return msg.ok() ? *msg : "";
  }

  // Expects the page's analysis of profile `pi` (lens/app/js/windows.js) to equal Analyze().
  static void ExpectPageAgreesWithAnalyze(const Profile& p, int pi) {
    StatusOr<std::string> js = chromium_->Evaluate("JSON.stringify(lens.summary(" + std::to_string(pi) + "))");
    ASSERT_TRUE(js.ok()) << js.status().message();
    rapidjson::Document outer, d;
    outer.Parse(js->c_str());
    d.Parse(outer.GetString());
    ASSERT_TRUE(d.IsObject());
    const Analysis a = Analyze(p);
    for (int c = 0; c < kNumCauses; ++c) {
      const char* key = Causes()[size_t(c)].key;
      EXPECT_NEAR(d["attribution"][key].GetDouble(), a.causes[size_t(c)], 1e-6) << key;
    }
    ASSERT_EQ(d["classes"].GetArray().Size(), a.classes.size());
    for (size_t k = 0; k < a.classes.size(); ++k) {
      const rapidjson::Value& c = d["classes"][rapidjson::SizeType(k)];
      const ClassStats& e = a.classes[k];
      EXPECT_EQ(c["name"].GetString(), e.name);
      EXPECT_EQ(c["count"].GetInt64(), e.count) << e.name;
      for (auto [key, want] : {std::pair{"busy", e.busy}, {"work", e.work}, {"wait_dep", e.wait_dep},
                               {"wait_unit", e.wait_unit}, {"port_b", e.port_b}, {"port_a", e.port_a}}) {
        EXPECT_NEAR(c[key].GetDouble(), want, 1e-6) << e.name << " " << key;
      }
    }
    for (size_t u = 0; u < a.unit_busy.size(); ++u) {
      EXPECT_NEAR(d["unit_busy"][rapidjson::SizeType(u)].GetDouble(), a.unit_busy[u], 1e-6) << p.units[u];
    }
  }

  static ProfileFile MlpSmall() {
    StatusOr<workloads::WorkloadRun> run = workloads::MakeWorkload("mlp-small", isa::Config::Sim());
    EXPECT_TRUE(run.ok()) << run.status().message();
    IsaStepRunner runner;
    StatusOr<Recording> rec = Record(*run, runner);
    EXPECT_TRUE(rec.ok()) << rec.status().message();
    ProfileFile f;
    f.created = NowIso8601();
    f.profiles = rec->profiles;
    return f;
  }

  static std::string GzipOf(const std::string& json) { return GzipCompress(json, 6).value(); }

  static HeadlessChromium* chromium_;
  static fs::path* dir_;
};

HeadlessChromium* BrowserTest::chromium_ = nullptr;
fs::path* BrowserTest::dir_ = nullptr;

TEST_F(BrowserTest, SelftestPassesOnMlpSmall) {
  ProfileFile f = MlpSmall();
  ExpectSelftestPasses(PageOf(f, "mlp-small"));
  ExpectPageAgreesWithAnalyze(f.profiles[0], 0);
  // lens html found the kernel's source file: the Source view shows its lines around each
  // line that emitted instructions, with the heat column.
  EXPECT_EQ(Eval("(lens.setHash({view: 'source'}), [document.querySelectorAll('#source-listing tr.ctx').length > 0,"
                 " document.querySelectorAll('#source-listing tr[data-src] .heat').length === lens.app.m.sources.length].join())"),
            "\"true,true\"");
  Screenshots("mlp-small");
}

TEST_F(BrowserTest, SelftestPassesOnALargeSyntheticProfile) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, kLargeInstrs);
  ExpectSelftestPasses(PageOf(f, "large"), 120);
  // Loaded off the page's thread: the worker starts from a file:// page.
  EXPECT_EQ(Eval("lens.app.timing.loaded_in"), "\"worker\"");
  ExpectPageAgreesWithAnalyze(f.profiles[0], 0);
  Screenshots("large");
}

TEST_F(BrowserTest, SelftestPassesWhenLoadedOnThePagesThread) {
  // What a browser that refuses the worker gets: the same steps without it.
  // Plain JSON: no inflating, so nothing in the loader waits before its first message.
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 3000);
  StatusOr<std::string> json = ProfileFileToJson(f);
  ASSERT_TRUE(json.ok());
  ASSERT_TRUE(chromium_->Navigate(PageWith(*json, "inpage.json") + "#loader=page&selftest").ok());
  StatusOr<std::string> verdict = chromium_->WaitForString("document.body.dataset.selftest || ''", 60);
  ASSERT_TRUE(verdict.ok()) << verdict.status().message();
  EXPECT_EQ(*verdict, "ok") << Eval("document.getElementById('selftest-result').textContent");
  EXPECT_EQ(Eval("lens.app.timing.loaded_in"), "\"page\"");
  ExpectPageAgreesWithAnalyze(f.profiles[0], 0);
}

TEST_F(BrowserTest, PageWithoutBucketsAgreesWithAnalyze) {
  // Another writer's file with no counter windows: both sides rebuild them from the instructions.
  ProfileFile f = SyntheticFile({ProfileKind::kIsa}, 2000);
  f.profiles[0].slices.clear();
  ExpectSelftestPasses(PageOf(f, "nobuckets"));
  ExpectPageAgreesWithAnalyze(f.profiles[0], 0);
}

TEST_F(BrowserTest, SelftestPassesOnHwAndBoardProfilesInOneFile) {
  // isa and rtl kinds are the tests above; these two carry card counters and trace losses.
  std::string url = PageOf(SyntheticFile({ProfileKind::kHw, ProfileKind::kBoard}, 1500), "kinds");
  ExpectSelftestPasses(url);
  StatusOr<std::string> options = chromium_->Evaluate("document.getElementById('profile-select').options.length");
  ASSERT_TRUE(options.ok());
  EXPECT_EQ(*options, "2");
}

TEST_F(BrowserTest, ANewerVersionGetsAClearMessage) {
  std::string msg = MessageOf(PageWith(GzipOf(R"({"format":"openTPU-profile","version":2,"profiles":[]})"), "newer.otpuprof"));
  EXPECT_NE(msg.find("newer.otpuprof: version 2 is newer than this reader (1)"), std::string::npos) << msg;
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

TEST_F(BrowserTest, AForeignFileGetsAClearMessage) {
  std::string msg = MessageOf(PageWith(GzipOf(R"({"format":"perfetto","version":1})"), "foreign.json"));
  EXPECT_NE(msg.find("foreign.json: not an openTPU profile (format \\\"perfetto\\\")"), std::string::npos) << msg;
}

TEST_F(BrowserTest, CorruptGzipGetsAClearMessage) {
  std::string gz = GzipOf(R"({"format":"openTPU-profile","version":1,"profiles":[]})");
  std::string msg = MessageOf(PageWith(gz.substr(0, gz.size() - 9), "cut.otpuprof"));
  EXPECT_NE(msg.find("cut.otpuprof: corrupt or truncated gzip data"), std::string::npos) << msg;
}

TEST_F(BrowserTest, AMalformedRowIsNamedByItsPath) {
  StatusOr<std::string> json = ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 10));
  ASSERT_TRUE(json.ok());
  std::string bad = *json;
  size_t at = bad.find("[0,3,3,");  // the row of idx 3: drop its last column
  ASSERT_NE(at, std::string::npos);
  size_t end = bad.find(']', bad.find('}', at));
  size_t comma = bad.rfind(',', end);
  bad.erase(comma, end - comma);
  std::string msg = MessageOf(PageWith(GzipOf(bad), "row.otpuprof"));
  EXPECT_NE(msg.find("profiles[0].instrs[3]: expected 16 columns, got 15"), std::string::npos) << msg;
}

TEST_F(BrowserTest, ServedPageLoadsTheProfileFromTheServer) {
  ASSERT_TRUE(Write(PathOf("served.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 500)).ok());
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(std::string(AppPage()), PathOf("served.otpuprof"), 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  ExpectSelftestPasses((*server)->Url());
  EXPECT_EQ(Eval("lens.app.timing.loaded_in"), "\"worker\"");
  StatusOr<std::string> info = chromium_->Evaluate("document.getElementById('profile-info').textContent");
  ASSERT_TRUE(info.ok());
  EXPECT_NE(info->find("served.otpuprof"), std::string::npos) << *info;
}

TEST_F(BrowserTest, ServedPageWithoutAProfileOffersToOpenOne) {
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(std::string(AppPage()), "", 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  std::string msg = MessageOf((*server)->Url());
  EXPECT_NE(msg.find("No profile loaded"), std::string::npos) << msg;
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

TEST_F(BrowserTest, DeepLinksOpenTheirView) {
  ProfileFile f = SyntheticFile({ProfileKind::kIsa, ProfileKind::kRtl}, 400);
  const auto mxu = std::count_if(f.profiles[0].instrs.begin(), f.profiles[0].instrs.end(), [](const InstrRow& r) { return r.unit == 1; });
  std::string url = PageOf(f, "links");
  ASSERT_TRUE(chromium_->Navigate(url + "#profile=1&view=floorplan&t=123").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  EXPECT_EQ(Eval("[lens.app.m.index, lens.app.view.key, document.getElementById('fp-label').textContent.startsWith('cycle 123 of')].join()"),
            "\"1,floorplan,true\"");
  // pin and t on the timeline: the pinned instruction's card and the cursor.
  ASSERT_TRUE(chromium_->Navigate(url + "?2#view=timeline&pin=77&t=500").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  EXPECT_EQ(Eval("[lens.app.m.index, lens.app.view.key, document.getElementById('timeline-pinned').textContent.includes('#77 ')].join()"),
            "\"0,timeline,true\"");
  ASSERT_TRUE(chromium_->Navigate(url + "?3#view=instructions&filter=unit%3AMXU").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  EXPECT_EQ(Eval("document.getElementById('instr-count').textContent"), "\"" + std::to_string(mxu) + " of 400 instructions\"");
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// The timeline's search steps through its matches with real keys, as Perfetto's does: typed
// into the box, Enter pins the first match in start order ("1 of N"), Enter the next,
// Shift-Enter the previous; N is the instructions filter's count for the same term.
TEST_F(BrowserTest, SearchStepsThroughMatchesWithEnter) {
  ASSERT_TRUE(chromium_->Navigate(PageOf(MlpSmall(), "search") + "#view=timeline").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  const std::string box = Eval("(() => { const r = document.getElementById('timeline-find').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2].join(); })()");
  double x = 0, y = 0;
  ASSERT_EQ(std::sscanf(box.c_str(), "\"%lf,%lf\"", &x, &y), 2) << box;
  ASSERT_TRUE(chromium_->Click(x, y).ok());
  // The click focuses the box once layout has settled; a page still laying out (a loaded
  // machine) may take the click elsewhere, so wait for the focus and give it if need be.
  if (!chromium_->WaitForString("document.activeElement && document.activeElement.id === 'timeline-find' ? 'yes' : ''", 2).ok()) {
    Eval("document.getElementById('timeline-find').focus()");
  }
  for (const char* k : {"M", "M"}) ASSERT_TRUE(chromium_->PressKey(k).ok());
  ASSERT_TRUE(chromium_->WaitForString("document.getElementById('timeline-find').value === 'MM' ? 'yes' : ''", 10).ok())
      << Eval("document.getElementById('timeline-find').value");
  const std::string n = Eval("String(lens.filterInstrs(lens.app.m, 'MM').length)");
  ASSERT_NE(n, "\"0\"");
  const std::string count = "document.getElementById('timeline-find-count').textContent";
  // The k-th match in start order (equal starts in row order), by idx.
  auto nth = [](int k) { return "(() => { const m = lens.app.m, o = Array.from(lens.filterInstrs(m, 'MM')).sort((a, b) => m.s[a] - m.s[b] || a - b); return String(m.idx[o[" + std::to_string(k) + "]]); })()"; };
  ASSERT_TRUE(chromium_->PressKey("Enter").ok());
  ASSERT_TRUE(chromium_->WaitForString("(" + count + ") || ''", 10).ok());
  EXPECT_EQ(Eval(count), "\"1 of " + n.substr(1, n.size() - 2) + "\"");
  EXPECT_EQ(Eval("String(lens.app.params.pin)"), Eval(nth(0)));
  ASSERT_TRUE(chromium_->PressKey("Enter").ok());
  EXPECT_EQ(Eval(count), "\"2 of " + n.substr(1, n.size() - 2) + "\"");
  EXPECT_EQ(Eval("String(lens.app.params.pin)"), Eval(nth(1)));
  ASSERT_TRUE(chromium_->PressKey("Enter", 8).ok());  // Shift-Enter
  EXPECT_EQ(Eval(count), "\"1 of " + n.substr(1, n.size() - 2) + "\"");
  ASSERT_TRUE(chromium_->PressKey("Enter", 8).ok());  // wraps to the last
  EXPECT_EQ(Eval(count), "\"" + n.substr(1, n.size() - 2) + " of " + n.substr(1, n.size() - 2) + "\"");
  // The pinned match is in view.
  EXPECT_EQ(Eval("(() => { const T = lens.app.view, m = lens.app.m, i = T.pin; return T.v0 <= m.s[i] && m.s[i] <= T.v1; })()"), "true");
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// `?` shows every key the page answers, with real key presses; Esc closes it; and the docs'
// "Keyboard and mouse" table names every one of those keys.
TEST_F(BrowserTest, QuestionMarkListsEveryKey) {
  ASSERT_TRUE(chromium_->Navigate(PageOf(MlpSmall(), "keys") + "#view=timeline").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  ASSERT_TRUE(chromium_->PressKey("?", 8).ok());
  EXPECT_EQ(Eval("(() => { const el = document.getElementById('key-help'); return !!el && !el.hidden && el.getBoundingClientRect().height > 100; })()"), "true");
  const std::string rows = Eval("lens.kKeyHelp.map((r) => r.join('|')).join('\\n')");
  EXPECT_EQ(Eval("document.querySelectorAll('#key-help-table tr').length"), std::to_string(1 + std::count(rows.begin(), rows.end(), '|') / 2));
  ASSERT_TRUE(chromium_->PressKey("Escape").ok());
  EXPECT_EQ(Eval("document.getElementById('key-help').hidden"), "true");
  // Esc with the help closed still does the timeline's job (nothing pinned: the page stays).
  EXPECT_EQ(Eval("lens.app.view.key"), "\"timeline\"");
  std::ifstream doc(LENS_APP_DOC);
  std::string text((std::istreambuf_iterator<char>(doc)), std::istreambuf_iterator<char>());
  const size_t from = text.find("## Keyboard and mouse");
  ASSERT_NE(from, std::string::npos);
  const std::string table = text.substr(from, text.find("\n## ", from + 3) - from);
  // Each help row's keys appear in the docs' table in a row of the same place.
  const std::string list = Eval("JSON.stringify(lens.kKeyHelp)");
  rapidjson::Document outer, help;
  outer.Parse(list.c_str());
  ASSERT_TRUE(outer.IsString());
  help.Parse(outer.GetString());
  ASSERT_TRUE(help.IsArray());
  for (const auto& row : help.GetArray()) {
    const std::string where = row[0].GetString(), keys = row[1].GetString();
    bool found = false;
    for (size_t at = table.find("| " + where + " |"); at != std::string::npos && !found; at = table.find("| " + where + " |", at + 1)) {
      const std::string line = table.substr(at, table.find('\n', at) - at);
      found = true;
      for (size_t a = 0; a < keys.size();) {
        size_t b = keys.find_first_of(" ,", a);
        if (b == std::string::npos) b = keys.size();
        const std::string k = keys.substr(a, b - a);
        if (!k.empty() && line.find(k) == std::string::npos) found = false;
        a = b + 1;
      }
    }
    EXPECT_TRUE(found) << "docs/lens-app.md's key table lacks " << where << ": " << keys;
  }
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// Puts `bytes` as a file named `name` into the page (without a profile) through `how`: 'drop'
// on the window, or 'pick' through the Open file input; waits until it is open.
static std::string OpenInPage(HeadlessChromium* c, const std::string& bytes, const std::string& name, const std::string& how) {
  std::string js = "(async () => { const before = lens.app.load; const file = new File([Uint8Array.fromBase64('" + Base64Encode(bytes) + "')], '" + name +
                   "'); const dt = new DataTransfer(); dt.items.add(file);";
  js += how == "drop" ? "window.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));"
                      : "const input = document.getElementById('file-input'); input.files = dt.files; input.dispatchEvent(new Event('change'));";
  js += "for (let k = 0; k < 600 && (lens.app.load === before || !(lens.app.m || lens.app.error)); ++k) await new Promise((ok) => setTimeout(ok, 50));"
        "return lens.app.error || document.getElementById('profile-info').textContent; })()";
  StatusOr<std::string> r = c->Evaluate(js, 60);
  return r.ok() ? *r : r.status().message();
}

TEST_F(BrowserTest, ADroppedGzipFileOpens) {
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(std::string(AppPage()), "", 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  MessageOf((*server)->Url());
  StatusOr<std::string> json = ProfileFileToJson(SyntheticFile({ProfileKind::kIsa, ProfileKind::kHw}, 300));
  ASSERT_TRUE(json.ok());
  std::string info = OpenInPage(chromium_, GzipOf(*json), "dropped.otpuprof", "drop");
  EXPECT_NE(info.find("dropped.otpuprof · isa · 300 instructions"), std::string::npos) << info;
  EXPECT_EQ(Eval("document.getElementById('profile-select').hidden"), "false");
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

TEST_F(BrowserTest, APickedPlainJsonFileOpens) {
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(std::string(AppPage()), "", 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  MessageOf((*server)->Url());
  StatusOr<std::string> json = ProfileFileToJson(SyntheticFile({ProfileKind::kRtl}, 250));
  ASSERT_TRUE(json.ok());
  std::string info = OpenInPage(chromium_, *json, "picked.json", "pick");
  EXPECT_NE(info.find("picked.json · rtl · 250 instructions"), std::string::npos) << info;
  // A damaged file picked next replaces the profile with its message.
  info = OpenInPage(chromium_, json->substr(0, json->size() / 2), "half.json", "pick");
  EXPECT_NE(info.find("half.json: invalid JSON at byte"), std::string::npos) << info;
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

TEST_F(BrowserTest, AMinimalFileFromAnotherWriterOpens) {
  // Only the required keys, pretty-printed, an escaped string and a fractional number: the
  // parser's general path; every optional key (config, slices, sources, units…) defaults.
  const std::string json = R"({
    "format": "openTPU-profile", "version": 1,
    "profiles": [ { "kind": "isa", "name": "other \"writer\"", "cycles": 300,
      "instrs": [
        [0, 0, 0, 0, "LD", "d0x0 -> t0", 0, 1, -1, 2, 40, -1, {}, 38, 38, 0],
        [ 0, 1, 1, 1, "MM", "1x64 . 64x64^T", 1, 40, 42, 42, 250.0, -1, {"frz": 3}, 128, 128, 2 ],
        [0, 2, 2, 3, "VOP.ADD", "caf\u00e9", 2, 250, -1, 251, 260, -1, {}, 8, 0, 0]
      ] } ] })";
  ExpectSelftestPasses(PageWith(GzipOf(json), "other.json"));
  EXPECT_EQ(Eval("[lens.app.m.name === 'other \"writer\"', lens.app.m.n, lens.app.m.details[2] === 'caf\u00e9', lens.app.m.windows.synthesized].join()"),
            "\"true,3,true,true\"");
}

TEST_F(BrowserTest, TheParserReadsJsonAsJsonParseDoes) {
  ASSERT_TRUE(chromium_->Navigate(PageOf(SyntheticFile({ProfileKind::kIsa}, 10), "parser")).ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  // Everything outside instrs and bucket columns parses to what JSON.parse gives.
  const char* doc = R"({"a": [1, -2.5e3, 0, true, false, null, "\u00e9\n\"x\"", {"b": []}], "c": {}})";
  EXPECT_EQ(Eval(std::string("JSON.stringify(lens.parse(String.raw`") + doc + "`)) === JSON.stringify(JSON.parse(String.raw`" + doc + "`))"), "true");
  // Bucket columns of numbers become Float64Arrays; a column holding anything else stays an array.
  EXPECT_EQ(Eval("(() => { const b = lens.parse('{\"profiles\":[{\"slices\":[{\"buckets\":{\"c\":[1,2],\"n\":[1,\"x\"]}}]}]}').profiles[0].slices[0].buckets;"
                 " return [b.c instanceof Float64Array, b.c.join(), Array.isArray(b.n)].join(); })()"),
            "\"true,1,2,true\"");
  // A row on the fast path and a row with an escaped name share the name's id.
  EXPECT_EQ(Eval("(() => { const I = lens.parse('{\"profiles\":[{\"instrs\":[[0,0,0,1,\"MM\",\"d\",0,1,2,3,4,-1,{\"frz\":2},5,6,7],"
                 "[0,1,0,1,\"M\\\\u004d\",\"d\",0,1,2,3,4.5,-1,{},5,6,7]]}]}').profiles[0].instrs;"
                 " return [I.n, I.names.length, I.nameId.join(), I.end.join(), I.counterKeys.join(), I.counters[0].join()].join(' '); })()"),
            "\"2 1 0,0 4,4.5 frz 2,NaN\"");
  // Errors name the file and the byte.
  for (auto [text, want] : {std::pair{"{\"a\":01}", "test.json: invalid JSON at byte 5: bad number \\\"01\\\""},
                            {"{\"a\":1} x", "test.json: invalid JSON at byte 8: unexpected data after the JSON value"},
                            {"{\"a\":[1,2}", "test.json: invalid JSON at byte 9: expected ',' or ']', found \\\"}\\\""},
                            {"{\"a\":\"x", "test.json: invalid JSON at byte 7: unterminated string"},
                            {"{\"a\":1,\"b\":{},\"a\":2}", "test.json: invalid JSON at byte 14: duplicate key \\\"a\\\""}}) {
    EXPECT_EQ(Eval(std::string("(() => { try { lens.parse('") + text + "'); return 'parsed'; } catch (e) { return e.message; } })()"),
              std::string("\"") + want + "\"") << text;
  }
  // Nesting as deep as the C++ readers allow, and no deeper (not the page's stack).
  EXPECT_EQ(Eval("(() => { try { lens.parse('['.repeat(200000) + ']'.repeat(200000)); return 'parsed'; } catch (e) { return e.message; } })()"),
            "\"test.json: invalid JSON at byte 128: nested deeper than 128 levels\"");
  EXPECT_EQ(Eval("(() => { try { lens.parse('['.repeat(128) + ']'.repeat(128)); return 'parsed'; } catch (e) { return e.message; } })()"),
            "\"parsed\"");
}

// Counter windows (a slice's buckets) take a fast path through JSON.parse; whatever their shape,
// they read as before: columns of numbers as Float64Arrays, anything else as parsed, and the same
// error at the same byte.
TEST_F(BrowserTest, TheParserReadsBucketsOfAnyShapeAsBefore) {
  ASSERT_TRUE(chromium_->Navigate(PageOf(SyntheticFile({ProfileKind::kIsa}, 10), "buckets")).ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  const std::string got = Eval(R"JS((() => {
    const cases = ['{"c":[1,2],"c":[3]}', '{"c":[1,2],"x}":[3]}', '{"c":[1],"o":{"p":1},"n":[2]}',
      '{"c":[1e3,-0,12345678901234567,1e999]}', '{"c":[1,2}', '{"c":[1,01]}', '{"c":[1,2],"a\\"b":[4]}',
      '{"c":[1,"x"]}', '{ "c" : [ 1 , 2 ] }'];
    const show = (v) => (v instanceof Float64Array ? 'F' : Array.isArray(v) ? 'A' : 'O') +
      (v instanceof Float64Array || Array.isArray(v) ? JSON.stringify(Array.from(v, (x) => (Object.is(x, -0) ? '-0' : x))) : '');
    return cases.map((b) => {
      try {
        const r = lens.parse('{"profiles":[{"slices":[{"buckets":' + b + '}]}]}').profiles[0].slices[0].buckets;
        return Object.entries(r).map(([k, v]) => k + '=' + show(v)).join(' ');
      } catch (e) { return e.message; }
    }).join('\n');
  })())JS");
  EXPECT_EQ(got, "\"test.json: invalid JSON at byte 46: duplicate key \\\"c\\\"\\n"
                 "c=F[1,2] x}=F[3]\\n"
                 "c=F[1] o=O n=F[2]\\n"
                 "c=F[1000,\\\"-0\\\",12345678901234568,null]\\n"
                 "test.json: invalid JSON at byte 44: expected ',' or ']', found \\\"}\\\"\\n"
                 "test.json: invalid JSON at byte 43: bad number \\\"01\\\"\\n"
                 "c=F[1,2] a\\\"b=F[4]\\n"
                 "c=A[1,\\\"x\\\"]\\n"
                 "c=F[1,2]\"");
}

// A profile recorded by a ctest fixture of this build (lens/app/CMakeLists.txt,
// host/programs/CMakeLists.txt) in LENS_FIXTURE_DIR, or "" when it is not there (the test binary
// run on its own).
static std::string FixtureProfile(const std::string& name) {
  const std::string path = std::string(LENS_FIXTURE_DIR) + "/" + name;
  return fs::exists(path) ? path : "";
}

// The page's "instructions that moved most" (their idx, in order) and lens diff's first as many.
static std::pair<std::string, std::string> MovedMost(HeadlessChromium* c, const std::string& base, const std::string& cur) {
  StatusOr<ProfileFile> b = Read(base), n = Read(cur);
  if (!b.ok() || !n.ok()) return {"unreadable", ""};
  const ProfileDiff d = DiffProfiles(b->profiles, n->profiles);
  StatusOr<std::string> page = c->Evaluate("(() => { const c = lens.compareOf(lens.app.m); return c.top.map((i) => lens.app.m.idx[i]).join(','); })()");
  std::string want;
  const std::string got = page.ok() ? *page : page.status().message();
  const size_t count = size_t(std::count(got.begin(), got.end(), ',') + (got.size() > 2 ? 1 : 0));
  for (size_t k = 0; !d.profiles.empty() && k < d.profiles[0].instrs.size() && k < count; ++k) {
    want += (k ? "," : "") + std::to_string(d.profiles[0].instrs[k].idx);
  }
  return {got, "\"" + want + "\""};
}

// The compare view's summary line against lens diff on the same pair: its cycles and
// roofline.efficiency fields, and its first three "moved most" instructions (pc, idx, change of
// end − start cycles). The page must show the compare view's overview.
static void ExpectSummaryIsLensDiffs(HeadlessChromium* c, const std::string& base, const std::string& cur) {
  StatusOr<ProfileFile> b = Read(base), n = Read(cur);
  ASSERT_TRUE(b.ok() && n.ok());
  const ProfileDiff d = DiffProfiles(b->profiles, n->profiles);
  ASSERT_FALSE(d.profiles.empty());
  const ProfileDelta& p = d.profiles[0];
  std::string top;
  for (size_t k = 0; k < p.instrs.size() && k < 3; ++k) {
    const InstrDelta& x = p.instrs[k];
    top += (k ? "," : "") + std::to_string(x.pc) + ":" + std::to_string(x.idx) + ":" + std::to_string(x.cycles_after - x.cycles_before);
  }
  const int64_t c0 = b->profiles[0].cycles, c1 = n->profiles[0].cycles;
  for (const FieldDelta& f : p.fields) {
    if (f.field == "cycles") {
      EXPECT_EQ(int64_t(f.before), c0);
      EXPECT_EQ(int64_t(f.after), c1);
    }
  }
  StatusOr<std::string> got = c->Evaluate(
      "(lens.setHash({view: 'overview'}), (() => { const s = document.getElementById('compare-summary'); return s ? [s.dataset.cycles, s.dataset.top].join('|') : 'none'; })())");
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(*got, "\"" + std::to_string(c0) + "," + std::to_string(c1) + "|" + top + "\"");
  // Its efficiency is lens diff's roofline.efficiency field, before and after.
  for (const FieldDelta& f : p.fields) {
    if (f.field != "roofline.efficiency") continue;
    StatusOr<std::string> eff = c->Evaluate("document.getElementById('compare-summary').dataset.efficiency.split(',').map(Number).join()");
    ASSERT_TRUE(eff.ok());
    double e0 = 0, e1 = 0;
    ASSERT_EQ(std::sscanf(eff->c_str(), "\"%lf,%lf\"", &e0, &e1), 2) << *eff;
    EXPECT_NEAR(e0, f.before, 1e-9);
    EXPECT_NEAR(e1, f.after, 1e-9);
  }
}

// The compare view: mlp-small on the RTL at 20% DRAM stalls against 0%, both real
// recordings: every instruction matches by pc and order, the deltas are the runs' differences,
// and the page's self-test checks every view's deltas.
TEST_F(BrowserTest, CompareViewOnMlpSmallAtTwoStallRates) {
  const std::string base = FixtureProfile("mlp-small-stall0.otpuprof"), cur = FixtureProfile("mlp-small-stall20.otpuprof");
  if (base.empty() || cur.empty()) GTEST_SKIP() << "the ctest fixture lens_compare_profiles_for_browser did not run";
  StatusOr<HtmlExportInfo> info = ExportHtml(cur, PathOf("compare.html"), base);
  ASSERT_TRUE(info.ok()) << info.status().message();
  ExpectSelftestPasses("file://" + PathOf("compare.html"));
  StatusOr<ProfileFile> b = Read(base), n = Read(cur);
  ASSERT_TRUE(b.ok() && n.ok());
  const int64_t delta = n->profiles[0].cycles - b->profiles[0].cycles;
  EXPECT_GT(delta, 0) << "stalls should cost cycles";
  EXPECT_EQ(Eval("(() => { const c = lens.compareOf(lens.app.m); return [c.matched === lens.app.m.n, c.onlyBase, lens.app.m.cycles - c.b.cycles].join(); })()"),
            "\"true,0," + std::to_string(delta) + "\"");
  EXPECT_NE(Eval("document.getElementById('compare-info').textContent").find("vs mlp-small-stall0.otpuprof"), std::string::npos);
  // The instructions that moved most are lens diff's, in its order.
  auto [got, want] = MovedMost(chromium_, base, cur);
  EXPECT_EQ(got, want);
  ExpectSummaryIsLensDiffs(chromium_, base, cur);
  // Same machine and workload, but another DRAM model (stall 20 against ideal): said so.
  const std::string warn = Eval("(document.querySelector('#compare-section .compare-warn') || {}).textContent || ''");
  EXPECT_NE(warn.find("memory models differ: ideal → stall 20"), std::string::npos) << warn;
  EXPECT_EQ(warn.find("configurations differ"), std::string::npos) << warn;
  // The baseline's bar gives the baseline's own shares (its streaming share, not this run's).
  const Analysis ab = Analyze(b->profiles[0]);
  char share[32];
  std::snprintf(share, sizeof share, "streaming: %.1f%%", 100.0 * ab.causes[0] / ab.total);
  EXPECT_EQ(Eval("(lens.setHash({view: 'cycles'}), document.querySelector('#cycles-bar-base > div').title)"), std::string("\"") + share + "\"");
  // The baseline's close button is on screen and on top at the widths people use.
  for (int width : {1280, 1600}) {
    ASSERT_TRUE(chromium_->SetViewport(width, 900).ok());
    EXPECT_EQ(Eval("(() => { const b = document.getElementById('close-baseline'), r = b.getBoundingClientRect();"
                   " return r.width > 0 && r.right <= innerWidth && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b; })()"),
              "true") << width << " px";
  }
  ASSERT_TRUE(chromium_->SetViewport(1440, 900).ok());
  Screenshots("compare-mlp-small");
}

TEST_F(BrowserTest, CompareViewOnTwoQwenTinyProfiles) {
  const std::string base = FixtureProfile("board-qwen-tiny.otpuprof"), cur = FixtureProfile("board-qwen-tiny-pos4.otpuprof");
  if (base.empty() || cur.empty()) GTEST_SKIP() << "the board-model qwen-tiny fixtures did not run";
  StatusOr<HtmlExportInfo> info = ExportHtml(cur, PathOf("compare-qwen.html"), base);
  ASSERT_TRUE(info.ok()) << info.status().message();
  ExpectSelftestPasses("file://" + PathOf("compare-qwen.html"), 120);
  EXPECT_EQ(Eval("!!lens.compareOf(lens.app.m) && lens.compareOf(lens.app.m).matched > 0"), "true");
  // Every dependency wait of a real recording has its producer: an older instruction that ended
  // at the cycle the waiting one became ready (the timeline's arrows, lens export's flows).
  EXPECT_EQ(Eval("(() => { const m = lens.app.m, d = lens.depsOf(m); let w = 0, f = 0;"
                 " for (let i = 0; i < m.n; ++i) { if (m.ready[i] > m.dispatch[i] && m.dispatch[i] >= 0) { w++; if (d[i] >= 0) f++; } }"
                 " return w > 0 && w === f; })()"),
            "true");
  auto [got, want] = MovedMost(chromium_, base, cur);
  EXPECT_EQ(got, want);
  ExpectSummaryIsLensDiffs(chromium_, base, cur);
  Screenshots("compare-qwen-tiny");
}

// The Baseline… button: a file picked in a page that has a profile turns the compare view on;
// the hash's compare=off turns it off again.
TEST_F(BrowserTest, ABaselinePickedInThePageIsCompared) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 400), g = SyntheticFile({ProfileKind::kRtl}, 380);
  ASSERT_TRUE(chromium_->Navigate(PageOf(f, "withbase")).ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  StatusOr<std::string> json = ProfileFileToJson(g);
  ASSERT_TRUE(json.ok());
  std::string js = "(async () => { const file = new File([Uint8Array.fromBase64('" + Base64Encode(GzipOf(*json)) +
                   "')], 'base.otpuprof'); const dt = new DataTransfer(); dt.items.add(file); const input = document.getElementById('baseline-input');"
                   " input.files = dt.files; input.dispatchEvent(new Event('change'));"
                   " for (let k = 0; k < 400 && !lens.compareOf(lens.app.m); ++k) await new Promise((ok) => setTimeout(ok, 50));"
                   " const c = lens.compareOf(lens.app.m); return c ? [c.matched, c.onlyNew, c.onlyBase].join() : 'none'; })()";
  StatusOr<std::string> r = chromium_->Evaluate(js, 60);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, "\"380,20,0\"");
  EXPECT_EQ(Eval("(lens.setHash({compare: 'off'}), String(!!lens.compareOf(lens.app.m)))"), "\"false\"");
  EXPECT_EQ(Eval("(lens.setHash({compare: null}), String(!!lens.compareOf(lens.app.m)))"), "\"true\"");
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// `lens open --baseline`: the page it serves carries the baseline; the profile comes from /profile.
TEST_F(BrowserTest, ServedPageWithABaselineCompares) {
  ASSERT_TRUE(Write(PathOf("served-new.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 300)).ok());
  StatusOr<std::string> page = EmbedBaseline(AppPage(), GzipOf(ProfileFileToJson(SyntheticFile({ProfileKind::kIsa}, 250)).value()), "served-base.otpuprof");
  ASSERT_TRUE(page.ok()) << page.status().message();
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(*page, PathOf("served-new.otpuprof"), 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  ExpectSelftestPasses((*server)->Url());
  EXPECT_EQ(Eval("(() => { const c = lens.compareOf(lens.app.m); return c ? [c.matched, c.onlyNew].join() : 'none'; })()"), "\"250,50\"");
}

// Two configurations (D=32 against D=128) and two workloads: the compare view says the runs
// are not like for like before any delta.
TEST_F(BrowserTest, CompareSaysWhenMachinesOrWorkloadsDiffer) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 400), g = SyntheticFile({ProfileKind::kRtl}, 400);
  f.profiles[0].config.D = 128;
  f.profiles[0].config.MEM = "axi";
  ASSERT_TRUE(Write(PathOf("d32.otpuprof"), g).ok());
  ASSERT_TRUE(Write(PathOf("d128.otpuprof"), f).ok());
  StatusOr<HtmlExportInfo> info = ExportHtml(PathOf("d128.otpuprof"), PathOf("d128.html"), PathOf("d32.otpuprof"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  ExpectSelftestPasses("file://" + PathOf("d128.html"));
  const std::string warn = Eval("(lens.setHash({view: 'overview'}), (document.querySelector('#compare-section .compare-warn') || {}).textContent || '')");
  EXPECT_NE(warn.find("configurations differ: D=32 → 128"), std::string::npos) << warn;
  EXPECT_NE(warn.find("memory models differ"), std::string::npos) << warn;
  EXPECT_NE(Eval("document.getElementById('compare-info').textContent").find("differs"), std::string::npos);
}

// A 4-profile file in chromium as people run it (default flags: navigation throttling on): the
// self-test passes, and the URL's hash was written a few times a second at most.
TEST_F(BrowserTest, SelftestPassesOnAFourProfilePageWithDefaultFlags) {
  ProfileFile f = MlpSmall();
  for (int k = 1; k < 4; ++k) {
    f.profiles.push_back(f.profiles[0]);
    f.profiles.back().name += "-" + std::to_string(k);
  }
  ExpectSelftestPasses(PageOf(f, "four"), 240);
  EXPECT_EQ(Eval("lens.hashState.writes <= 2 + performance.now() / 250"), "true") << Eval("lens.hashState.writes");
}

// Hand-edited hash values: a reversed range past the end is clamped and ordered, a pin that
// names no instruction says so.
TEST_F(BrowserTest, BadHashValuesAreCorrectedAndNamed) {
  std::string url = PageOf(SyntheticFile({ProfileKind::kIsa}, 400), "badhash");
  ASSERT_TRUE(chromium_->Navigate(url + "#view=timeline&range=90000-5&pin=99999").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  EXPECT_EQ(Eval("(() => { const T = lens.app.view, c = lens.app.m.cycles; return T.v0 >= 5 && T.v1 <= c * 1.02 && T.v1 - T.v0 > 8; })()"), "true")
      << Eval("document.querySelector('#view-timeline .range-label, #view-timeline .mono') && lens.app.view.v0 + '-' + lens.app.view.v1");
  EXPECT_NE(Eval("document.getElementById('timeline-pinned').textContent").find("pin=99999 names no instruction"), std::string::npos);
  EXPECT_NE(Eval("document.getElementById('timeline-pinned').textContent").find("range=90000-5 is not a range of this run"), std::string::npos);
  EXPECT_EQ(Eval("(lens.flushHash(), /range=5-\\d+/.test(location.hash))"), "true") << Eval("location.hash");
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// Regression: an index past the file's profiles falls back to the first, with a message,
// instead of waiting for a profile that never comes.
TEST_F(BrowserTest, AnOutOfRangeProfileIndexShowsTheFirstWithAMessage) {
  std::string url = PageOf(SyntheticFile({ProfileKind::kIsa, ProfileKind::kRtl}, 300), "range");
  ASSERT_TRUE(chromium_->Navigate(url + "#profile=2&view=timeline").ok());
  StatusOr<std::string> ready = chromium_->WaitForString("document.body.dataset.ready || ''", 30);
  ASSERT_TRUE(ready.ok()) << ready.status().message();
  ASSERT_TRUE(chromium_->WaitForString("lens.app.m && !document.getElementById('views').hidden ? 'shown' : ''", 10).ok())
      << Eval("document.getElementById('message').textContent");
  EXPECT_EQ(Eval("lens.app.m.index"), "0");
  EXPECT_NE(Eval("document.getElementById('message').textContent").find("profile=2: this file has 2 profiles"), std::string::npos);
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// Regression: clicking a bar in a zoomed view keeps that view and the hash's range.
TEST_F(BrowserTest, PinningKeepsTheZoom) {
  ProfileFile f = SyntheticFile({ProfileKind::kRtl}, 2000);
  // The longest instruction, and a view that starts inside it.
  const InstrRow* mm = &f.profiles[0].instrs[0];
  for (const InstrRow& r : f.profiles[0].instrs) {
    if (r.end - r.start > mm->end - mm->start) mm = &r;
  }
  ASSERT_GE(mm->end - mm->start, 12);
  const int64_t a = mm->start + (mm->end - mm->start) / 2, b = a + 400;
  ASSERT_TRUE(chromium_->Navigate(PageOf(f, "pinzoom") + "#view=timeline&range=" + std::to_string(a) + "-" + std::to_string(b)).ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 30).ok());
  std::string js = "(() => { const T = lens.app.view, m = lens.app.m, i = " + std::to_string(mm->idx) +
                   "; const r = T.rows.find((q) => q.type === 'lane' && q.u === m.unit[i] && q.k === m.lane[i]);"
                   " T.click(Math.round(T.X(" + std::to_string(a + 5) + ")), r.y + 10);"
                   " return [T.pin === i, Math.round(T.v0), Math.round(T.v1), location.hash.includes('range=" + std::to_string(a) + "-" + std::to_string(b) + "')].join(); })()";
  EXPECT_EQ(Eval(js), "\"true," + std::to_string(a) + "," + std::to_string(b) + ",true\"");
}

// Fields of RFC 4180 CSV text (quoted fields, doubled quotes, CRLF), or of TSV when `sep` is a tab.
static std::vector<std::vector<std::string>> SplitDelimited(const std::string& text, char sep) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string f;
  bool quoted = false;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (quoted) {
      if (c == '"' && k + 1 < text.size() && text[k + 1] == '"') f += '"', ++k;
      else if (c == '"') quoted = false;
      else f += c;
    } else if (c == '"' && sep == ',') {
      quoted = true;
    } else if (c == sep) {
      row.push_back(f), f.clear();
    } else if (c == '\n') {
      row.push_back(f), f.clear();
      rows.push_back(row), row.clear();
    } else if (c != '\r') {
      f += c;
    }
  }
  if (!f.empty() || !row.empty()) row.push_back(f), rows.push_back(row);
  return rows;
}

// Clicks (a real mouse click) the element `selector` after scrolling it into view.
static void ClickOn(HeadlessChromium* c, const std::string& selector) {
  StatusOr<std::string> at = c->Evaluate("(() => { const b = document.querySelector(" + std::string("'") + selector +
                                         "'); if (!b) return ''; b.scrollIntoView({block: 'center'}); const r = b.getBoundingClientRect();"
                                         " return (r.left + r.width / 2) + ',' + (r.top + r.height / 2); })()");
  ASSERT_TRUE(at.ok()) << at.status().message();
  ASSERT_NE(*at, "\"\"") << selector << " is not on the page";
  double x = 0, y = 0;
  ASSERT_EQ(std::sscanf(at->c_str(), "\"%lf,%lf\"", &x, &y), 2) << *at;
  ASSERT_TRUE(c->Click(x, y).ok());
}

// Waits (up to 30 s) for the browser to finish saving the CSV `path` (it writes NAME.crdownload
// first).
static std::string WaitForDownload(const std::string& path) {
  for (int k = 0; k < 300; ++k) {
    if (fs::exists(path) && !fs::exists(path + ".crdownload")) {
      // The file can appear before its bytes do: a whole CSV ends with its last line's CRLF.
      std::ifstream in(path, std::ios::binary);
      std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      if (text.size() >= 2 && text.compare(text.size() - 2, 2, "\r\n") == 0) return text;
    }
    usleep(100000);
  }
  return "";
}

// A field of a CSV row as an event cycle: empty is "did not happen" (-1).
static int64_t CycleField(const std::string& f) { return f.empty() ? -1 : std::stoll(f); }

// Every table exports (issue 25): on a real recording (qwen-tiny on the board model) served by
// lens open, the Instructions
// table's CSV download (a real click) holds every instruction with the profile's own values, the
// timeline's selected cycles export exactly the instructions overlapping them, and Copy puts the
// class table on the clipboard with the figures lens summary computes.
TEST_F(BrowserTest, TablesExportTheProfilesNumbersAsCsvAndToTheClipboard) {
  const std::string path = FixtureProfile("board-qwen-tiny.otpuprof");
  if (path.empty()) GTEST_SKIP() << "the board-model qwen-tiny fixture did not run";
  StatusOr<ProfileFile> file = Read(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const Profile& p = file->profiles[0];
  ASSERT_GT(p.instrs.size(), 100u);
  StatusOr<std::unique_ptr<AppServer>> server = AppServer::Create(std::string(AppPage()), path, 0);
  ASSERT_TRUE(server.ok()) << server.status().message();
  const std::string url = (*server)->Url();
  const std::string downloads = PathOf("downloads");
  fs::create_directories(downloads);
  ASSERT_TRUE(chromium_->AllowDownloads(downloads).ok());
  ASSERT_TRUE(chromium_->GrantClipboard(url.substr(0, url.find('/', 7))).ok());
  ASSERT_TRUE(chromium_->Navigate(url + "#view=instructions").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.body.dataset.ready || ''", 60).ok());

  // The Instructions table: every instruction, its times and transfers as the profile has them.
  ClickOn(chromium_, "#view-instructions .vt-tools .export-csv");
  StatusOr<std::string> name = chromium_->WaitForString("(lens.exportState.last || {}).name || ''", 30);
  ASSERT_TRUE(name.ok()) << name.status().message();
  const std::string csv = WaitForDownload(downloads + "/" + *name);
  std::string listing;
  for (const fs::directory_entry& e : fs::directory_iterator(downloads)) listing += " " + e.path().filename().string() + " (" + std::to_string(e.file_size()) + " bytes)";
  ASSERT_FALSE(csv.empty()) << "no download " << *name << " in " << downloads << ":" << listing;
  std::vector<std::vector<std::string>> rows = SplitDelimited(csv, ',');
  ASSERT_EQ(rows.size(), p.instrs.size() + 1);
  const std::vector<std::string>& head = rows[0];
  auto col = [&](const char* label) { return size_t(std::find(head.begin(), head.end(), label) - head.begin()); };
  for (const char* label : {"#", "pc", "unit", "name", "detail", "dispatch", "start", "end", "work", "port B", "port A"}) {
    ASSERT_LT(col(label), head.size()) << "no column " << label;
  }
  std::map<int64_t, const InstrRow*> by_idx;
  for (const InstrRow& r : p.instrs) by_idx[r.idx] = &r;
  size_t checked = 0;
  for (size_t k = 1; k < rows.size(); ++k) {
    const std::vector<std::string>& f = rows[k];
    ASSERT_EQ(f.size(), head.size()) << "row " << k;
    const auto it = by_idx.find(std::stoll(f[col("#")]));
    ASSERT_NE(it, by_idx.end()) << "row " << k << " names no instruction";
    const InstrRow& r = *it->second;
    EXPECT_EQ(std::stoll(f[col("pc")]), r.pc);
    EXPECT_EQ(f[col("unit")], p.units[size_t(r.unit)]);
    EXPECT_EQ(f[col("name")], r.name);
    EXPECT_EQ(f[col("detail")], r.detail);
    EXPECT_EQ(CycleField(f[col("dispatch")]), r.dispatch);
    EXPECT_EQ(CycleField(f[col("start")]), r.start);
    EXPECT_EQ(CycleField(f[col("end")]), r.end);
    EXPECT_EQ(std::stoll(f[col("work")]), r.work);
    EXPECT_EQ(std::stoll(f[col("port B")]), r.port_b);
    EXPECT_EQ(std::stoll(f[col("port A")]), r.port_a);
    by_idx.erase(it);
    ++checked;
  }
  EXPECT_EQ(checked, p.instrs.size());
  EXPECT_TRUE(by_idx.empty()) << by_idx.size() << " instructions missing from the CSV";

  // A selected range exports the instructions overlapping it.
  const int64_t a = p.cycles / 4, b = p.cycles / 2;
  std::set<int64_t> want;
  for (const InstrRow& r : p.instrs) {
    // Effective times, as the page takes them: a start that did not happen is the run's end, an
    // end that did not happen (still running when a cut trace ended) too.
    const int64_t s = r.start >= 0 ? r.start : p.cycles, e = r.end >= 0 ? std::max(r.end, s) : std::max(p.cycles, s);
    if (s < b && e > a && e > s) want.insert(r.idx);
  }
  ASSERT_FALSE(want.empty());
  const std::string sel = "#view=timeline&sel=" + std::to_string(a) + "-" + std::to_string(b);
  ASSERT_TRUE(chromium_->Evaluate("location.hash = '" + sel + "'; true").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.getElementById('timeline-selection').hidden ? '' : 'shown'", 30).ok());
  ClickOn(chromium_, "#timeline-selection .toolbar .export-csv");
  StatusOr<std::string> sel_name = chromium_->WaitForString("((lens.exportState.last || {}).name || '').includes('-instructions') && lens.exportState.last.name.includes('cycles-') ? lens.exportState.last.name : ''", 30);
  ASSERT_TRUE(sel_name.ok()) << sel_name.status().message();
  const std::string sel_csv = WaitForDownload(downloads + "/" + *sel_name);
  rows = SplitDelimited(sel_csv, ',');
  ASSERT_GE(rows.size(), 2u) << sel_csv;
  std::set<int64_t> got;
  for (size_t k = 1; k < rows.size(); ++k) got.insert(std::stoll(rows[k][0]));
  EXPECT_EQ(rows.size() - 1, want.size());
  EXPECT_EQ(got, want);

  // Copy: the class table as tab-separated text on the clipboard, lens summary's figures.
  ASSERT_TRUE(chromium_->Evaluate("location.hash = '#view=overview'; true").ok());
  ASSERT_TRUE(chromium_->WaitForString("document.getElementById('class-table') ? 'y' : ''", 30).ok());
  ClickOn(chromium_, "#class-table .export-copy");
  StatusOr<std::string> copied = chromium_->WaitForString("(lens.exportState.last || {}).kind === 'tsv' ? navigator.clipboard.readText() : ''", 30);
  ASSERT_TRUE(copied.ok()) << copied.status().message();
  rows = SplitDelimited(*copied, '\t');
  const Analysis an = Analyze(p);
  ASSERT_EQ(rows.size(), an.classes.size() + 3) << *copied;  // header, classes, idle, total
  EXPECT_EQ(rows[0][0], "class");
  EXPECT_EQ(rows[0][5], "busy (sum)");
  for (const ClassStats& c : an.classes) {
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r[0] == c.name; });
    ASSERT_NE(row, rows.end()) << c.name;
    EXPECT_EQ(std::stoll((*row)[2]), c.count) << c.name;
    EXPECT_EQ(std::stoll((*row)[5]), int64_t(c.busy)) << c.name;
    EXPECT_EQ(std::stoll((*row)[9]), int64_t(c.port_b)) << c.name;
  }
  EXPECT_TRUE(chromium_->errors().empty()) << Errors();
}

// Profiles without a full trace, on real recordings (fixtures of host/programs/CMakeLists.txt):
// an emulated map-1 card's counters-only profile and a keep-first run that overflowed.
TEST_F(BrowserTest, ACountersOnlyCardProfileShowsWhatItHas) {
  const std::string path = FixtureProfile("card-m1-mlp-small.otpuprof");
  if (path.empty()) GTEST_SKIP() << "the fixture otpu_lens_card_m1_profile_for_browser did not run";
  StatusOr<ProfileFile> file = Read(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_EQ(file->profiles[0].kind, ProfileKind::kBoard);
  StatusOr<HtmlExportInfo> info = ExportHtml(path, PathOf("m1.html"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  ExpectSelftestPasses("file://" + PathOf("m1.html"), 60, 20);
  const Profile& p = file->profiles[0];
  int64_t portb = 0;
  for (const SliceRoofline& r : p.roofline.per_slice) portb += r.portb;
  ASSERT_GT(portb, 0);
  char want[32];
  std::snprintf(want, sizeof want, "%.1f%%", 100.0 * double(portb) / double(p.cycles));
  EXPECT_EQ(Eval("document.getElementById('view-overview').querySelectorAll('.card')[2].querySelector('.v').textContent"), std::string("\"") + want + "\"");
  EXPECT_EQ(Eval("(lens.setHash({view: 'timeline'}), document.getElementById('view-timeline').textContent.includes('No trace in this profile'))"), "true");
  // lens summary: port-B busy from the counters, no made-up causes.
  const std::string text = SummaryText(*file, path);
  EXPECT_EQ(text.find("nothing in flight"), std::string::npos) << text;
  EXPECT_NE(text.find(std::string("port-B busy     ") + want), std::string::npos) << text;
}

TEST_F(BrowserTest, AKeepFirstRunThatOverflowedShowsItsLoss) {
  const std::string path = FixtureProfile("board-mlp8-keepfirst.otpuprof");
  if (path.empty()) GTEST_SKIP() << "the fixture otpu_lens_keepfirst_profile_for_browser did not run";
  StatusOr<ProfileFile> file = Read(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  ASSERT_TRUE(file->profiles[0].hwtrace.has_value());
  ASSERT_FALSE(file->profiles[0].hwtrace->complete) << "mlp8 no longer overflows the trace buffer";
  StatusOr<HtmlExportInfo> info = ExportHtml(path, PathOf("keepfirst.html"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  ExpectSelftestPasses("file://" + PathOf("keepfirst.html"), 120);
  EXPECT_EQ(Eval("(() => { const L = lens.app.m.loss; return !!L && L.cut === " + std::to_string(file->profiles[0].hwtrace->traced_to) +
                 " + 1 && document.querySelector('#view-overview .loss-banner').textContent.includes('traced_to'); })()"),
            "true");
  // Past the cut the page knows only totals: the cycles view splits only the traced cycles and
  // says so, and the floorplan says a later cycle is not traced.
  const Profile& p = file->profiles[0];
  const Analysis a = Analyze(p);
  const std::string text = Eval("(lens.setHash({view: 'cycles'}), document.getElementById('cycles-text').textContent)");
  EXPECT_EQ(text.find("Every one of the"), std::string::npos) << text;
  EXPECT_NE(text.find("The trace covers"), std::string::npos) << text;
  const int64_t later = (p.hwtrace->traced_to + p.cycles) / 2;
  const std::string fp = Eval("(lens.setHash({view: 'floorplan', t: " + std::to_string(later) + "}), document.getElementById('fp-gap-text').textContent + ' | ' + document.getElementById('fp-label').textContent)");
  EXPECT_NE(fp.find("Not traced"), std::string::npos) << fp;
  EXPECT_EQ(fp.find("Port B streams"), std::string::npos) << fp;
  // A finding's share: of the run and of the traced part, in the file (so the CLI too) and the page.
  bool found = false;
  for (const Note& n : p.notes) {
    if (n.text.rfind("MXU not consuming for ", 0) != 0) continue;
    found = true;
    char want[96];
    std::snprintf(want, sizeof want, "(%.1f%% of the run, %.1f%% of the traced part)", 100.0 * a.causes[3] / double(p.cycles), 100.0 * a.causes[3] / a.total);
    EXPECT_NE(n.text.find(want), std::string::npos) << n.text;
    EXPECT_NE(Eval("(lens.setHash({view: 'overview'}), document.getElementById('view-overview').textContent)").find(want), std::string::npos);
  }
  EXPECT_TRUE(found) << "no MXU-not-consuming note";
  // lens export: the loss label where trace viewers read it (args.labels).
  rapidjson::Document trace;
  trace.Parse(ChromeTraceJson(*file).c_str());
  ASSERT_TRUE(trace.IsObject());
  bool labelled = false;
  for (const auto& e : trace["traceEvents"].GetArray()) {
    if (std::string(e["name"].GetString()) == "process_labels") {
      labelled = e["args"].HasMember("labels") && std::string(e["args"]["labels"].GetString()).rfind("INCOMPLETE TRACE", 0) == 0;
    }
  }
  EXPECT_TRUE(labelled);
  Screenshots("keepfirst");
}

// A keep-last ring that wrapped: the page's start of the trace is its counter windows' start, as
// `lens info` says, not the earliest instruction event thousands of cycles later.
TEST_F(BrowserTest, AKeepLastRunThatWrappedShowsWhereItStarts) {
  const std::string path = FixtureProfile("board-mlp8-keeplast.otpuprof");
  if (path.empty()) GTEST_SKIP() << "the fixture otpu_lens_keeplast_profile_for_browser did not run";
  StatusOr<ProfileFile> file = Read(path);
  ASSERT_TRUE(file.ok()) << file.status().message();
  const Profile& p = file->profiles[0];
  ASSERT_TRUE(p.hwtrace && p.hwtrace->wrapped) << "mlp8 no longer wraps the ring";
  // lens info's start: "the run before cycle N is missing".
  int64_t info_from = -1;
  for (const Note& n : p.notes) {
    const size_t at = n.text.find("the run before cycle ");
    if (at != std::string::npos) info_from = std::stoll(n.text.substr(at + 21));
  }
  ASSERT_GE(info_from, 0);
  StatusOr<HtmlExportInfo> info = ExportHtml(path, PathOf("keeplast.html"));
  ASSERT_TRUE(info.ok()) << info.status().message();
  ExpectSelftestPasses("file://" + PathOf("keeplast.html"), 120);
  const std::string from = Eval("lens.app.m.loss.from");
  // The counter windows start on a window boundary at or after the first record.
  EXPECT_GE(std::stoll(from), info_from);
  EXPECT_LT(std::stoll(from), info_from + 64) << "lens info: " << info_from;
  EXPECT_EQ(Eval("lens.app.m.loss.from === lens.app.m.windows.ws[0]"), "true");
  Screenshots("keeplast");
}

// Profiles named by the build (the lens_browser_test target's LENS_PROFILES property, see
// lens/app/CMakeLists.txt) or by LENS_BROWSER_PROFILES (paths separated by ':'): each gets the
// self-test and screenshots, e.g. a board-model `hw` profile recorded by another test.
TEST_F(BrowserTest, SelftestPassesOnExtraProfiles) {
  const char* list = getenv("LENS_BROWSER_PROFILES");
  if (!list || !*list) GTEST_SKIP() << "no extra profiles (LENS_BROWSER_PROFILES)";
  std::string paths = list;
  for (size_t at = 0; at <= paths.size();) {
    size_t end = paths.find(':', at);
    if (end == std::string::npos) end = paths.size();
    const std::string path = paths.substr(at, end - at);
    at = end + 1;
    if (path.empty()) continue;
    SCOPED_TRACE(path);
    const std::string name = "extra-" + fs::path(path).stem().string();
    StatusOr<HtmlExportInfo> info = ExportHtml(path, PathOf(name + ".html"));
    ASSERT_TRUE(info.ok()) << info.status().message();
    StatusOr<ProfileFile> file = Read(path);
    ASSERT_TRUE(file.ok()) << file.status().message();
    const bool counters_only = file->profiles[0].instrs.empty();
    ExpectSelftestPasses("file://" + PathOf(name + ".html"), 120, counters_only ? 20 : 50);
    Screenshots(name);
  }
}

}  // namespace
}  // namespace otpu::lens
