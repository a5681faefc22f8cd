// Weight formats of the Qwen3 engine: one format for the decoder layers (int8, int4, fp4, or
// `mix`, a fixed per-layer choice) and one for the LM head, as `--wformat` / `--head-format`
// and otpu-prebuild's MODEL:WF:HF name them.
//
// mix: every layer keeps its attention projections (q, k, v, o) in int8 and stores its MLP
// (gate, up, down: 60 % of a Qwen3-0.6B layer's weights) in fp4; the head defaults to
// int8. The attention path also feeds the KV cache every later position reads; measured on
// qwen-tiny the opposite split is worse (docs/models.md, "Weight formats").
#ifndef OTPU_WORKLOADS_MODELS_QWEN3_FORMATS_H_
#define OTPU_WORKLOADS_MODELS_QWEN3_FORMATS_H_

#include <string>

#include "base/status.h"
#include "workloads/isa/defs.h"

namespace otpu::models {

// The layers' format as the command lines name it.
enum class LayerFormat { kInt8, kInt4, kFp4, kMix };

// The formats of a run: the layers' and the LM head's.
struct WeightFormats {
  LayerFormat layers = LayerFormat::kInt8;
  isa::WFormat head = isa::WFormat::kINT8;
};

// The formats of one decoder layer's matrices.
struct LayerWFormats {
  isa::WFormat attn = isa::WFormat::kINT8;  // q, k, v, o projections
  isa::WFormat mlp = isa::WFormat::kINT8;   // gate, up, down
};

// What `f` means for layer `layer` of `layers` (the same for every layer today; the layer
// index is there so a mix can single layers out).
LayerWFormats FormatsOfLayer(LayerFormat f, int layer, int layers);
// The head's format when the command line says "-": the layers' own, int8 for mix.
isa::WFormat DefaultHeadFormat(LayerFormat f);
// True when any matrix is 4-bit: the ones the image cache holds.
bool HasFourBit(const WeightFormats& f, int layers);

// "int8", "int4", "fp4", "mix".
const char* LayerFormatName(LayerFormat f);
// "int8" or "fp4/int8" (layers/head when they differ).
std::string FormatsName(const WeightFormats& f);
// Parses the layers' format; InvalidArgument naming `what` and the valid names.
StatusOr<LayerFormat> ParseLayerFormat(const std::string& text, const std::string& what);
// Parses WF and HF ("-" = DefaultHeadFormat(WF)); InvalidArgument naming the bad field.
StatusOr<WeightFormats> ParseWeightFormats(const std::string& wf, const std::string& hf);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_QWEN3_FORMATS_H_
