// `lens open`: a local HTTP server for the Lens app (docs/lens-app.md). It listens on 127.0.0.1
// only, answers only requests whose Host is 127.0.0.1:PORT or localhost:PORT (421 otherwise),
// serves the page at `/`, the profile file's bytes at `/profile` and an icon at /favicon.ico,
// and answers 404 to every other path.
#ifndef OTPU_LENS_APP_APP_SERVER_H_
#define OTPU_LENS_APP_APP_SERVER_H_

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/unique_fd.h"
#include "lens/app/http_server.h"

namespace otpu::lens {

class AppServer {
 public:
  // Starts serving `page` at / and, unless `profile_path` is empty, the bytes of that file at
  // /profile, on 127.0.0.1:`port` (0 = any free port). The file is opened once, here (or is
  // `profile_fd`, the caller's checked descriptor of it): requests read that file again (a
  // rewrite in place shows on reload). Once that file is replaced (renamed over, as
  // `lens record -o` writes) the path is opened again with the start's checks and no symlink
  // followed, and the new file is served if it is a regular file and a valid profile; else,
  // or when it was removed, a 500 naming the path. DataLoss when it is not a regular file;
  // Unavailable naming the address when it cannot listen.
  static StatusOr<std::unique_ptr<AppServer>> Create(std::string page, std::string profile_path,
                                                     int port, UniqueFd profile_fd = UniqueFd());
  AppServer(const AppServer&) = delete;
  AppServer& operator=(const AppServer&) = delete;
  // Stops the server and joins its thread.
  ~AppServer();

  // The port it listens on.
  int port() const { return port_; }
  // "http://127.0.0.1:PORT/".
  std::string Url() const;
  // Stops serving; Wait() returns. Safe to call more than once and from any thread.
  void Stop();
  // Blocks until the server stops.
  void Wait();

 private:
  AppServer() = default;
  // The served file's bytes, reopening the path once the held file was replaced.
  StatusOr<std::string> ProfileBytes();

  // Answers one request (the routes above).
  HttpResponse Route(const HttpRequest& req);

  std::unique_ptr<HttpServer> server_;
  std::string page_;
  std::string profile_path_;
  std::mutex profile_mu_;  // guards profile_fd_
  UniqueFd profile_fd_;    // the file last checked at profile_path_
  int port_ = 0;
};

// The address the server binds: loopback only, never a public interface.
inline constexpr const char* kAppServerHost = "127.0.0.1";
// Limits of one connection (docs/lens-app.md, http_server.h): header fields and head bytes
// (431 past them), body bytes (413), the seconds from accept to the whole request, and the
// connections open at once (overall and from one address).
inline constexpr size_t kMaxHeaders = 100;
inline constexpr size_t kMaxHeadBytes = 16 * 1024;
inline constexpr size_t kMaxBodyBytes = 64 * 1024;
inline constexpr int kIoTimeoutSeconds = 2;
inline constexpr size_t kMaxConnections = 256;
inline constexpr size_t kMaxConnectionsPerClient = 64;

// Opens `url` in the user's browser with the first of `commands` found on PATH (or given as a
// path), detached, output discarded; returns the command used. Unavailable when there is no
// display ($DISPLAY and $WAYLAND_DISPLAY unset) or none of the commands exists.
StatusOr<std::string> OpenBrowser(const std::string& url,
                                  const std::vector<std::string>& commands = {"xdg-open",
                                                                              "chromium"});

}  // namespace otpu::lens

#endif  // OTPU_LENS_APP_APP_SERVER_H_
