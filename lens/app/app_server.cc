#include "lens/app/app_server.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fcntl.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <httplib.h>

#include "base/subprocess.h"
#include "lens/file_io.h"
#include "lens/otpuprof.h"
#include "lens/app/html_export.h"

namespace otpu::lens {
namespace {

// `command` if it is a path, else its first executable match on PATH; empty when none.
std::string FindExecutable(const std::string& command) {
  if (command.find('/') != std::string::npos) {
    return ::access(command.c_str(), X_OK) == 0 ? command : "";
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(begin, end - begin);
    std::string full = (dir.empty() ? "." : dir) + "/" + command;
    if (::access(full.c_str(), X_OK) == 0) return full;
    begin = end + 1;
  }
  return "";
}

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
  s->server_ = std::make_unique<httplib::Server>();
  httplib::Server& srv = *s->server_;
  // httplib's default adds SO_REUSEPORT, which would let a second `lens open --port N` share the
  // port silently; SO_REUSEADDR alone still allows a quick restart.
  srv.set_socket_options([](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  AppServer* self = s.get();
  // No keep-alive: an idle kept-alive connection holds a worker, and Stop() waits for it.
  srv.set_keep_alive_max_count(1);
  // A client that stops sending (or trickles) gives up its worker after kIoTimeoutSeconds per
  // read; requests are GETs, so a body is refused past a few KiB.
  srv.set_read_timeout(kIoTimeoutSeconds, 0);
  srv.set_write_timeout(kIoTimeoutSeconds, 0);
  srv.set_payload_max_length(kMaxBodyBytes);
  srv.set_pre_routing_handler([self](const httplib::Request& req, httplib::Response& res) {
    if (req.headers.size() > kMaxHeaders) {
      res.status = 431;
      res.set_content("more than " + std::to_string(kMaxHeaders) + " header fields",
                      "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    }
    // DNS-rebinding guard: only our own address may be asked for.
    if (!IsOwnHost(req.get_header_value("Host"), self->port_)) {
      res.status = 421;
      res.set_content("Host must be 127.0.0.1:" + std::to_string(self->port_) + " or localhost:" +
                          std::to_string(self->port_),
                      "text/plain");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  srv.Get("/favicon.ico", [](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "max-age=86400");
    res.set_content(kFavicon, "image/svg+xml");
  });
  srv.Get("/", [self](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(self->page_, "text/html; charset=utf-8");
  });
  srv.Get("/profile", [self](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    if (self->profile_path_.empty()) {
      res.status = 404;
      res.set_content("no profile: lens open was started without a FILE", "text/plain");
      return;
    }
    StatusOr<std::string> bytes = self->ProfileBytes();
    if (!bytes.ok()) {
      res.status = 500;
      res.set_content(bytes.status().message(), "text/plain");
      return;
    }
    res.set_header("X-Lens-File",
                   std::filesystem::path(self->profile_path_).filename().string());
    res.set_content(std::move(bytes).value(), "application/octet-stream");
  });
  const std::string where = std::string(kAppServerHost) + ":" + std::to_string(port);
  if (port == 0) {
    s->port_ = srv.bind_to_any_port(kAppServerHost);
    if (s->port_ <= 0) return Unavailable(where + ": cannot listen on any free port");
  } else {
    if (!srv.bind_to_port(kAppServerHost, port)) {
      return Unavailable(where + ": cannot listen (is the port in use? try --port 0)");
    }
    s->port_ = port;
  }
  s->thread_ = std::thread([self] { self->server_->listen_after_bind(); });
  // Stop() before the loop runs would be lost: wait until it does (microseconds in practice).
  for (int i = 0; i < 5000 && !srv.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return s;
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
  Stop();
  if (thread_.joinable()) thread_.join();
}

std::string AppServer::Url() const {
  return "http://" + std::string(kAppServerHost) + ":" + std::to_string(port_) + "/";
}

void AppServer::Stop() {
  if (server_) server_->stop();
}

void AppServer::Wait() {
  if (thread_.joinable()) thread_.join();
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
