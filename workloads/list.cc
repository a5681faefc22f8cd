#include "workloads/list.h"

#include <cstdio>
#include <optional>
#include <random>

#include "workloads/kernels/attn.h"
#include "workloads/kernels/layer.h"
#include "workloads/kernels/mlp.h"
#include "workloads/kernels/reference.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/model_source.h"
#include "workloads/models/qwen3_workload.h"
#include "workloads/models/tokenizer.h"
#include "workloads/random_workload.h"

namespace otpu::workloads {

using kernels::DramLayout;

namespace {

// Seeds of the random weights and inputs, fixed so every run of a workload is the same.
constexpr uint32_t kWeightSeed = 1;
constexpr uint32_t kInputSeed = 2;

// The layer workload: Qwen3-0.6B's attention block (LayerShape's defaults: hidden 1024,
// 16 q / 8 kv heads of 128) at the last position of a 1024-position cache by default.
constexpr int kLayerPos = 1023;

std::vector<float> RandomNormal(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

CheckReport Report(const std::string& what, int rows, int cols, double rel, double bound) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %dx%d rel_l2 %.3g (bound %.3g)", what.c_str(), rows, cols,
                rel, bound);
  return CheckReport{rel, bound, buf};
}

WorkloadRun NewRun(const std::string& name, const isa::Config& cfg) {
  WorkloadRun run;
  run.name = name;
  run.config = cfg;
  run.image = SparseMemory(cfg.DRAM_BYTES);
  return run;
}

StatusOr<WorkloadRun> MakeMlp(const std::string& name, const kernels::MlpShape& shape,
                              const isa::Config& cfg) {
  WorkloadRun run = NewRun(name, cfg);
  DramLayout dram(kImageBase, uint32_t(cfg.D));
  ASSIGN_OR_RETURN(kernels::MlpPlan plan, kernels::PlanMlp(shape, cfg, &dram));
  kernels::MlpWeights w = kernels::MlpWeights::Random(plan.shape, kWeightSeed);
  std::vector<float> x = RandomNormal(size_t(shape.m) * shape.h, kInputSeed);
  RETURN_IF_ERROR(kernels::WriteMlpWeights(plan, w, &run.image));
  RETURN_IF_ERROR(kernels::WriteMlpInput(plan, x, &run.image));
  isa::ProgramBuilder b;
  kernels::EmitMlp(b, plan);
  run.program = b.Finish();
  run.steps = {Step{.args = {}, .traced = true}};
  std::vector<double> ref = kernels::RefMlp(plan.shape, w, x);
  const double bound = kernels::MlpBound(shape.wf);
  run.check = [plan, ref, x, bound](const SparseMemory& dram) {
    double rel = kernels::RelL2Delta(kernels::ReadMlpOutput(plan, dram), ref, x);
    return Report("y - x", plan.shape.m, plan.shape.h, rel, bound);
  };
  run.outputs = {{plan.y, uint64_t(plan.shape.m) * plan.shape.h * 4}};
  return run;
}

StatusOr<WorkloadRun> MakeAttn(const std::string& name, const kernels::AttnShape& shape,
                               const isa::Config& cfg) {
  WorkloadRun run = NewRun(name, cfg);
  DramLayout dram(kImageBase, uint32_t(cfg.D));
  ASSIGN_OR_RETURN(kernels::AttnPlan plan, kernels::PlanAttn(shape, cfg, &dram));
  kernels::AttnInputs in = kernels::AttnInputs::Random(plan.shape, kInputSeed);
  RETURN_IF_ERROR(kernels::WriteAttnInputs(plan, in, &run.image));
  isa::ProgramBuilder b;
  kernels::EmitAttn(b, plan);
  run.program = b.Finish();
  run.steps = {Step{.args = {}, .traced = true}};
  const kernels::AttnShape& s = plan.shape;
  std::vector<double> ref = kernels::RefAttn(
      s.hq, s.hkv, s.hd, s.t, std::vector<double>(in.q.begin(), in.q.end()),
      std::vector<double>(in.k.begin(), in.k.end()), std::vector<double>(in.v.begin(), in.v.end()));
  run.check = [plan, ref](const SparseMemory& dram) {
    double rel = kernels::RelL2(kernels::ReadAttnOutput(plan, dram), ref);
    return Report("out", plan.shape.hq, plan.shape.hd, rel, kernels::kAttnBound);
  };
  run.outputs = {{plan.out, uint64_t(plan.shape.hq) * plan.shape.hd * 4}};
  return run;
}

StatusOr<WorkloadRun> MakeLayer(const std::string& name, const kernels::LayerShape& shape, int pos,
                                const isa::Config& cfg) {
  WorkloadRun run = NewRun(name, cfg);
  DramLayout dram(kImageBase, uint32_t(cfg.D));
  ASSIGN_OR_RETURN(kernels::LayerPlan plan, kernels::PlanLayer(shape, cfg, 1, &dram));
  const kernels::LayerShape& s = plan.shape;
  kernels::LayerWeights w = kernels::LayerWeights::Random(s, kWeightSeed);
  RETURN_IF_ERROR(kernels::WriteLayerWeights(plan, w, &run.image));
  // Positions before `pos` come from earlier decode steps; the host fills them directly with
  // random (already normed and rotated) keys and values.
  const size_t prefix = size_t(s.hkv) * pos * s.hd;
  std::vector<float> k = RandomNormal(prefix, kInputSeed + 1);
  std::vector<float> v = RandomNormal(prefix, kInputSeed + 2);
  RETURN_IF_ERROR(kernels::WriteKvPrefix(plan.core.kv, k, v, pos, &run.image));
  std::vector<float> x = RandomNormal(size_t(s.h), kInputSeed);
  RETURN_IF_ERROR(kernels::WriteLayerInput(plan, 0, x, &run.image));
  isa::ProgramBuilder b;
  kernels::EmitLayer(b, plan);
  run.program = b.Finish();
  ASSIGN_OR_RETURN(auto args, kernels::LayerArgs(plan, pos, 0));
  run.steps = {Step{.args = args, .traced = true}};
  kernels::RefKvCache cache(s.hkv, s.hd);
  cache.AppendPrefix(k, v, pos);
  std::vector<double> ref = kernels::RefLayerStep(s, w, x, &cache);
  run.check = [plan, ref, x, pos](const SparseMemory& dram) {
    double rel = kernels::RelL2Delta(kernels::ReadLayerOutput(plan, dram, 0), ref, x);
    return Report("y - x at pos " + std::to_string(pos) + ":", 1, plan.shape.h, rel,
                  kernels::kLayerBound);
  };
  run.outputs = {{plan.y, uint64_t(plan.shape.h) * 4}};
  return run;
}

models::LayerFormat LayerFormatOf(isa::WFormat wf) {
  switch (wf) {
    case isa::WFormat::kINT4: return models::LayerFormat::kInt4;
    case isa::WFormat::kFP4: return models::LayerFormat::kFp4;
    case isa::WFormat::kINT8: break;
  }
  return models::LayerFormat::kInt8;
}

// qwen-tiny (the random model over kTinyPrompt) or qwen (the checkpoint and its tokenizer).
StatusOr<WorkloadRun> MakeQwen(const std::string& name, const isa::Config& cfg,
                               const WorkloadOptions& opts) {
  ASSIGN_OR_RETURN(models::ModelSource src, models::LoadModel(name));
  models::Qwen3RunOptions ro;
  ro.pos = opts.pos;
  const models::LayerFormat lf = LayerFormatOf(opts.wf);
  ro.engine.formats = {lf, models::DefaultHeadFormat(lf)};
  if (src.dir.empty()) {
    ro.prompt = models::kTinyPrompt;
  } else {
    ASSIGN_OR_RETURN(auto tokenizer, models::Tokenizer::FromFile(src.dir + "/tokenizer.json"));
    ASSIGN_OR_RETURN(ro.prompt,
                     tokenizer->Encode(models::QwenChatPrompt(models::kDefaultPrompt)));
  }
  std::optional<models::ImageCache> cache;
  if (models::HasFourBit(ro.engine.formats, src.weights->config.num_hidden_layers)) {
    ASSIGN_OR_RETURN(models::ImageCacheOptions cache_opts, models::ImageCacheOptionsFromEnv());
    ro.cache = &cache.emplace(cache_opts);
  }
  return models::MakeQwen3Run(name, *src.weights, cfg, ro);
}

}  // namespace

