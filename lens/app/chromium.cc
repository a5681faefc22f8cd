#include "lens/app/chromium.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "rapidjson/document.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

namespace otpu::lens {
namespace {

using Clock = std::chrono::steady_clock;

std::string JsonString(std::string_view s) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  w.String(s.data(), rapidjson::SizeType(s.size()));
  return buf.GetString();
}

std::string ToJson(const rapidjson::Value& v) {
  rapidjson::StringBuffer buf;
  rapidjson::Writer<rapidjson::StringBuffer> w(buf);
  v.Accept(w);
  return buf.GetString();
}

double SecondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

std::string Base64Decode(std::string_view text) {
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : text) {
    int v = c >= 'A' && c <= 'Z'   ? c - 'A'
            : c >= 'a' && c <= 'z' ? c - 'a' + 26
            : c >= '0' && c <= '9' ? c - '0' + 52
            : c == '+'             ? 62
            : c == '/'             ? 63
                                   : -1;
    if (v < 0) continue;
    acc = (acc << 6 | uint32_t(v)) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += char((acc >> bits) & 0xFF);
    }
  }
  return out;
}

StatusOr<std::unique_ptr<HeadlessChromium>> HeadlessChromium::Start(const std::string& binary,
                                                                    int width, int height) {
  if (::access(binary.c_str(), X_OK) != 0) {
    return Unavailable(binary + ": " + std::strerror(errno) + " (install Debian's chromium)");
  }
  std::unique_ptr<HeadlessChromium> c(new HeadlessChromium());
  c->width_ = width;
  c->height_ = height;
  std::string tmpl = (std::filesystem::temp_directory_path() / "otpu-chromium.XXXXXX").string();
  if (!::mkdtemp(tmpl.data())) return Internal(tmpl + ": " + std::strerror(errno));
  c->dir_ = tmpl;
  int to[2], from[2];
  if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0) {
    return Internal("cannot create the DevTools pipes: " + std::string(std::strerror(errno)));
  }
  SubprocessOptions options;
  options.argv = {binary,
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-quic",
                  "--no-first-run",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--disable-extensions",
                  "--mute-audio",
                  "--hide-scrollbars",
                  "--user-data-dir=" + c->dir_ + "/profile",
                  "--remote-debugging-pipe",
                  "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                  "about:blank"};
  options.env = {"DBUS_SESSION_BUS_ADDRESS=disabled:"};
  options.fds = {{to[0], 3}, {from[1], 4}};  // --remote-debugging-pipe reads 3, writes 4
  options.out = Stream::Null();
  options.err = Stream::File(c->dir_ + "/chromium.log");
  options.own_process_group = true;  // its renderers and helpers share a group Stop can end
  StatusOr<std::unique_ptr<Subprocess>> process = Subprocess::Start(options);
  ::close(to[0]);
  ::close(from[1]);
  c->to_ = to[1];
  c->from_ = from[0];
  if (!process.ok()) return Unavailable(process.status().message());
  c->process_ = std::move(process).value();

  StatusOr<std::string> target = c->Call("Target.createTarget", R"({"url":"about:blank"})", false, 30);
  if (!target.ok()) return Unavailable(binary + " did not answer on its DevTools pipe: " + target.status().message());
  rapidjson::Document t;
  t.Parse(target->c_str());
  if (!t.IsObject() || !t.HasMember("targetId")) return Unavailable(binary + ": no targetId in " + *target);
  StatusOr<std::string> attached = c->Call(
      "Target.attachToTarget",
      R"({"flatten":true,"targetId":)" + JsonString(t["targetId"].GetString()) + "}", false, 30);
  if (!attached.ok()) return attached.status();
  rapidjson::Document a;
  a.Parse(attached->c_str());
  if (!a.IsObject() || !a.HasMember("sessionId")) return Unavailable(binary + ": no sessionId in " + *attached);
  c->session_ = a["sessionId"].GetString();
  for (const char* domain : {"Runtime.enable", "Page.enable"}) {
    RETURN_IF_ERROR(c->Call(domain, "{}", true, 30).status());
  }
  RETURN_IF_ERROR(c->Call("Emulation.setDeviceMetricsOverride",
                          "{\"width\":" + std::to_string(width) + ",\"height\":" +
                              std::to_string(height) + ",\"deviceScaleFactor\":1,\"mobile\":false}",
                          true, 30)
                      .status());
  return c;
}

Status HeadlessChromium::SetViewport(int width, int height) {
  width_ = width;
  height_ = height;
  return Call("Emulation.setDeviceMetricsOverride",
              "{\"width\":" + std::to_string(width) + ",\"height\":" + std::to_string(height) +
                  ",\"deviceScaleFactor\":1,\"mobile\":false}",
              true, 30)
      .status();
}

