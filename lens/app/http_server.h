// A small HTTP/1.1 server for `lens open` (Boost.Beast over one asio thread), bounded against
// slow, idle and oversized clients: each connection has a deadline counted from accept for its
// whole request (a client trickling a byte a second cannot hold it longer), the request head and
// body have size caps (431 and 413), and open connections are capped overall and per client
// address (the oldest still being read is closed to make room). One request per connection.
// cpp-httplib 0.11, which this replaces, bounds only each read, serves with 8 workers that idle
// clients can all hold, and reads a request line of any length.
#ifndef OTPU_LENS_APP_HTTP_SERVER_H_
#define OTPU_LENS_APP_HTTP_SERVER_H_

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace otpu::lens {

// What one connection may take.
struct HttpLimits {
  size_t max_head_bytes = 16 * 1024;  // request line and header fields (431 past it)
  size_t max_fields = 100;            // header fields (431 past it)
  size_t max_body_bytes = 64 * 1024;  // request body (413 past it)
  std::chrono::milliseconds read_deadline{2000};   // from accept to the whole request
  std::chrono::milliseconds write_deadline{60000};  // for the whole response
  size_t max_connections = 256;       // open at once
  size_t max_per_client = 64;         // open at once from one address
};

struct HttpRequest {
  std::string method;  // "GET", ...
  std::string target;  // "/profile"
  std::string host;    // the Host header
  size_t fields = 0;   // header fields
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain";
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// Answers one request; runs on the server's thread.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpConnection;

class HttpServer {
 public:
  // Listens on `address`:`port` (0: any free port; SO_REUSEADDR, not SO_REUSEPORT, so a second
  // server cannot share a port) and serves on a thread of its own. Unavailable naming the
  // address when it cannot listen.
  static StatusOr<std::unique_ptr<HttpServer>> Listen(const std::string& address, int port,
                                                      HttpHandler handler, HttpLimits limits = {});
  ~HttpServer();  // stops and joins
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  int port() const { return port_; }
  // Stops accepting and closes every connection; Wait returns. Any thread, more than once.
  void Stop();
  // Blocks until the server stops.
  void Wait();

 private:
  friend class HttpConnection;
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  int port_ = 0;
};

}  // namespace otpu::lens

#endif  // OTPU_LENS_APP_HTTP_SERVER_H_