bool TakesPosition(const std::string& name) {
  return name == "layer" || name == "qwen-tiny" || name == "qwen";
}

std::vector<WorkloadInfo> ListWorkloads() {
  return {
      {"mlp-small",
       "SwiGLU MLP with pre-RMSNorm and residual, M=3, H=128, F=256 (runs in seconds)"},
      {"mlp", "MLP decode M=1, H=1024, F=4096"},
      {"mlp8", "MLP decode with M=8, H=1024, F=4096"},
      {"attn", "flash-attention decode, 16 q / 4 kv heads, head 128, T=2048"},
      {"attn-qwen", "Qwen3-0.6B head layout, 16 q / 8 kv, T=1024"},
      {"layer",
       "full attention block (RMSNorm, QKV, q/k-norm, RoPE, KV append, attention, out-proj, "
       "residual) at pos 1023, Qwen3-0.6B sizes"},
      {"qwen-tiny",
       "one decode step of a random Qwen3 (hidden 256, 2 layers, 4 q / 2 kv heads of 128, FFN "
       "512, vocab 1000, seed 0), earlier positions run untraced"},
      {"qwen", "one decode step of a real Qwen3 checkpoint (Qwen3-0.6B layout)"},
      {"random",
       "a random program for a seed (every unit instruction, loops, hazards) over random data; "
       "judged against the ISA simulator, no float64 reference"},
      {"random-illegal",
       "a short random program for a seed that ends in an illegal instruction (seed mod " +
           std::to_string(IllegalKindCount()) +
           " picks which legality error); judged by its error and outputs against the ISA "
           "simulator"},
  };
}

