// `lens open`'s server under slow, idle, many and oversized clients: real sockets on 127.0.0.1
// against the real AppServer, bounded in count and time.
#include "lens/app/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "base/unique_fd.h"
#include "lens/app/app_server.h"

namespace otpu::lens {
namespace {

using Clock = std::chrono::steady_clock;

// A connected socket to 127.0.0.1:`port` (invalid when the connect failed).
UniqueFd Connect(int port) {
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(uint16_t(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) fd.Reset();
  return fd;
}

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::unique_ptr<AppServer> Start() {
  StatusOr<std::unique_ptr<AppServer>> s = AppServer::Create("the page", "", 0);
  EXPECT_TRUE(s.ok()) << s.status().message();
  return s.ok() ? std::move(s).value() : nullptr;
}

// A normal GET, and how long it took.
std::pair<httplib::Result, double> TimedGet(int port) {
  const Clock::time_point start = Clock::now();
  httplib::Client client(kAppServerHost, port);
  client.set_read_timeout(10, 0);
  httplib::Result r = client.Get("/");
  return {std::move(r), SecondsSince(start)};
}

// 8 clients sending a byte a second plus 50 idle ones held all of cpp-httplib's 8 workers.
TEST(HttpServer, SlowAndIdleClientsDoNotLockOutANormalGet) {
  auto s = Start();
  ASSERT_TRUE(s);
  std::atomic<bool> stop{false};
  std::vector<std::thread> slow;
  for (int i = 0; i < 8; ++i) {
    slow.emplace_back([&, port = s->port()] {
      UniqueFd fd = Connect(port);
      const std::string req = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
      for (size_t k = 0; !stop && fd.valid(); ++k) {  // a byte a second, never finishing
        if (::send(fd.get(), &req[k % req.size()], 1, MSG_NOSIGNAL) != 1) break;
        for (int t = 0; t < 10 && !stop; ++t) std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    });
  }
  std::vector<UniqueFd> idle;
  for (int i = 0; i < 50; ++i) idle.push_back(Connect(s->port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // all accepted before the GET
  auto [r, seconds] = TimedGet(s->port());
  stop = true;
  for (std::thread& t : slow) t.join();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, "the page");
  EXPECT_LT(seconds, 2.0);
  std::printf("a GET behind 8 slow and 50 idle clients: %.3f s\n", seconds);
}

// 500 idle connections: past the caps the oldest are closed, and a GET still gets through.
TEST(HttpServer, FiveHundredIdleConnectionsDoNotLockOutANormalGet) {
  auto s = Start();
  ASSERT_TRUE(s);
  std::vector<UniqueFd> idle;
  for (int i = 0; i < 500; ++i) idle.push_back(Connect(s->port()));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  auto [r, seconds] = TimedGet(s->port());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_LT(seconds, 2.0);
  std::printf("a GET behind 500 idle clients: %.3f s\n", seconds);
}

// A 100 MB request line was read to its end.
TEST(HttpServer, AnOversizedRequestHeadIs431BeforeItEnds) {
  auto s = Start();
  ASSERT_TRUE(s);
  UniqueFd fd = Connect(s->port());
  ASSERT_TRUE(fd.valid());
  const Clock::time_point start = Clock::now();
  const std::string chunk = "GET /" + std::string(1 << 20, 'a');
  size_t sent = 0;
  for (int i = 0; i < 100; ++i) {  // up to 100 MB; the server stops reading long before
    const ssize_t n = ::send(fd.get(), chunk.data(), chunk.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0) break;
    sent += size_t(n);
  }
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd.get(), buf, sizeof buf, 0)) > 0;) out.append(buf, size_t(n));
  EXPECT_EQ(out.rfind("HTTP/1.1 431", 0), 0u) << out;
  EXPECT_LT(sent, size_t{100} << 20);
  EXPECT_LT(SecondsSince(start), 2.0);
}

// A client that connects and sends nothing is closed at the deadline, not kept.
TEST(HttpServer, AnIdleConnectionIsClosedAtTheDeadline) {
  auto s = Start();
  ASSERT_TRUE(s);
  UniqueFd fd = Connect(s->port());
  ASSERT_TRUE(fd.valid());
  const Clock::time_point start = Clock::now();
  char c;
  EXPECT_EQ(::recv(fd.get(), &c, 1, 0), 0);  // closed by the server
  EXPECT_LT(SecondsSince(start), kIoTimeoutSeconds + 1.0);
  EXPECT_GT(SecondsSince(start), kIoTimeoutSeconds - 0.5);
}

// The deadline counts from accept: a client trickling a byte every 100 ms is closed at it.
TEST(HttpServer, ATricklingClientIsClosedAtTheDeadlineCountedFromAccept) {
  auto s = Start();
  ASSERT_TRUE(s);
  UniqueFd fd = Connect(s->port());
  ASSERT_TRUE(fd.valid());
  const Clock::time_point start = Clock::now();
  const std::string req = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
  for (size_t k = 0; SecondsSince(start) < kIoTimeoutSeconds + 2.0; ++k) {
    if (::send(fd.get(), &req[k % req.size()], 1, MSG_NOSIGNAL) != 1) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_LT(SecondsSince(start), kIoTimeoutSeconds + 1.0);
}

// A body past the cap is 413.
TEST(HttpServer, ABodyPastTheCapIs413) {
  auto s = Start();
  ASSERT_TRUE(s);
  httplib::Client client(kAppServerHost, s->port());
  httplib::Result r = client.Post("/", std::string(kMaxBodyBytes + 1, 'x'), "text/plain");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
}

}  // namespace
}  // namespace otpu::lens