Status HeadlessChromium::PressKey(const std::string& key, int modifiers) {
  // Named keys send no text; a printable one sends itself as text (so keypress/input happen).
  static const std::pair<const char*, int> kNamed[] = {{"Enter", 13}, {"Escape", 27}, {"Tab", 9},
                                                       {"ArrowLeft", 37}, {"ArrowRight", 39}};
  int code = 0;
  for (const auto& [name, c] : kNamed) {
    if (key == name) code = c;
  }
  std::string text = code == 13 ? "\\r" : code ? "" : key;
  if (text == "\"" || text == "\\") text = "\\" + text;
  std::string common = "\"key\":\"" + (key == "\"" || key == "\\" ? "\\" + key : key) +
                       "\",\"modifiers\":" + std::to_string(modifiers) +
                       (code ? ",\"windowsVirtualKeyCode\":" + std::to_string(code) : std::string());
  StatusOr<std::string> down = Call("Input.dispatchKeyEvent",
                                    "{\"type\":\"keyDown\"," + common + (text.empty() ? "" : ",\"text\":\"" + text + "\"") + "}", true, 30);
  if (!down.ok()) return down.status();
  return Call("Input.dispatchKeyEvent", "{\"type\":\"keyUp\"," + common + "}", true, 30).status();
}

Status HeadlessChromium::AllowDownloads(const std::string& dir) {
  return Call("Browser.setDownloadBehavior",
              "{\"behavior\":\"allow\",\"downloadPath\":" + JsonString(dir) + ",\"eventsEnabled\":false}", false, 30)
      .status();
}

Status HeadlessChromium::GrantClipboard(const std::string& origin) {
  return Call("Browser.grantPermissions",
              "{\"origin\":" + JsonString(origin) + ",\"permissions\":[\"clipboardReadWrite\",\"clipboardSanitizedWrite\"]}",
              false, 30)
      .status();
}

Status HeadlessChromium::Click(double x, double y) {
  for (const char* type : {"mousePressed", "mouseReleased"}) {
    StatusOr<std::string> r = Call("Input.dispatchMouseEvent",
                                   std::string("{\"type\":\"") + type + "\",\"x\":" + std::to_string(x) + ",\"y\":" +
                                       std::to_string(y) + ",\"button\":\"left\",\"buttons\":1,\"clickCount\":1}",
                                   true, 30);
    if (!r.ok()) return r.status();
  }
  return OkStatus();
}

