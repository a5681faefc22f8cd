// SIGINT and SIGTERM as a request to stop a recording cleanly: the handler only
// notes the signal; Card's run loop sees it, writes CTRL=0 (RUN falling aborts the run) and
// fails, and main() exits 128 + signal with one line. Nothing is half written: output files
// are written to a temporary name and renamed, and only after the last run.
#ifndef OTPU_HOST_STOP_REQUEST_H_
#define OTPU_HOST_STOP_REQUEST_H_

namespace otpu::host {

// Installs the handlers for SIGINT and SIGTERM (without SA_RESTART, so a blocked device read
// returns). Call once, from main, before touching a card.
void InstallStopHandlers();

// Gives SIGINT and SIGTERM their default action again (e.g. before serving a page until Ctrl-C).
void RestoreStopSignals();

// The signal that asked us to stop, or 0.
int StopSignal();

// Test seam: as if `sig` had arrived (0 forgets it).
void SetStopSignalForTest(int sig);

}  // namespace otpu::host

#endif  // OTPU_HOST_STOP_REQUEST_H_
