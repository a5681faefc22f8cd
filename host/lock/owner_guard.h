// The second half of the device lock: a guard file per user that only its owner can remove.
// The shared lock file may belong to anyone (the first user to take the lock creates it), and
// in a sticky run directory its owner can remove or replace it while somebody else holds it;
// the next locker would then lock a new file and run on the card at the same time. Each holder
// therefore also locks `<lock file>.uid<EUID>`, a file of its own, and every locker checks the
// guards of all users: a held guard means the card is in use, whatever became of the lock file.
#ifndef OTPU_HOST_LOCK_OWNER_GUARD_H_
#define OTPU_HOST_LOCK_OWNER_GUARD_H_

#include <sys/types.h>

#include <optional>
#include <string>

#include "base/status.h"
#include "base/unique_fd.h"

namespace otpu::host {

// The guard file name of lock file `lock_name` for user `uid` ("xdma0.lock.uid0").
std::string GuardName(const std::string& lock_name, uid_t uid);

// A guard somebody holds: its path and a descriptor to read the holder's pid from.
struct BusyGuard {
  std::string path;
  UniqueFd fd;
};

// Takes our guard of `lock_name` in run directory `dir_fd` (`run_dir` for messages) and checks
// that no other user's guard is held. On success `*guard` is our locked guard; when a guard is
// held, `*busy` names it (and `*guard` stays empty); errors for a guard of ours that is not
// ours to trust (a symlink, another owner, several links), naming its path. Guards of other
// users that their user would refuse are ignored: they cannot stand for a holder.
Status TryLockGuards(int dir_fd, const std::string& run_dir, const std::string& lock_name,
                     UniqueFd* guard, std::optional<BusyGuard>* busy);

}  // namespace otpu::host

#endif  // OTPU_HOST_LOCK_OWNER_GUARD_H_
