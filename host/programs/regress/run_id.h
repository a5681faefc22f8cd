// The id of one regression run or Slurm submission: 128 random bits as 32 hex digits, written
// into DIR/selection.json ("run") and into every cell result the run makes, so the merge can
// tell this run's results from those an earlier run left in DIR (docs/regress.md, "Results").
#ifndef OTPU_HOST_PROGRAMS_REGRESS_RUN_ID_H_
#define OTPU_HOST_PROGRAMS_REGRESS_RUN_ID_H_

#include <sys/random.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace otpu::regress {

// A fresh run id from the kernel's random source (getrandom blocks only before the pool is
// initialised at boot).
inline std::string NewRunId() {
  uint8_t bytes[16] = {};
  size_t got = 0;
  while (got < sizeof bytes) {
    const ssize_t n = ::getrandom(bytes + got, sizeof bytes - got, 0);
    if (n > 0) got += size_t(n);
  }
  std::string hex;
  char two[3];
  for (uint8_t b : bytes) {
    std::snprintf(two, sizeof two, "%02x", b);
    hex += two;
  }
  return hex;
}

}  // namespace otpu::regress

#endif  // OTPU_HOST_PROGRAMS_REGRESS_RUN_ID_H_
