// Test fixture: a private one-node Slurm on loopback (tests/regress/slurm_cluster.sh), up for
// the lifetime of the object, with SLURM_CONF exported to this process and its children.
#ifndef OTPU_TESTS_REGRESS_SLURM_CLUSTER_H_
#define OTPU_TESTS_REGRESS_SLURM_CLUSTER_H_

#include <memory>
#include <string>

#include "base/status.h"

namespace otpu::regress::testing {

class SlurmCluster {
 public:
  // Brings the cluster up in a fresh directory under /tmp (munged, slurmctld, slurmd), waits
  // until the node is idle and sets SLURM_CONF. `script` is slurm_cluster.sh. The daemons also
  // stop by themselves should this process die without running the destructor.
  static StatusOr<std::unique_ptr<SlurmCluster>> Create(const std::string& script);
  // Stops the daemons by the pids `up` recorded and removes the directory (keeps it, with the
  // daemons' logs, when OTPU_KEEP_SLURM_DIR is set).
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  // The cluster's directory: slurm.conf, log/, the pid files.
  const std::string& dir() const { return dir_; }

 private:
  SlurmCluster(std::string script, std::string dir) : script_(std::move(script)), dir_(std::move(dir)) {}
  std::string script_;
  std::string dir_;
};

}  // namespace otpu::regress::testing

#endif  // OTPU_TESTS_REGRESS_SLURM_CLUSTER_H_
