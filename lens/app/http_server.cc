#include "lens/app/http_server.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include <iterator>
#include <list>
#include <optional>
#include <thread>

namespace otpu::lens {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

}  // namespace

class HttpConnection;

struct HttpServer::Impl {
  asio::io_context io;
  tcp::acceptor acceptor{io};
  HttpHandler handler;
  HttpLimits limits;
  // Open connections, oldest first. Only the server's thread touches it.
  std::list<std::shared_ptr<HttpConnection>> open;
  std::thread thread;

  void Accept();
  // Makes room for a connection from `address` under the caps, then keeps it.
  void Admit(const std::shared_ptr<HttpConnection>& c);
  void Forget(const HttpConnection* c);
};

// One connection: one request read under a deadline counted from accept, one response.
class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(tcp::socket socket, HttpServer::Impl* server)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        buffer_(server->limits.max_head_bytes + server->limits.max_body_bytes + 4096),
        server_(server) {
    beast::error_code ec;
    const tcp::endpoint peer = socket_.remote_endpoint(ec);
    if (!ec) address_ = peer.address().to_string();
  }

  const std::string& address() const { return address_; }
  bool reading() const { return reading_ && !closed_; }
  bool closed() const { return closed_; }

  void Start() {
    parser_.emplace();
    parser_->header_limit(uint32_t(server_->limits.max_head_bytes));
    parser_->body_limit(server_->limits.max_body_bytes);
    Arm(server_->limits.read_deadline);
    http::async_read(socket_, buffer_, *parser_,
                     [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  // Closes the socket; the pending operations end with operation_aborted and let go of it.
  void Close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ignored;
    timer_.cancel();
    socket_.shutdown(tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
  }

 private:
  void Arm(std::chrono::milliseconds deadline) {
    timer_.expires_after(deadline);
    timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
      if (ec) return;  // re-armed or cancelled
      self->Close();
      self->Done();
    });
  }

  void OnRead(beast::error_code ec) {
    if (ec == http::error::header_limit) {
      return Respond({431, "text/plain", {},
                      "request head over " + std::to_string(server_->limits.max_head_bytes) +
                          " bytes"});
    }
    if (ec == http::error::body_limit || ec == http::error::buffer_overflow) {
      return Respond({413, "text/plain", {},
                      "request body over " + std::to_string(server_->limits.max_body_bytes) +
                          " bytes"});
    }
    if (ec) {
      Close();
      return Done();
    }
    const http::request<http::string_body>& req = parser_->get();
    HttpRequest r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    r.host = std::string(req[http::field::host]);
    r.fields = size_t(std::distance(req.begin(), req.end()));
    if (r.fields > server_->limits.max_fields) {
      return Respond({431, "text/plain", {},
                      "more than " + std::to_string(server_->limits.max_fields) +
                          " header fields"});
    }
    Respond(server_->handler(r));
  }

  void Respond(HttpResponse r) {
    reading_ = false;
    auto res = std::make_shared<http::response<http::string_body>>();
    res->version(11);
    res->result(unsigned(r.status));
    res->set(http::field::content_type, r.content_type);
    for (const auto& [name, value] : r.headers) res->set(name, value);
    res->keep_alive(false);
    res->body() = std::move(r.body);
    res->prepare_payload();
    Arm(server_->limits.write_deadline);
    http::async_write(socket_, *res, [self = shared_from_this(), res](beast::error_code ec, size_t) {
      if (ec) {
        self->Close();
        return self->Done();
      }
      self->Linger();
    });
  }

  // After the response: end our side, then read and drop what the client still sends for a
  // moment before closing. Closing a socket with unread input sends a reset, which can reach
  // the client before it has read the response (a 431 to a client still sending its head).
  void Linger() {
    beast::error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    Arm(std::chrono::milliseconds(500));
    Drain();
  }

  void Drain() {
    socket_.async_read_some(asio::buffer(scratch_),
                            [self = shared_from_this()](beast::error_code ec, size_t) {
                              if (!ec) return self->Drain();
                              self->Close();
                              self->Done();
                            });
  }

  // Leaves the server's list (once).
  void Done() {
    if (done_) return;
    done_ = true;
    server_->Forget(this);
  }

  tcp::socket socket_;
  asio::steady_timer timer_;
  char scratch_[4096];  // what Drain drops
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  HttpServer::Impl* server_;
  std::string address_;
  bool reading_ = true;
  bool closed_ = false;
  bool done_ = false;
};

void HttpServer::Impl::Accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (!acceptor.is_open()) return;
    if (!ec) {
      auto c = std::make_shared<HttpConnection>(std::move(socket), this);
      Admit(c);
      c->Start();
    }
    Accept();
  });
}

void HttpServer::Impl::Admit(const std::shared_ptr<HttpConnection>& c) {
  // The oldest connection still being read is the nearest to its deadline anyway: closing it
  // makes room without touching a response under way.
  auto close_oldest_reading = [this](const std::string* address) {
    for (const std::shared_ptr<HttpConnection>& o : open) {
      if (o->reading() && (!address || o->address() == *address)) {
        o->Close();
        return;
      }
    }
  };
  size_t live = 0, same = 0;
  for (const std::shared_ptr<HttpConnection>& o : open) {
    if (o->closed()) continue;
    ++live;
    same += o->address() == c->address();
  }
  if (same >= limits.max_per_client) {
    close_oldest_reading(&c->address());
    --live;
  }
  if (live >= limits.max_connections) close_oldest_reading(nullptr);
  open.push_back(c);
}

void HttpServer::Impl::Forget(const HttpConnection* c) {
  open.remove_if([c](const std::shared_ptr<HttpConnection>& o) { return o.get() == c; });
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

StatusOr<std::unique_ptr<HttpServer>> HttpServer::Listen(const std::string& address, int port,
                                                         HttpHandler handler, HttpLimits limits) {
  const std::string where = address + ":" + std::to_string(port);
  auto impl = std::make_unique<Impl>();
  impl->handler = std::move(handler);
  impl->limits = limits;
  beast::error_code ec;
  const asio::ip::address ip = asio::ip::make_address(address, ec);
  if (ec) return InvalidArgument(where + ": not an address");
  const tcp::endpoint endpoint(ip, uint16_t(port));
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) {
    return Unavailable(port == 0 ? where + ": cannot listen on any free port"
                                 : where + ": cannot listen (is the port in use? try --port 0)");
  }
  std::unique_ptr<HttpServer> s(new HttpServer(std::move(impl)));
  s->port_ = s->impl_->acceptor.local_endpoint().port();
  s->impl_->Accept();
  Impl* i = s->impl_.get();
  i->thread = std::thread([i] { i->io.run(); });
  return s;
}

HttpServer::~HttpServer() {
  Stop();
  Wait();
}

void HttpServer::Stop() {
  Impl* i = impl_.get();
  asio::post(i->io, [i] {
    beast::error_code ignored;
    i->acceptor.close(ignored);
    for (const std::shared_ptr<HttpConnection>& c : i->open) c->Close();
    i->io.stop();
  });
}

void HttpServer::Wait() {
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace otpu::lens
