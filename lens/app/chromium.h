// Headless Debian chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe):
// for the browser tests and the page benchmark. One page, evaluated expressions, screenshots, and
// every uncaught exception or console error the page raises.
#ifndef OTPU_LENS_APP_CHROMIUM_H_
#define OTPU_LENS_APP_CHROMIUM_H_

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "base/subprocess.h"

namespace otpu::lens {

class HeadlessChromium {
 public:
  // Starts `binary` headless with a fresh profile directory, opens one page of width x height CSS
  // pixels and attaches to it. Unavailable naming the binary when it does not start or answer.
  static StatusOr<std::unique_ptr<HeadlessChromium>> Start(
      const std::string& binary = "/usr/bin/chromium", int width = 1440, int height = 900);
  HeadlessChromium(const HeadlessChromium&) = delete;
  HeadlessChromium& operator=(const HeadlessChromium&) = delete;
  // Closes the browser (killing its process group if it does not exit) and removes its profile.
  ~HeadlessChromium();

  // Loads `url` and waits for its load event (at most `timeout_s`).
  Status Navigate(const std::string& url, double timeout_s = 30);
  // Evaluates `expression` in the page (awaiting a promise) and returns its value as JSON text
  // ("\"text\"", "3", "null"). InvalidArgument with the page's message when it throws.
  StatusOr<std::string> Evaluate(const std::string& expression, double timeout_s = 30);
  // Evaluates `expression` until it returns a non-empty string; returns that string.
  // DeadlineExceeded after `timeout_s`.
  StatusOr<std::string> WaitForString(const std::string& expression, double timeout_s);
  // Writes a PNG of the page to `path`, the whole document up to `max_height` pixels tall.
  Status Screenshot(const std::string& path, int max_height = 2400);
  // Resizes the page's viewport (CSS pixels), as a window of that size would be.
  Status SetViewport(int width, int height);
  // A real key press (keyDown with its text, then keyUp) through Input.dispatchKeyEvent, so the
  // page sees trusted events as from a keyboard. `key` is the DOM key ("Enter", "?", "a"),
  // `modifiers` DevTools' bit set (1 Alt, 2 Ctrl, 4 Meta, 8 Shift).
  Status PressKey(const std::string& key, int modifiers = 0);
  // A real left click at page coordinates (CSS pixels) through Input.dispatchMouseEvent.
  Status Click(double x, double y);
  // Lets the page's downloads (a link with `download`) land in `dir` under their own names
  // (Browser.setDownloadBehavior), as a user's browser saves them.
  Status AllowDownloads(const std::string& dir);
  // Grants the page's origin (`origin`, e.g. http://127.0.0.1:PORT) the clipboard, as a user who
  // answered the prompt would (Browser.grantPermissions): reading it back checks a copy.
  Status GrantClipboard(const std::string& origin);
  // Uncaught exceptions and console errors the page raised since the last ClearErrors().
  const std::vector<std::string>& errors() const { return errors_; }
  void ClearErrors() { errors_.clear(); }

 private:
  HeadlessChromium() = default;
  // Sends a command (to the page's session when `session`) and returns its `result` as JSON.
  StatusOr<std::string> Call(const std::string& method, const std::string& params_json,
                             bool session, double timeout_s);
  // Reads one message (up to `timeout_s`) and files events; false on timeout or a closed pipe.
  bool ReadMessage(double timeout_s, std::string* message);
  void HandleEvent(const std::string& message);

  std::unique_ptr<Subprocess> process_;  // the browser, leading its own process group
  int to_ = -1;    // our end of chromium's fd 3 (commands)
  int from_ = -1;  // our end of chromium's fd 4 (answers and events)
  std::string buffer_;
  std::string dir_;  // the throw-away user-data-dir
  std::string session_;
  int next_id_ = 1;
  bool loaded_ = false;
  std::vector<std::string> errors_;
  int width_ = 0, height_ = 0;
};

// Bytes of base64 text (standard alphabet; padding and whitespace ignored).
std::string Base64Decode(std::string_view text);

}  // namespace otpu::lens

#endif  // OTPU_LENS_APP_CHROMIUM_H_
