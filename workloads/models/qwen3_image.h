// The Qwen3 engine's DRAM image: every weight matrix quantized in its format and written at
// the plan's addresses, with the norms, the rope table, the constants and the KV masks.
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_IMAGE_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_IMAGE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/kernels/quantize.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/qwen3_plan.h"
#include "workloads/models/qwen3_weights.h"

namespace otpu::models {

// One quantized matrix of the image: its float weights, how it is quantized and where it goes.
struct MatrixJob {
  std::string what;                // "layer 3 qkv", "LM head"
  const std::vector<float>* w = nullptr;  // row-major [n x k]
  int n = 0, k = 0;
  kernels::QuantOptions opts;
  uint64_t w_addr = 0, s_addr = 0;  // DRAM bytes and scales
};

// Checks that `w` has the plan's model and every tensor its size; InvalidArgument naming the
// Hugging Face tensor otherwise.
Status CheckWeights(const Qwen3Plan& plan, const Qwen3Weights& w);

// Calls `fn` for every quantized matrix of the image in a fixed order (per layer: the
// stacked [q; k; v], o, gate, up, down; then the LM head), stopping at the first error.
Status ForEachMatrix(const Qwen3Plan& plan, const Qwen3Weights& w,
                     const std::function<Status(const MatrixJob&)>& fn);

// Writes the whole image into `mem` (sized DRAM_BYTES). 4-bit matrices are quantized through
// `cache` when it is given and enabled; int8 ones always directly (as fast as reading back).
Status WriteQwen3Image(const Qwen3Plan& plan, const Qwen3Weights& w, ImageCache* cache,
                       SparseMemory* mem);

// The host's part of a step: the embedding row of `token` ([H] fp32 bytes) and where it goes.
// InvalidArgument naming the token when it is outside the vocabulary.
StatusOr<std::vector<uint8_t>> EmbeddingBytes(const Qwen3Plan& plan, const Qwen3Weights& w,
                                              int token);

// The logits the LM head left in `dram`.
std::vector<float> ReadLogits(const Qwen3Plan& plan, const SparseMemory& dram);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_IMAGE_H_
