#include "base/progress.h"

#include <unistd.h>

#include <cmath>

namespace otpu {

ProgressLine::ProgressLine(std::FILE* out, bool forced)
    : out_(out), start_(std::chrono::steady_clock::now()) {
  terminal_ = out != nullptr && ::isatty(::fileno(out)) == 1;
  enabled_ = out != nullptr && (terminal_ || forced);
}

ProgressLine::~ProgressLine() { Done(); }

double ProgressLine::Elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressLine::Update(const std::string& text) {
  if (!enabled_) return;
  last_ = text;
  pending_ = true;
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - shown_at_).count();
  const double gap = terminal_ ? 1.0 / kRedrawsPerSecond : kLineSeconds;
  if (shown_any_ && since < gap) return;
  shown_at_ = now;
  Show(text);
}

void ProgressLine::Show(const std::string& text) {
  pending_ = false;
  shown_any_ = true;
  if (terminal_) {
    // Spaces over what a longer previous line left; no escape sequences (a dumb terminal).
    std::string line = "\r" + text;
    if (text.size() < width_) line.append(width_ - text.size(), ' ');
    width_ = text.size();
    std::fputs(line.c_str(), out_);
  } else {
    std::fprintf(out_, "%s\n", text.c_str());
  }
  std::fflush(out_);
}

void ProgressLine::Done() {
  if (!enabled_) return;
  if (pending_) Show(last_);
  if (terminal_ && shown_any_) {
    std::fputc('\n', out_);
    std::fflush(out_);
  }
  shown_any_ = false;
  width_ = 0;
}

std::string FormatDuration(double seconds) {
  const int64_t s = int64_t(std::llround(std::max(0.0, seconds)));
  char buf[32];
  if (s < 60) {
    std::snprintf(buf, sizeof buf, "%llds", (long long)s);
  } else if (s < 3600) {
    std::snprintf(buf, sizeof buf, "%lldm%02llds", (long long)(s / 60), (long long)(s % 60));
  } else {
    std::snprintf(buf, sizeof buf, "%lldh%02lldm", (long long)(s / 3600),
                  (long long)(s / 60 % 60));
  }
  return buf;
}

std::string FormatCount(double count) {
  char buf[32];
  if (count < 1e3) {
    std::snprintf(buf, sizeof buf, "%.0f", count);
  } else if (count < 1e6) {
    std::snprintf(buf, sizeof buf, "%.1fk", count / 1e3);
  } else if (count < 1e9) {
    std::snprintf(buf, sizeof buf, "%.2fM", count / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.2fG", count / 1e9);
  }
  return buf;
}

std::string ElapsedAndLeft(double elapsed_s, double done_share) {
  std::string s = "elapsed " + FormatDuration(elapsed_s);
  if (done_share > 0 && done_share <= 1) {
    s += ", about " + FormatDuration(elapsed_s / done_share - elapsed_s) + " left";
  }
  return s;
}

}  // namespace otpu
