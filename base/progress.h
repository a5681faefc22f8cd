// The status line of long work (`otpu-lens record`, `otpu-mkcheckpoint`, `otpu-prebuild`): on
// a terminal one line redrawn in place (a carriage return, at most kRedrawsPerSecond times a
// second); on anything else nothing, unless asked (`--progress`), and then whole lines at
// most once every kLineSeconds, so a log gets a readable trail rather than carriage returns.
#ifndef OTPU_BASE_PROGRESS_H_
#define OTPU_BASE_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace otpu {

class ProgressLine {
 public:
  static constexpr int kRedrawsPerSecond = 4;
  static constexpr double kLineSeconds = 1.0;

  // `out` is borrowed (normally stderr). `forced` (--progress) shows the line on a
  // non-terminal too.
  ProgressLine(std::FILE* out, bool forced);
  // Ends an unfinished line (Done).
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // Seconds since construction.
  double Elapsed() const;
  // Shows `text` now if the previous one is old enough; otherwise keeps it for later. The
  // first one is shown at once.
  void Update(const std::string& text);
  // Shows the latest text if it was held back and ends the line (a newline on a terminal).
  void Done();

 private:
  void Show(const std::string& text);

  std::FILE* out_;
  bool enabled_ = false;
  bool terminal_ = false;
  bool shown_any_ = false;
  bool pending_ = false;  // `last_` not shown yet
  std::string last_;
  size_t width_ = 0;  // characters of the line on the terminal
  std::chrono::steady_clock::time_point start_, shown_at_;
};

// "42s", "3m07s", "1h02m".
std::string FormatDuration(double seconds);
// "950", "12.3k", "4.56M", "1.23G".
std::string FormatCount(double count);
// "elapsed 1m02s, about 3m10s left" from the share done (0..1); "elapsed 1m02s" when the
// share is not known yet (0 or less).
std::string ElapsedAndLeft(double elapsed_s, double done_share);

}  // namespace otpu

#endif  // OTPU_BASE_PROGRESS_H_
