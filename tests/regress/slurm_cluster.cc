#include "tests/regress/slurm_cluster.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "host/programs/regress/captured_command.h"

namespace otpu::regress::testing {

StatusOr<std::unique_ptr<SlurmCluster>> SlurmCluster::Create(const std::string& script) {
  std::string pattern = "/tmp/otpu_slurm.XXXXXX";
  if (!::mkdtemp(pattern.data())) return Internal("mkdtemp " + pattern + " failed");
  std::unique_ptr<SlurmCluster> cluster(new SlurmCluster(script, pattern));
  std::vector<std::string> argv = {script, "up", pattern, std::to_string(::getpid())};
  auto result = RunCaptured(argv);
  if (!result.ok()) return result.status();
  if (result->exit_code != 0) {
    return Internal(CommandLine(argv) + " failed (exit " + std::to_string(result->exit_code) +
                    "): " + result->err);
  }
  ::setenv("SLURM_CONF", (pattern + "/slurm.conf").c_str(), 1);
  return cluster;
}

SlurmCluster::~SlurmCluster() {
  auto ignored = RunCaptured({script_, "down", dir_});
  (void)ignored;
  ::unsetenv("SLURM_CONF");
  if (!std::getenv("OTPU_KEEP_SLURM_DIR")) {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
}

}  // namespace otpu::regress::testing