StatusOr<WorkloadRun> MakeWorkload(const std::string& name, const isa::Config& cfg) {
  return MakeWorkload(name, cfg, WorkloadOptions{});
}

StatusOr<WorkloadRun> MakeWorkload(const std::string& name, const isa::Config& cfg,
                                   const WorkloadOptions& opts) {
  const kernels::LayerShape layer;
  StatusOr<WorkloadRun> run = [&]() -> StatusOr<WorkloadRun> {
    const isa::WFormat wf = opts.wf;
    if (name == "mlp-small") return MakeMlp(name, {.m = 3, .h = 128, .f = 256, .wf = wf}, cfg);
    if (name == "mlp") return MakeMlp(name, {.m = 1, .h = 1024, .f = 4096, .wf = wf}, cfg);
    if (name == "mlp8") return MakeMlp(name, {.m = 8, .h = 1024, .f = 4096, .wf = wf}, cfg);
    if (name == "attn") return MakeAttn(name, {.hq = 16, .hkv = 4, .hd = 128, .t = 2048}, cfg);
    if (name == "attn-qwen")
      return MakeAttn(name, {.hq = 16, .hkv = 8, .hd = 128, .t = 1024}, cfg);
    if (name == "layer") {
      const int pos = opts.pos < 0 ? kLayerPos : opts.pos;
      if (pos >= layer.t_max)
        return InvalidArgument("--pos " + std::to_string(pos) + " is past the layer's cache of " +
                               std::to_string(layer.t_max) + " positions");
      return MakeLayer(name, layer, pos, cfg);
    }
    if (name == "qwen-tiny" || name == "qwen") return MakeQwen(name, cfg, opts);
    if (name == "random") return MakeRandomWorkload(cfg, opts.seed);
    if (name == "random-illegal") return MakeRandomIllegalWorkload(cfg, opts.seed);
    std::string names;
    for (const WorkloadInfo& w : ListWorkloads()) names += (names.empty() ? "" : ", ") + w.name;
    return NotFound("unknown workload '" + name + "' (valid: " + names + ")");
  }();
  if (!run.ok() && run.status().code() == StatusCode::kInvalidArgument)
    return run.status().WithContext("workload " + name + " on config " + cfg.name);
  return run;
}

}  // namespace otpu::workloads
