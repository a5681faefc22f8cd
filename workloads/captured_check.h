// A workload whose check reports instead of failing: the regression judges a wrong result as
// a verdict of its own, so the recording must go on to give the profiles.
#ifndef OTPU_WORKLOADS_CAPTURED_CHECK_H_
#define OTPU_WORKLOADS_CAPTURED_CHECK_H_

#include "workloads/workload.h"

namespace otpu::workloads {

// A copy of `run` whose check stores the real report in `*out` (borrowed: it must outlive
// the copy's check) and always passes.
WorkloadRun WithCapturedCheck(const WorkloadRun& run, CheckReport* out);

}  // namespace otpu::workloads

#endif  // OTPU_WORKLOADS_CAPTURED_CHECK_H_
