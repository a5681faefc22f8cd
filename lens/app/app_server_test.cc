#include "lens/app/app_server.h"

#include <gtest/gtest.h>
#include <httplib.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "lens/app/page.h"
#include "lens/otpuprof.h"
#include "lens/synthetic.h"

namespace otpu::lens {
namespace {

namespace fs = std::filesystem;

class AppServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "app_server_test.XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string PathOf(const std::string& name) const { return (dir_ / name).string(); }
  void Spit(const std::string& path, const std::string& data) const {
    std::ofstream(path, std::ios::binary) << data;
  }
  std::unique_ptr<AppServer> Start(const std::string& profile) {
    StatusOr<std::unique_ptr<AppServer>> s = AppServer::Create(std::string(AppPage()), profile, 0);
    EXPECT_TRUE(s.ok()) << s.status().message();
    return s.ok() ? std::move(s).value() : nullptr;
  }
  static std::string Slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  static httplib::Result Get(const AppServer& s, const std::string& path) {
    httplib::Client client(kAppServerHost, s.port());
    client.set_connection_timeout(5);
    return client.Get(path.c_str());
  }
  // A binary profile-like file: every byte value, gzip magic first.
  std::string BinaryBytes() const {
    std::string b = "\x1f\x8b";
    for (int i = 0; i < 70000; ++i) b += char(i * 31 + 7);
    return b;
  }
  fs::path dir_;
};

TEST_F(AppServerTest, ServesThePageAtRoot) {
  auto s = Start("");
  ASSERT_TRUE(s);
  httplib::Result r = Get(*s, "/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, AppPage());
  EXPECT_NE(r->get_header_value("Content-Type").find("text/html"), std::string::npos);
}

TEST_F(AppServerTest, ServesTheProfileBytesUnchanged) {
  std::string bytes = BinaryBytes();
  Spit(PathOf("run.otpuprof"), bytes);
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  httplib::Result r = Get(*s, "/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, bytes);
  EXPECT_EQ(r->get_header_value("X-Lens-File"), "run.otpuprof");
}

TEST_F(AppServerTest, ReadsTheProfileAtEachRequest) {
  Spit(PathOf("run.otpuprof"), "first");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  EXPECT_EQ(Get(*s, "/profile")->body, "first");
  Spit(PathOf("run.otpuprof"), "second, re-recorded");
  EXPECT_EQ(Get(*s, "/profile")->body, "second, re-recorded");
}

// `lens open` parses the file once, at start (cli::OpenFile); serving it never parses it again
// until the path is replaced.
TEST_F(AppServerTest, ServesTheProfileWithoutParsingIt) {
  ASSERT_TRUE(Write(PathOf("run.otpuprof"), SyntheticFile({ProfileKind::kIsa}, 20)).ok());
  const std::string bytes = Slurp(PathOf("run.otpuprof"));
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  const int64_t before = ProfileFilesParsed();
  EXPECT_EQ(Get(*s, "/profile")->body, bytes);
  EXPECT_EQ(Get(*s, "/profile")->body, bytes);
  EXPECT_EQ(ProfileFilesParsed(), before);
}

TEST_F(AppServerTest, AnswersOtherPathsWith404) {
  Spit(PathOf("run.otpuprof"), "x");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  for (const char* path : {"/index.html", "/profile/x", "/run.otpuprof", "/etc/passwd",
                           "/../run.otpuprof"}) {
    httplib::Result r = Get(*s, path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 404) << path;
    EXPECT_EQ(r->body.find('x'), std::string::npos) << path;
  }
}

// Regression: the browser asks for /favicon.ico on every load; a 404 is a console error.
TEST_F(AppServerTest, ServesAFavicon) {
  auto s = Start("");
  ASSERT_TRUE(s);
  httplib::Result r = Get(*s, "/favicon.ico");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/svg+xml");
}

// Regression: a DNS-rebinding page sends its own name as Host.
TEST_F(AppServerTest, RefusesAForeignHostHeader) {
  Spit(PathOf("run.otpuprof"), "secret");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  const std::string port = std::to_string(s->port());
  for (const std::string& host : std::vector<std::string>{
           "evil.example:" + port, "127.0.0.1", "127.0.0.1:1", "", "localhost.evil.example:" + port}) {
    httplib::Client client(kAppServerHost, s->port());
    httplib::Headers h = {{"Host", host}};
    httplib::Result r = client.Get("/profile", h);
    ASSERT_TRUE(r) << host;
    EXPECT_EQ(r->status, 421) << host;
    EXPECT_EQ(r->body.find("secret"), std::string::npos) << host;
  }
  for (const std::string& host :
       std::vector<std::string>{"127.0.0.1:" + port, "localhost:" + port, "LocalHost:" + port}) {
    httplib::Client client(kAppServerHost, s->port());
    httplib::Result r = client.Get("/profile", httplib::Headers{{"Host", host}});
    ASSERT_TRUE(r) << host;
    EXPECT_EQ(r->status, 200) << host;
  }
}

// Raw bytes to the server on one connection; what it answered (empty if it closed).
std::string RawRequest(int port, const std::string& request, double* seconds = nullptr) {
  httplib::Client probe(kAppServerHost, port);  // only to be sure it listens
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return "connect failed";
  const auto start = std::chrono::steady_clock::now();
  (void)!::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof buf, 0)) > 0;) out.append(buf, size_t(n));
  if (seconds) {
    *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  ::close(fd);
  return out;
}

// Regression: 100,000 headers were accepted.
TEST_F(AppServerTest, TooManyHeadersAre431) {
  auto s = Start("");
  ASSERT_TRUE(s);
  std::string req = "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(s->port()) + "\r\n";
  for (int i = 0; i < 1000; ++i) req += "X-" + std::to_string(i) + ": y\r\n";
  req += "\r\n";
  EXPECT_EQ(RawRequest(s->port(), req).rfind("HTTP/1.1 431", 0), 0u);
}

// Regression: a connection that sends half a request was held for 60 s.
TEST_F(AppServerTest, AStalledRequestIsDroppedAfterTheReadTimeout) {
  auto s = Start("");
  ASSERT_TRUE(s);
  double seconds = 0;
  RawRequest(s->port(), "GET / HTTP/1.1\r\nHost: 127.0.0.1", &seconds);
  EXPECT_LT(seconds, kIoTimeoutSeconds + 3);
}

TEST_F(AppServerTest, ProfileIs404WithoutAFile) {
  auto s = Start("");
  ASSERT_TRUE(s);
  EXPECT_EQ(Get(*s, "/profile")->status, 404);
}

TEST_F(AppServerTest, AVanishedFileIs500NamingIt) {
  Spit(PathOf("run.otpuprof"), "x");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  fs::remove(PathOf("run.otpuprof"));
  httplib::Result r = Get(*s, "/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
  EXPECT_NE(r->body.find(PathOf("run.otpuprof")), std::string::npos) << r->body;
}

// A symlink swapped in after start served /etc/shadow: the path was reopened at each request.
TEST_F(AppServerTest, ASymlinkSwappedAfterStartIsNotFollowed) {
  Spit(PathOf("run.otpuprof"), "the checked profile");
  Spit(PathOf("secret"), "not for the browser");
  fs::create_symlink(PathOf("run.otpuprof"), PathOf("link.otpuprof"));
  auto s = Start(PathOf("link.otpuprof"));
  ASSERT_TRUE(s);
  fs::remove(PathOf("link.otpuprof"));
  fs::create_symlink(PathOf("secret"), PathOf("link.otpuprof"));
  httplib::Result r = Get(*s, "/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "the checked profile");
}

// Re-recording (`lens record -o` renames a new file over the old) and reloading shows the
// new profile. (This replaced a test that wanted a 500 here: it broke that workflow.)
TEST_F(AppServerTest, AProfileRenamedOverTheProfileIsServedAfterItsChecks) {
  Spit(PathOf("run.otpuprof"), "first");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  ASSERT_TRUE(Write(PathOf("new.otpuprof"), ProfileFile()).ok());
  const std::string fresh = Slurp(PathOf("new.otpuprof"));
  fs::rename(PathOf("new.otpuprof"), PathOf("run.otpuprof"));
  httplib::Result r = Get(*s, "/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->body, fresh);
}

TEST_F(AppServerTest, AFileRenamedOverTheProfileThatIsNoProfileIs500NamingIt) {
  Spit(PathOf("run.otpuprof"), "first");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  Spit(PathOf("other"), "never checked");
  fs::rename(PathOf("other"), PathOf("run.otpuprof"));
  httplib::Result r = Get(*s, "/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(r->body.rfind(PathOf("run.otpuprof") + ": replaced by a file that is not a valid "
                                                     "profile; not served", 0),
            0u) << r->body;
  EXPECT_EQ(r->body.find("never checked"), std::string::npos);
}

TEST_F(AppServerTest, ASymlinkRenamedOverTheProfileIs500NamingIt) {
  Spit(PathOf("run.otpuprof"), "first");
  auto s = Start(PathOf("run.otpuprof"));
  ASSERT_TRUE(s);
  ASSERT_TRUE(Write(PathOf("valid.otpuprof"), ProfileFile()).ok());  // valid, but behind a link
  fs::create_symlink(PathOf("valid.otpuprof"), PathOf("link"));
  fs::rename(PathOf("link"), PathOf("run.otpuprof"));
  httplib::Result r = Get(*s, "/profile");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 500);
  EXPECT_EQ(r->body, PathOf("run.otpuprof") + ": replaced by a symlink; not served");
}

TEST_F(AppServerTest, ANonRegularProfileIsRefusedAtStart) {
  ASSERT_EQ(mkfifo(PathOf("fifo").c_str(), 0600), 0);
  StatusOr<std::unique_ptr<AppServer>> s =
      AppServer::Create(std::string(AppPage()), PathOf("fifo"), 0);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(s.status().message(), PathOf("fifo") + ": not a regular file");
}

// The kernel's table of listening TCP sockets: every local address listening on `port`.
std::vector<std::string> ListenersOn(int port) {
  std::vector<std::string> out;
  for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::istringstream f(line);
      std::string slot, local, remote, state;
      f >> slot >> local >> remote >> state;
      size_t colon = local.rfind(':');
      if (state != "0A" || colon == std::string::npos) continue;  // 0A = LISTEN
      if (std::stoi(local.substr(colon + 1), nullptr, 16) == port) out.push_back(local.substr(0, colon));
    }
  }
  return out;
}

