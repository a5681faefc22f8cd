// `lens export --chrome-trace`: a profile file's timelines as Chrome trace events that open in
// Perfetto (ui.perfetto.dev) and chrome://tracing (docs/lens-app.md).
#ifndef OTPU_LENS_CHROME_TRACE_H_
#define OTPU_LENS_CHROME_TRACE_H_

#include <string>

#include "lens/profile.h"
#include "base/status.h"

namespace otpu::lens {

// {"traceEvents": [...], "displayTimeUnit": "ns"}: a process per profile, a thread per unit
// (more when a unit's instructions overlap), a complete event ("X") per instruction with its
// timing, counters and source in args, and single-value counter tracks ("C") per counter window
// (port B chunks/cycle, MXU busy, DRAM stalls, TMEM losses, FIFO level). Time in microseconds
// from 0 at the profile's clock.
std::string ChromeTraceJson(const ProfileFile& file);

// Writes ChromeTraceJson(file) to `out` (temporary name, then renamed): gzip-compressed when
// `out` ends in `.gz`, plain JSON otherwise (both open in Perfetto).
Status WriteChromeTrace(const ProfileFile& file, const std::string& out);

}  // namespace otpu::lens

#endif  // OTPU_LENS_CHROME_TRACE_H_
