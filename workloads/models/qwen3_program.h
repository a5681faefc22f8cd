// The resident decode-step program of the Qwen3 engine: every layer's attention block
// (kernels/layer.h) and SwiGLU MLP (kernels/mlp.h), then the final RMSNorm and the LM head.
//
// LM head: LD the residual, RMSNorm with the final gain, QACT it into ACT row 0, then a LOOP
// over vocab tiles of VT rows: MM the tile's logits into one of two TMEM buffers and ST them
// to qwen.logits (alternating buffers, so the next tile's MM need not wait for the ST), and
// a last MM + ST for the vocab % VT rows that remain.
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_PROGRAM_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_PROGRAM_H_

#include "base/status.h"
#include "workloads/isa/program.h"
#include "workloads/models/qwen3_plan.h"

namespace otpu::models {

// Emits the LM head section (without HALT).
void EmitLmHead(isa::ProgramBuilder& b, const Qwen3Plan& plan);

// The whole step program, ending in HALT. InvalidArgument naming the instruction count when
// it does not fit IMEM_WORDS.
StatusOr<isa::Program> BuildQwen3Program(const Qwen3Plan& plan);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_PROGRAM_H_
