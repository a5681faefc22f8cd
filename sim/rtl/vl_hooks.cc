// Verilator's print and stop hooks (sim/rtl/vl_hooks.h) and the capture they feed
// (sim/rtl/assertions.h).
#include "sim/rtl/vl_hooks.h"

#include <cstdarg>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/rtl/assert_switch.h"
#include "sim/rtl/assertions.h"
#include "verilated.h"

namespace otpu::rtl {
namespace {

thread_local std::vector<AssertionFailure>* t_sink = nullptr;
thread_local const int64_t* t_cycle = nullptr;
// The text of the last "%Error: ... Assertion failed in SCOPE: MESSAGE" printed on this thread:
// Verilator prints it just before it calls vl_stop_maybe for the same assertion.
thread_local std::string t_pending;

constexpr char kFailedIn[] = "Assertion failed in ";
constexpr char kLinePrefix[] = "otpu-rtl: assertion failed: ";

}  // namespace

AssertionCapture::AssertionCapture(std::vector<AssertionFailure>* sink, const int64_t* cycle)
    : prev_sink_(t_sink), prev_cycle_(t_cycle) {
  t_sink = sink;
  t_cycle = cycle;
}

AssertionCapture::~AssertionCapture() {
  t_sink = prev_sink_;
  t_cycle = prev_cycle_;
}

bool AssertionsCompiled() { return OTPU_RTL_ASSERT; }

namespace {
bool g_evaluated = true;
}  // namespace

void SetAssertionsEvaluated(bool on) {
  g_evaluated = on;
  Verilated::threadContextp()->assertOn(on);
}

bool AssertionsEvaluated() { return g_evaluated; }

std::string AssertionFailure::Text() const {
  std::string s = name + " at " + file + ":" + std::to_string(line);
  s += cycle >= 0 ? ", run cycle " + std::to_string(cycle) : ", outside a run";
  if (!message.empty()) s += ": " + message;
  return s;
}

std::string AssertionLine(const AssertionFailure& f) {
  // Text() and the scope: everything ParseAssertionLine needs, on one line.
  std::string msg = f.message;
  for (char& c : msg) {
    if (c == '\n') c = ' ';
  }
  return std::string(kLinePrefix) + f.name + " at " + f.file + ":" + std::to_string(f.line) +
         ", cycle " + std::to_string(f.cycle) + ", in " + f.scope + ": " + msg;
}

bool ParseAssertionLine(const std::string& line, AssertionFailure* f) {
  const size_t p = line.find(kLinePrefix);
  if (p == std::string::npos) return false;
  std::string rest = line.substr(p + sizeof kLinePrefix - 1);
  const size_t at = rest.find(" at "), cyc = rest.find(", cycle "), in = rest.find(", in "),
               colon = in == std::string::npos ? in : rest.find(": ", in);
  if (at == std::string::npos || cyc == std::string::npos || in == std::string::npos ||
      colon == std::string::npos || !(at < cyc && cyc < in)) {
    return false;
  }
  AssertionFailure out;
  out.name = rest.substr(0, at);
  const std::string where = rest.substr(at + 4, cyc - at - 4);
  const size_t lc = where.rfind(':');
  if (lc == std::string::npos) return false;
  out.file = where.substr(0, lc);
  try {
    out.line = std::stoi(where.substr(lc + 1));
    out.cycle = std::stoll(rest.substr(cyc + 8, in - cyc - 8));
  } catch (...) {
    return false;
  }
  out.scope = rest.substr(in + 5, colon - in - 5);
  out.message = rest.substr(colon + 2);
  *f = out;
  return true;
}

}  // namespace otpu::rtl

int otpu_vl_printf(const char* format, ...) {
  char small[512];
  va_list ap;
  va_start(ap, format);
  const int n = std::vsnprintf(small, sizeof small, format, ap);
  va_end(ap);
  std::string text;
  if (n >= 0 && size_t(n) < sizeof small) {
    text.assign(small, size_t(n));
  } else if (n >= 0) {
    text.resize(size_t(n) + 1);
    va_start(ap, format);
    std::vsnprintf(text.data(), text.size(), format, ap);
    va_end(ap);
    text.resize(size_t(n));
  }
  if (otpu::rtl::t_sink != nullptr && text.find(otpu::rtl::kFailedIn) != std::string::npos) {
    otpu::rtl::t_pending = text;  // reported by vl_stop_maybe, with its file and line
    return n;
  }
  std::fputs(text.c_str(), stdout);
  return n;
}

void vl_stop_maybe(const char* filename, int linenum, const char* hier, bool maybe) {
  using namespace otpu::rtl;
  if (t_sink == nullptr) {
    // Verilator's own vl_stop_maybe (verilated.cpp), for models run without a capture.
    Verilated::threadContextp()->errorCountInc();
    if (maybe && Verilated::threadContextp()->errorCount() < Verilated::threadContextp()->errorLimit()) {
      std::printf("-Info: %s:%d: %s\n", filename, linenum,
                  "Verilog $stop, ignored due to +verilator+error+limit");
    } else {
      vl_stop(filename, linenum, hier);
    }
    return;
  }
  AssertionFailure f;
  f.file = filename ? filename : "";
  // Verilator names the file as the build gave it (absolute): from the checkout's rtl/ on.
  if (const size_t rtl = f.file.rfind("/rtl/"); rtl != std::string::npos) f.file.erase(0, rtl + 1);
  f.line = linenum;
  f.cycle = t_cycle ? *t_cycle : -1;
  // "[0] %Error: otpu_fifo.sv:67: Assertion failed in TOP.otpu_fifo.FifoNoPushWhenFull: text\n"
  const size_t in = t_pending.find(kFailedIn);
  if (in != std::string::npos) {
    std::string rest = t_pending.substr(in + sizeof kFailedIn - 1);
    while (!rest.empty() && (rest.back() == '\n' || rest.back() == '\r')) rest.pop_back();
    const size_t colon = rest.find(": ");
    f.scope = rest.substr(0, colon);
    if (colon != std::string::npos) f.message = rest.substr(colon + 2);
    const size_t dot = f.scope.rfind('.');
    f.name = dot == std::string::npos ? f.scope : f.scope.substr(dot + 1);
  } else {
    f.name = "$stop";  // a $stop without an assertion's text
    f.scope = hier ? hier : "";
  }
  t_pending.clear();
  t_sink->push_back(std::move(f));
}
