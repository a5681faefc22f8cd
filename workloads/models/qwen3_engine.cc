#include "workloads/models/qwen3_engine.h"

#include "workloads/models/qwen3_image.h"
#include "workloads/models/qwen3_program.h"

namespace otpu::models {
namespace {

template <typename T>
int ArgMaxOf(const std::vector<T>& v) {
  int best = 0;
  for (size_t i = 1; i < v.size(); ++i)
    if (v[i] > v[best]) best = int(i);
  return best;
}

}  // namespace

StatusOr<Qwen3Engine> BuildQwen3Engine(const Qwen3Weights& w, const isa::Config& hw,
                                       const EngineOptions& opts, ImageCache* cache) {
  return BuildQwen3Engine(ResidentQwen3(w), hw, opts, cache);
}

StatusOr<Qwen3Engine> BuildQwen3Engine(const Qwen3TensorSource& w, const isa::Config& hw,
                                       const EngineOptions& opts, ImageCache* cache) {
  Qwen3Engine e;
  ASSIGN_OR_RETURN(e.plan, PlanQwen3(w.config(), hw, opts));
  ASSIGN_OR_RETURN(e.program, BuildQwen3Program(e.plan));
  e.image = SparseMemory(hw.DRAM_BYTES);
  RETURN_IF_ERROR(WriteQwen3Image(e.plan, w, cache, &e.image));
  return e;
}

namespace {

template <typename W>
StatusOr<workloads::Step> StepOf(const Qwen3Plan& plan, const W& w, int token, int pos,
                                 bool traced) {
  workloads::Step step;
  ASSIGN_OR_RETURN(step.args, Qwen3Args(plan, pos));
  ASSIGN_OR_RETURN(std::vector<uint8_t> row, EmbeddingBytes(plan, w, token));
  step.writes.push_back({plan.resid, std::move(row)});
  step.traced = traced;
  return step;
}

}  // namespace

StatusOr<workloads::Step> Qwen3Step(const Qwen3Plan& plan, const Qwen3Weights& w, int token,
                                    int pos, bool traced) {
  return StepOf(plan, w, token, pos, traced);
}

StatusOr<workloads::Step> Qwen3Step(const Qwen3Plan& plan, const Qwen3TensorSource& w, int token,
                                    int pos, bool traced) {
  return StepOf(plan, w, token, pos, traced);
}

int ArgMax(const std::vector<float>& logits) { return ArgMaxOf(logits); }
int ArgMax(const std::vector<double>& logits) { return ArgMaxOf(logits); }

}  // namespace otpu::models
