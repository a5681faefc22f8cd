// The Qwen3 decode engine on the accelerator: one DRAM image and ONE resident program that
// runs a decode step at any position (qwen3_plan.h has the layout, qwen3_program.h the
// program). A step is: the host writes the token's embedding row into the residual buffer,
// sets the ARGs of the position, runs the program, and reads the logits back; prefill is
// decode steps over the prompt, and the greedy next token is the argmax of the logits.
//
// The engine produces workloads::Steps (DRAM writes + ARGs) and nothing in it knows which
// board runs them: the recorder, the tests and any runner apply a step the same way.
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_ENGINE_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_ENGINE_H_

#include <vector>

#include "base/sparse_memory.h"
#include "base/status.h"
#include "workloads/isa/config.h"
#include "workloads/isa/program.h"
#include "workloads/models/image_cache.h"
#include "workloads/models/qwen3_plan.h"
#include "workloads/models/qwen3_weights.h"
#include "workloads/workload.h"

namespace otpu::models {

// What a board needs to run the model: where everything is, the step program, the image.
struct Qwen3Engine {
  Qwen3Plan plan;         // the layout (qwen3_plan.h)
  isa::Program program;   // the resident decode-step program, loaded once
  SparseMemory image{1};  // the initial DRAM (DRAM_BYTES): weights, tables, empty KV caches
};

// Plans, quantizes and emits the engine for `w` on `hw`. 4-bit matrices go through `cache`
// when given. Errors name the config field, layer or tensor.
StatusOr<Qwen3Engine> BuildQwen3Engine(const Qwen3Weights& w, const isa::Config& hw,
                                       const EngineOptions& opts, ImageCache* cache = nullptr);
// The same from a source read tensor by tensor (WriteQwen3Image): the engine is all it keeps.
StatusOr<Qwen3Engine> BuildQwen3Engine(const Qwen3TensorSource& w, const isa::Config& hw,
                                       const EngineOptions& opts, ImageCache* cache = nullptr);

// The step that runs `token` at position `pos`: its embedding row written to qwen.resid and
// the position's ARGs. InvalidArgument naming the token or position when out of range.
StatusOr<workloads::Step> Qwen3Step(const Qwen3Plan& plan, const Qwen3Weights& w, int token,
                                    int pos, bool traced = false);
StatusOr<workloads::Step> Qwen3Step(const Qwen3Plan& plan, const Qwen3TensorSource& w, int token,
                                    int pos, bool traced = false);

// Index of the largest logit (the first of equal ones): the greedy next token.
int ArgMax(const std::vector<float>& logits);
int ArgMax(const std::vector<double>& logits);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_ENGINE_H_
