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

// One quantized matrix of the image (or rows of one): its float weights, how it is quantized
// and where it goes.
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
Status CheckWeights(const Qwen3Plan& plan, const Qwen3TensorSource& w);

// Calls `fn` for every quantized matrix of the image in a fixed order (per layer: the
// stacked [q; k; v], o, gate, up, down; then the LM head), stopping at the first error. Each
// matrix's weights are read from `w` for its job and freed after it. With `piece_values` > 0
// and a source that is not resident, an int8 matrix of more values with the plain scale
// layout (one scale row per weight row) comes as consecutive jobs of at most that many values
// ("LM head rows 0..16383"), each at its rows' addresses: the quantized layout is row-major
// and each row quantizes alone, so the pieces write exactly the bytes the whole would.
Status ForEachMatrix(const Qwen3Plan& plan, const Qwen3Weights& w,
                     const std::function<Status(const MatrixJob&)>& fn);
Status ForEachMatrix(const Qwen3Plan& plan, const Qwen3TensorSource& w,
                     const std::function<Status(const MatrixJob&)>& fn, int64_t piece_values = 0);

// The values of an int8 matrix WriteQwen3Image reads at a time from a checkpoint (64 MB of
// floats: a slice of Qwen3-0.6B's 622 MB LM head); every other matrix is read whole.
inline constexpr int64_t kImagePieceValues = int64_t{16} << 20;

// Writes the whole image into `mem` (sized DRAM_BYTES). 4-bit matrices are quantized through
// `cache` when it is given and enabled; int8 ones always directly (as fast as reading back),
// in pieces of at most `piece_values` values from a source that is not resident.
Status WriteQwen3Image(const Qwen3Plan& plan, const Qwen3Weights& w, ImageCache* cache,
                       SparseMemory* mem);
Status WriteQwen3Image(const Qwen3Plan& plan, const Qwen3TensorSource& w, ImageCache* cache,
                       SparseMemory* mem, int64_t piece_values = kImagePieceValues);

// The host's part of a step: the embedding row of `token` ([H] fp32 bytes) and where it goes.
// InvalidArgument naming the token when it is outside the vocabulary.
StatusOr<std::vector<uint8_t>> EmbeddingBytes(const Qwen3Plan& plan, const Qwen3Weights& w,
                                              int token);
StatusOr<std::vector<uint8_t>> EmbeddingBytes(const Qwen3Plan& plan, const Qwen3TensorSource& w,
                                              int token);

// The logits the LM head left in `dram`.
std::vector<float> ReadLogits(const Qwen3Plan& plan, const SparseMemory& dram);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_IMAGE_H_