TEST_F(AppServerTest, ListensOnLoopbackOnly) {
  auto s = Start("");
  ASSERT_TRUE(s);
  std::vector<std::string> addrs = ListenersOn(s->port());
  ASSERT_EQ(addrs.size(), 1u);
  EXPECT_EQ(addrs[0], "0100007F");  // 127.0.0.1, little-endian hex as /proc shows it
  EXPECT_EQ(s->Url(), "http://127.0.0.1:" + std::to_string(s->port()) + "/");
}

TEST_F(AppServerTest, APortInUseIsUnavailableNamingIt) {
  auto first = Start("");
  ASSERT_TRUE(first);
  StatusOr<std::unique_ptr<AppServer>> second = AppServer::Create("page", "", first->port());
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(second.status().message().find("127.0.0.1:" + std::to_string(first->port())),
            std::string::npos) << second.status().message();
}

TEST_F(AppServerTest, RejectsAPortOutOfRange) {
  StatusOr<std::unique_ptr<AppServer>> s = AppServer::Create("page", "", 70000);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("port 70000"), std::string::npos);
}

TEST_F(AppServerTest, StopEndsWait) {
  auto s = Start("");
  ASSERT_TRUE(s);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    s->Stop();
  });
  s->Wait();
  stopper.join();
  httplib::Client client(kAppServerHost, s->port());
  client.set_connection_timeout(1);
  EXPECT_FALSE(client.Get("/"));
}

