#include "workloads/models/prebuild.h"

#include "workloads/models/qwen3_image.h"
#include "workloads/models/qwen3_plan.h"

namespace otpu::models {

StatusOr<PrebuildRequest> ParsePrebuildRequest(const std::string& text) {
  const std::string where = "'" + text + "'";
  const size_t last = text.rfind(':');
  const size_t middle =
      last == std::string::npos || last == 0 ? std::string::npos : text.rfind(':', last - 1);
  if (middle == std::string::npos) return InvalidArgument(where + ": expected MODEL:WF:HF");
  PrebuildRequest req;
  req.model = text.substr(0, middle);
  if (req.model.empty()) return InvalidArgument(where + ": MODEL is empty");
  StatusOr<WeightFormats> f =
      ParseWeightFormats(text.substr(middle + 1, last - middle - 1), text.substr(last + 1));
  if (!f.ok()) return f.status().WithContext(where);
  req.formats = *f;
  return req;
}

StatusOr<isa::Config> ParseHwConfig(const std::string& name) {
  if (name == "sim") return isa::Config::Sim();
  if (name == "board") return isa::Config::Board();
  return InvalidArgument("--config '" + name + "' is not sim|board");
}

StatusOr<PrebuildReport> Prebuild(
    const Qwen3Weights& w, const WeightFormats& formats, const isa::Config& hw, ImageCache* cache,
    const std::function<void(int done, int total, const std::string& what)>& progress) {
  if (cache == nullptr || !cache->enabled())
    return InvalidArgument("prebuild: the image cache is off");
  ASSIGN_OR_RETURN(Qwen3Plan plan, PlanQwen3(w.config, hw, {.formats = formats}));
  PrebuildReport report;
  const int total = 5 * int(plan.attn.size()) + 1;  // per layer qkv o gate up down, the head
  int done = 0;
  RETURN_IF_ERROR(ForEachMatrix(plan, w, [&](const MatrixJob& job) -> Status {
    ++done;
    if (progress) progress(done, total, job.what);
    if (job.opts.wf == isa::WFormat::kINT8) return OkStatus();
    const ImageCacheStats before = cache->stats();
    RETURN_IF_ERROR(cache->Quantize(*job.w, job.n, job.k, job.opts, job.what).status());
    const ImageCacheStats& after = cache->stats();
    if (after.store_errors > before.store_errors)
      return Internal("prebuild: " + job.what + ": " + after.last_error);
    ++report.matrices;
    (after.hits > before.hits ? report.cached : report.quantized) += 1;
    return OkStatus();
  }));
  return report;
}

}  // namespace otpu::models