HeadlessChromium::~HeadlessChromium() {
  if (process_ && to_ >= 0) {
    // Ask it to close, without waiting for an answer it may never send while shutting down.
    static constexpr char kClose[] = "{\"id\":999999,\"method\":\"Browser.close\",\"params\":{}}";
    (void)!::write(to_, kClose, sizeof kClose);  // sizeof counts the '\0' that ends a message
  }
  if (to_ >= 0) ::close(to_);
  if (from_ >= 0) ::close(from_);
  if (process_) process_->Stop(0, 3);  // then SIGKILL, its whole group
  if (!dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

bool HeadlessChromium::ReadMessage(double timeout_s, std::string* message) {
  Clock::time_point t0 = Clock::now();
  while (true) {
    size_t end = buffer_.find('\0');
    if (end != std::string::npos) {
      *message = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      return true;
    }
    double left = timeout_s - SecondsSince(t0);
    if (left <= 0) return false;
    pollfd p{from_, POLLIN, 0};
    int r = ::poll(&p, 1, int(left * 1000) + 1);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    char buf[1 << 16];
    ssize_t n = ::read(from_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    buffer_.append(buf, size_t(n));
  }
}

void HeadlessChromium::HandleEvent(const std::string& message) {
  rapidjson::Document d;
  d.Parse(message.c_str());
  if (!d.IsObject() || !d.HasMember("method") || !d["method"].IsString()) return;
  const std::string method = d["method"].GetString();
  if (method == "Page.loadEventFired") {
    loaded_ = true;
  } else if (method == "Runtime.exceptionThrown" && d.HasMember("params")) {
    const rapidjson::Value& e = d["params"]["exceptionDetails"];
    std::string text = e.HasMember("text") ? e["text"].GetString() : "exception";
    if (e.HasMember("exception") && e["exception"].HasMember("description")) {
      text += " " + std::string(e["exception"]["description"].GetString());
    }
    errors_.push_back(text);
  } else if (method == "Runtime.consoleAPICalled" && d.HasMember("params")) {
    const rapidjson::Value& p = d["params"];
    if (std::string(p["type"].GetString()) != "error") return;
    std::string text = "console.error:";
    for (const rapidjson::Value& arg : p["args"].GetArray()) {
      text += " " + (arg.HasMember("value") ? (arg["value"].IsString() ? std::string(arg["value"].GetString()) : ToJson(arg["value"]))
                     : arg.HasMember("description") ? std::string(arg["description"].GetString()) : std::string("?"));
    }
    errors_.push_back(text);
  }
}

StatusOr<std::string> HeadlessChromium::Call(const std::string& method,
                                             const std::string& params_json, bool session,
                                             double timeout_s) {
  const int id = next_id_++;
  std::string msg = "{\"id\":" + std::to_string(id) + ",\"method\":" + JsonString(method) +
                    ",\"params\":" + params_json +
                    (session ? ",\"sessionId\":" + JsonString(session_) : "") + "}";
  msg += '\0';
  std::string_view rest = msg;
  while (!rest.empty()) {
    ssize_t n = ::write(to_, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Unavailable(method + ": chromium's DevTools pipe is closed");
    rest.remove_prefix(size_t(n));
  }
  Clock::time_point t0 = Clock::now();
  std::string answer;
  while (true) {
    double left = timeout_s - SecondsSince(t0);
    if (left <= 0 || !ReadMessage(left, &answer)) {
      return DeadlineExceeded(method + ": no answer from chromium within " + std::to_string(int(timeout_s)) + " s");
    }
    rapidjson::Document d;
    d.Parse(answer.c_str());
    if (!d.IsObject()) continue;
    if (!d.HasMember("id")) {
      HandleEvent(answer);
      continue;
    }
    if (!d["id"].IsInt() || d["id"].GetInt() != id) continue;
    if (d.HasMember("error")) {
      return InvalidArgument(method + ": " + (d["error"].HasMember("message") ? d["error"]["message"].GetString() : "error"));
    }
    return d.HasMember("result") ? ToJson(d["result"]) : std::string("{}");
  }
}

Status HeadlessChromium::Navigate(const std::string& url, double timeout_s) {
  loaded_ = false;
  ASSIGN_OR_RETURN(std::string r, Call("Page.navigate", "{\"url\":" + JsonString(url) + "}", true, timeout_s));
  rapidjson::Document d;
  d.Parse(r.c_str());
  if (d.IsObject() && d.HasMember("errorText")) {
    return Unavailable(url + ": " + d["errorText"].GetString());
  }
  Clock::time_point t0 = Clock::now();
  std::string msg;
  while (!loaded_) {
    double left = timeout_s - SecondsSince(t0);
    if (left <= 0 || !ReadMessage(left, &msg)) return DeadlineExceeded(url + ": no load event within " + std::to_string(int(timeout_s)) + " s");
    HandleEvent(msg);
  }
  return OkStatus();
}

StatusOr<std::string> HeadlessChromium::Evaluate(const std::string& expression, double timeout_s) {
  ASSIGN_OR_RETURN(std::string r, Call("Runtime.evaluate",
                                       "{\"expression\":" + JsonString(expression) +
                                           ",\"returnByValue\":true,\"awaitPromise\":true}",
                                       true, timeout_s));
  rapidjson::Document d;
  d.Parse(r.c_str());
  if (!d.IsObject()) return Internal("Runtime.evaluate: unreadable answer " + r);
  if (d.HasMember("exceptionDetails")) {
    const rapidjson::Value& e = d["exceptionDetails"];
    std::string text = e.HasMember("exception") && e["exception"].HasMember("description")
                           ? e["exception"]["description"].GetString()
                           : e["text"].GetString();
    return InvalidArgument("the page threw evaluating `" + expression.substr(0, 80) + "`: " + text);
  }
  const rapidjson::Value& v = d["result"];
  return v.HasMember("value") ? ToJson(v["value"]) : std::string("null");
}

StatusOr<std::string> HeadlessChromium::WaitForString(const std::string& expression, double timeout_s) {
  Clock::time_point t0 = Clock::now();
  while (true) {
    ASSIGN_OR_RETURN(std::string v, Evaluate(expression, std::max(1.0, timeout_s - SecondsSince(t0))));
    rapidjson::Document d;
    d.Parse(v.c_str());
    if (d.IsString() && d.GetStringLength() > 0) return std::string(d.GetString(), d.GetStringLength());
    if (SecondsSince(t0) > timeout_s) {
      return DeadlineExceeded("`" + expression.substr(0, 80) + "` gave no answer within " + std::to_string(int(timeout_s)) + " s");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

Status HeadlessChromium::Screenshot(const std::string& path, int max_height) {
  ASSIGN_OR_RETURN(std::string hv, Evaluate("Math.ceil(document.documentElement.scrollHeight)"));
  int page_h = std::max(height_, std::min(max_height, std::atoi(hv.c_str())));
  ASSIGN_OR_RETURN(std::string r,
                   Call("Page.captureScreenshot",
                        "{\"format\":\"png\",\"captureBeyondViewport\":true,\"clip\":{\"x\":0,\"y\":0,\"width\":" +
                            std::to_string(width_) + ",\"height\":" + std::to_string(page_h) + ",\"scale\":1}}",
                        true, 30));
  rapidjson::Document d;
  d.Parse(r.c_str());
  if (!d.IsObject() || !d.HasMember("data")) return Internal("Page.captureScreenshot: no data");
  std::string png = Base64Decode(std::string_view(d["data"].GetString(), d["data"].GetStringLength()));
  std::ofstream out(path, std::ios::binary);
  out << png;
  if (!out) return Internal(path + ": cannot write the screenshot");
  return OkStatus();
}

}  // namespace otpu::lens