class OpenBrowserTest : public AppServerTest {
 protected:
  void SetUp() override {
    AppServerTest::SetUp();
    const char* d = getenv("DISPLAY");
    saved_ = d ? d : "";
    had_ = d != nullptr;
  }
  void TearDown() override {
    if (had_) setenv("DISPLAY", saved_.c_str(), 1); else unsetenv("DISPLAY");
    AppServerTest::TearDown();
  }
  std::string saved_;
  bool had_ = false;
};

TEST_F(OpenBrowserTest, RunsTheFirstCommandFoundWithTheUrl) {
  setenv("DISPLAY", ":99", 1);
  std::string script = PathOf("fake-browser");
  Spit(script, "#!/bin/sh\necho \"$1\" > " + PathOf("opened") + ".tmp && mv " + PathOf("opened") +
                   ".tmp " + PathOf("opened") + "\n");
  fs::permissions(script, fs::perms::owner_all);
  StatusOr<std::string> used = OpenBrowser("http://127.0.0.1:1/", {PathOf("missing"), script});
  ASSERT_TRUE(used.ok()) << used.status().message();
  EXPECT_EQ(*used, script);
  for (int i = 0; i < 200 && !fs::exists(PathOf("opened")); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ifstream in(PathOf("opened"));
  std::string url;
  std::getline(in, url);
  EXPECT_EQ(url, "http://127.0.0.1:1/");
}

TEST_F(OpenBrowserTest, NoDisplaySaysToOpenTheUrl) {
  unsetenv("DISPLAY");
  unsetenv("WAYLAND_DISPLAY");
  StatusOr<std::string> used = OpenBrowser("http://127.0.0.1:5/", {"/bin/true"});
  ASSERT_FALSE(used.ok());
  EXPECT_NE(used.status().message().find("open http://127.0.0.1:5/ in a browser"), std::string::npos);
}

TEST_F(OpenBrowserTest, NoBrowserNamesWhatItTried) {
  setenv("DISPLAY", ":99", 1);
  StatusOr<std::string> used = OpenBrowser("http://x/", {PathOf("a"), "no-such-browser-xyz"});
  ASSERT_FALSE(used.ok());
  EXPECT_NE(used.status().message().find("no-such-browser-xyz"), std::string::npos);
  EXPECT_NE(used.status().message().find(PathOf("a")), std::string::npos);
}

}  // namespace
}  // namespace otpu::lens
