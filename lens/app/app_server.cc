#include "lens/app/app_server.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "base/subprocess.h"
#include "lens/file_io.h"
#include "lens/otpuprof.h"
#include "lens/app/html_export.h"

namespace otpu::lens {
namespace {

// Runs `exe url` in its own session, detached (double fork: no zombie, no terminal).
Status SpawnDetached(const std::string& exe, const std::string& url) {
  SubprocessOptions options;
  options.argv = {exe, url};
  options.out = Stream::Null();
  options.err = Stream::Null();
  options.new_session = true;
  return StartDetached(options);
}

// A small icon, so a browser's automatic /favicon.ico request is not a 404 in its console.
constexpr char kFavicon[] =
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>"
    "<circle cx='8' cy='8' r='6' fill='none' stroke='#2a6ebb' stroke-width='3'/></svg>";

// Whether `host` (the Host header) names this server: 127.0.0.1:PORT or localhost:PORT. A page
// of another site that rebinds its DNS name to 127.0.0.1 sends its own name and is refused.
bool IsOwnHost(std::string host, int port) {
  for (char& c : host) c = char(std::tolower(static_cast<unsigned char>(c)));
  const std::string p = ":" + std::to_string(port);
  return host == kAppServerHost + p || host == "localhost" + p;
}

// Opens `path` again after the served file was replaced (`lens record -o` renames a new file
// over the old one), with the checks `lens open` made at start plus no symlink: the final
// component is not followed, it must be a regular file and read as a valid profile. The new
// descriptor and its bytes, or an error naming the path.
StatusOr<std::string> Reopen(const std::string& path, UniqueFd* fd) {
  UniqueFd reopened(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (!reopened.valid()) {
    if (errno == ELOOP) return DataLoss(path + ": replaced by a symlink; not served");
    if (errno == ENOENT) return NotFound(path + ": removed since lens open started");
    return Internal(path + ": cannot reopen: " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(reopened.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return DataLoss(path + ": replaced by something that is not a regular file; not served");
  }
  ASSIGN_OR_RETURN(std::string bytes, ReadWholeFd(reopened.get(), path));
  if (StatusOr<ProfileFile> read = ReadBytes(bytes, path); !read.ok()) {
    return DataLoss(path + ": replaced by a file that is not a valid profile; not served (" +
                    read.status().message() + ")");
  }
  *fd = std::move(reopened);
  return bytes;
}

}  // namespace

StatusOr<std::unique_ptr<AppServer>> AppServer::Create(std::string page, std::string profile_path,
                                                       int port, UniqueFd profile_fd) {
  if (port < 0 || port > 65535) {
    return InvalidArgument("port " + std::to_string(port) + ": expected 0 (any free port) to 65535");
  }
  std::unique_ptr<AppServer> s(new AppServer());
  s->page_ = std::move(page);
  s->profile_path_ = std::move(profile_path);
  if (!s->profile_path_.empty() && !profile_fd.valid()) {
    ASSIGN_OR_RETURN(profile_fd, OpenRegularFile(s->profile_path_));
  }
  s->profile_fd_ = std::move(profile_fd);
  HttpLimits limits;
  limits.max_head_bytes = kMaxHeadBytes;
  limits.max_fields = kMaxHeaders;
  limits.max_body_bytes = kMaxBodyBytes;
  limits.read_deadline = std::chrono::seconds(kIoTimeoutSeconds);
  limits.max_connections = kMaxConnections;
  limits.max_per_client = kMaxConnectionsPerClient;
  AppServer* self = s.get();
  ASSIGN_OR_RETURN(s->server_,
                   HttpServer::Listen(kAppServerHost, port,
                                      [self](const HttpRequest& r) { return self->Route(r); },
                                      limits));
  s->port_ = s->server_->port();
  return s;
}

HttpResponse AppServer::Route(const HttpRequest& req) {
  // DNS-rebinding guard: only our own address may be asked for.
  if (!IsOwnHost(req.host, port_)) {
    return {421, "text/plain", {},
            "Host must be 127.0.0.1:" + std::to_string(port_) + " or localhost:" +
                std::to_string(port_)};
  }
  const std::string path = req.target.substr(0, req.target.find('?'));
  if (req.method != "GET") return {405, "text/plain", {{"Allow", "GET"}}, "only GET is served"};
  if (path == "/favicon.ico") {
    return {200, "image/svg+xml", {{"Cache-Control", "max-age=86400"}}, kFavicon};
  }
  if (path == "/") return {200, "text/html; charset=utf-8", {{"Cache-Control", "no-store"}}, page_};
  if (path != "/profile") return {404, "text/plain", {}, "not found"};
  if (profile_path_.empty()) {
    return {404, "text/plain", {{"Cache-Control", "no-store"}},
            "no profile: lens open was started without a FILE"};
  }
  StatusOr<std::string> bytes = ProfileBytes();
  if (!bytes.ok()) return {500, "text/plain", {{"Cache-Control", "no-store"}}, bytes.status().message()};
  return {200,
          "application/octet-stream",
          {{"Cache-Control", "no-store"},
           {"X-Lens-File", std::filesystem::path(profile_path_).filename().string()}},
          std::move(bytes).value()};
}

StatusOr<std::string> AppServer::ProfileBytes() {
  std::lock_guard<std::mutex> lock(profile_mu_);
  struct stat st {};
  if (::fstat(profile_fd_.get(), &st) != 0) return Internal(profile_path_ + ": cannot stat the opened file");
  // A link count of 0: the path no longer names the file checked at start (removed, or a
  // re-record renamed a new file over it). Only then is the path opened again.
  if (st.st_nlink == 0) return Reopen(profile_path_, &profile_fd_);
  return ReadWholeFd(profile_fd_.get(), profile_path_);
}

AppServer::~AppServer() {
  server_.reset();  // its thread runs Route, which reads the members below it
}

std::string AppServer::Url() const {
  return "http://" + std::string(kAppServerHost) + ":" + std::to_string(port_) + "/";
}

void AppServer::Stop() {
  if (server_) server_->Stop();
}

void AppServer::Wait() {
  if (server_) server_->Wait();
}

StatusOr<std::string> OpenBrowser(const std::string& url, const std::vector<std::string>& commands) {
  const char* x = std::getenv("DISPLAY");
  const char* wl = std::getenv("WAYLAND_DISPLAY");
  if ((!x || !*x) && (!wl || !*wl)) {
    return Unavailable("no display ($DISPLAY and $WAYLAND_DISPLAY are unset): open " + url +
                       " in a browser");
  }
  std::string tried;
  for (const std::string& c : commands) {
    std::string exe = FindExecutable(c);
    if (exe.empty()) {
      tried += (tried.empty() ? "" : ", ") + c;
      continue;
    }
    RETURN_IF_ERROR(SpawnDetached(exe, url));
    return exe;
  }
  return Unavailable("no browser found (tried " + tried + "): open " + url + " in a browser");
}

}  // namespace otpu::lens
