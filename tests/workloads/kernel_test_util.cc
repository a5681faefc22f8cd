#include "tests/workloads/kernel_test_util.h"

#include "sim/isa/isa_sim.h"
#include "workloads/list.h"

namespace otpu::kernels {

StatusOr<trace::RunEvents> RunOnIsa(const isa::Config& cfg, const isa::Program& prog,
                                  SparseMemory* dram,
                                  const std::vector<std::array<uint32_t, 8>>& args) {
  sim::IsaSim isa_sim(cfg, dram);
  RETURN_IF_ERROR(isa_sim.LoadProgram(prog));
  StatusOr<trace::RunEvents> last = Internal("no run");
  for (const auto& a : args) {
    sim::IsaRunOptions opts;
    opts.args = a;
    last = isa_sim.Run(opts);
    if (!last.ok()) return last.status();
  }
  return last;
}

StatusOr<workloads::CheckReport> RunWorkload(const workloads::WorkloadRun& run,
                                             SparseMemory* dram_out) {
  SparseMemory dram = run.image;
  sim::IsaSim isa_sim(run.config, &dram);
  RETURN_IF_ERROR(isa_sim.LoadProgram(run.program));
  for (const workloads::Step& s : run.steps) {
    for (const workloads::DramWrite& w : s.writes) {
      if (!dram.Contains(w.addr, w.bytes.size()))
        return InvalidArgument("step write at DRAM " + std::to_string(w.addr) + " is outside DRAM");
      dram.Write(w.addr, w.bytes.data(), w.bytes.size());
    }
    sim::IsaRunOptions opts;
    opts.args = s.args;
    opts.record_events = false;
    RETURN_IF_ERROR(isa_sim.Run(opts).status());
  }
  workloads::CheckReport report = run.check(dram);
  if (dram_out) *dram_out = std::move(dram);
  return report;
}

void PoisonKvCache(const KvCachePlan& kv, int from, SparseMemory* dram) {
  KvCachePlan all = kv;
  all.t_max = int(kv.t_cap);
  const size_t n = size_t(kv.hkv) * kv.t_cap * kv.hd;
  std::vector<float> k(n, 0.0f), v(n, 0.0f);
  for (int j = 0; j < kv.hkv; ++j)
    for (int pos = from; pos < all.t_max; ++pos)
      for (int e = 0; e < kv.hd; ++e) {
        const size_t i = (size_t(j) * all.t_max + pos) * kv.hd + e;
        k[i] = pos % 2 ? -3.0f : 3.0f;
        v[i] = 50.0f;
      }
  OTPU_CHECK(WriteKvPrefix(all, k, v, all.t_max, dram).ok());
}

SmallAttn WriteSmallAttn(const isa::Config& cfg, SparseMemory* image) {
  DramLayout dram(workloads::kImageBase, uint32_t(cfg.D));
  const AttnShape shape{.hq = 4, .hkv = 2, .hd = 128, .t = 64};
  StatusOr<AttnPlan> plan = PlanAttn(shape, cfg, &dram);
  OTPU_CHECK(plan.ok());
  OTPU_CHECK(WriteAttnInputs(*plan, AttnInputs::Random(shape, 2), image).ok());
  isa::ProgramBuilder b;
  EmitAttn(b, *plan);
  return {*plan, b.Finish()};
}

}  // namespace otpu::kernels
