#include "workloads/models/qwen3_workload.h"

#include <algorithm>
#include <cmath>

#include "base/strings.h"
#include "workloads/models/qwen3_engine.h"
#include "workloads/models/qwen3_image.h"
#include "workloads/models/qwen3_reference.h"

namespace otpu::models {
namespace {

double RelL2(const std::vector<float>& got, const std::vector<double>& ref) {
  double err = 0, norm = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double g = i < got.size() ? double(got[i]) : 0.0;
    err += (g - ref[i]) * (g - ref[i]);
    norm += ref[i] * ref[i];
  }
  return norm == 0 ? (err == 0 ? 0.0 : INFINITY) : std::sqrt(err / norm);
}

}  // namespace

double LogitsBound(const WeightFormats& f) {
  // 1.5x the worst rel L2 measured with an int8 head per layer format, and with int8 layers
  // per head format; the two errors are independent, so they add in quadrature
  // (docs/models.md, "Weight formats").
  double layers = 0;
  switch (f.layers) {
    case LayerFormat::kInt8: layers = 0.035; break;
    case LayerFormat::kInt4: layers = 0.37; break;
    case LayerFormat::kFp4: layers = 0.34; break;
    case LayerFormat::kMix: layers = 0.21; break;
  }
  const double head = f.head == isa::WFormat::kINT8 ? 0.0 : 0.18;
  return std::sqrt(layers * layers + head * head);
}

StatusOr<workloads::WorkloadRun> MakeQwen3Run(const std::string& name, const Qwen3Weights& w,
                                              const isa::Config& hw,
                                              const Qwen3RunOptions& opts) {
  return MakeQwen3Run(name, ResidentQwen3(w), hw, opts);
}

StatusOr<workloads::WorkloadRun> MakeQwen3Run(const std::string& name, const Qwen3TensorSource& w,
                                              const isa::Config& hw,
                                              const Qwen3RunOptions& opts) {
  if (opts.prompt.empty()) return InvalidArgument(name + ": the prompt has no tokens");
  const int pos = opts.pos < 0 ? int(opts.prompt.size()) - 1 : opts.pos;
  // Plan first (cheap) so a bad position fails before anything is quantized.
  ASSIGN_OR_RETURN(Qwen3Plan planned, PlanQwen3(w.config(), hw, opts.engine));
  if (pos >= planned.opts.t_max)
    return InvalidArgument(StrFormat("--pos %d is past %s's KV cache of %d positions", pos,
                                     name.c_str(), planned.opts.t_max));
  ASSIGN_OR_RETURN(Qwen3Engine engine, BuildQwen3Engine(w, hw, opts.engine, opts.cache));
  const Qwen3Plan& plan = engine.plan;

  workloads::WorkloadRun run;
  run.name = name;
  run.config = hw;
  run.program = std::move(engine.program);
  run.image = std::move(engine.image);
  Qwen3Reference ref(w);
  // The prompt's positions up to pos run through the reference together, layer by layer;
  // each later one takes the greedy token of the one before.
  const int prefill = std::min(pos + 1, int(opts.prompt.size()));
  for (int p = 0; p < prefill; ++p) {
    ASSIGN_OR_RETURN(workloads::Step step, Qwen3Step(plan, w, opts.prompt[p], p, p == pos));
    run.steps.push_back(std::move(step));
  }
  ASSIGN_OR_RETURN(std::vector<double> logits,
                   ref.Prefill(std::vector<int>(opts.prompt.begin(),
                                                opts.prompt.begin() + prefill)));
  int token = opts.prompt[prefill - 1];
  for (int p = prefill; p <= pos; ++p) {
    token = ArgMax(logits);
    ASSIGN_OR_RETURN(workloads::Step step, Qwen3Step(plan, w, token, p, p == pos));
    run.steps.push_back(std::move(step));
    ASSIGN_OR_RETURN(logits, ref.Step(token));
  }
  const double bound = LogitsBound(plan.opts.formats);
  const std::string formats = FormatsName(plan.opts.formats);
  run.check = [plan, logits, bound, pos, token, formats](const SparseMemory& dram) {
    std::vector<float> got = ReadLogits(plan, dram);
    const double rel = RelL2(got, logits), cos = Cosine(got, logits);
    std::string detail = StrFormat(
        "logits 1x%d at pos %d (token %d, %s) rel_l2 %.3g cosine %.5f greedy %d/%d (bound %.3g)",
        plan.model.vocab_size, pos, token, formats.c_str(), rel, cos, ArgMax(got),
        ArgMax(logits), bound);
    return workloads::CheckReport{rel, bound, detail};
  };
  run.outputs = {{plan.logits, uint64_t(plan.model.vocab_size) * 4}};
  return run;
}

}  // namespace otpu::models
