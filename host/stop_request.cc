#include "host/stop_request.h"

#include <signal.h>

#include <csignal>
#include <initializer_list>

namespace otpu::host {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

void OnStopSignal(int sig) { g_stop_signal = sig; }

}  // namespace

void InstallStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnStopSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    // A signal ignored by whoever started us (nohup, a background job) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

void RestoreStopSignals() {
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == OnStopSignal) {
      std::signal(sig, SIG_DFL);
    }
  }
}

int StopSignal() { return g_stop_signal; }

void SetStopSignalForTest(int sig) { g_stop_signal = sig; }

}  // namespace otpu::host
