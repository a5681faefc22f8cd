#include "workloads/models/qwen3_formats.h"

namespace otpu::models {

LayerWFormats FormatsOfLayer(LayerFormat f, int /*layer*/, int /*layers*/) {
  switch (f) {
    case LayerFormat::kInt8: return {isa::WFormat::kINT8, isa::WFormat::kINT8};
    case LayerFormat::kInt4: return {isa::WFormat::kINT4, isa::WFormat::kINT4};
    case LayerFormat::kFp4: return {isa::WFormat::kFP4, isa::WFormat::kFP4};
    case LayerFormat::kMix: return {isa::WFormat::kINT8, isa::WFormat::kFP4};
  }
  return {};
}

isa::WFormat DefaultHeadFormat(LayerFormat f) {
  switch (f) {
    case LayerFormat::kInt4: return isa::WFormat::kINT4;
    case LayerFormat::kFp4: return isa::WFormat::kFP4;
    case LayerFormat::kInt8:
    case LayerFormat::kMix: return isa::WFormat::kINT8;
  }
  return isa::WFormat::kINT8;
}

bool HasFourBit(const WeightFormats& f, int layers) {
  if (f.head != isa::WFormat::kINT8) return true;
  for (int l = 0; l < layers; ++l) {
    LayerWFormats lf = FormatsOfLayer(f.layers, l, layers);
    if (lf.attn != isa::WFormat::kINT8 || lf.mlp != isa::WFormat::kINT8) return true;
  }
  return false;
}

const char* LayerFormatName(LayerFormat f) {
  switch (f) {
    case LayerFormat::kInt8: return "int8";
    case LayerFormat::kInt4: return "int4";
    case LayerFormat::kFp4: return "fp4";
    case LayerFormat::kMix: return "mix";
  }
  return "?";
}

std::string FormatsName(const WeightFormats& f) {
  const std::string layers = LayerFormatName(f.layers);
  const std::string head = isa::WFormatName(f.head);
  return layers == head ? layers : layers + "/" + head;
}

StatusOr<LayerFormat> ParseLayerFormat(const std::string& text, const std::string& what) {
  for (LayerFormat f : {LayerFormat::kInt8, LayerFormat::kInt4, LayerFormat::kFp4,
                        LayerFormat::kMix})
    if (text == LayerFormatName(f)) return f;
  return InvalidArgument(what + " '" + text + "' is not int8|int4|fp4|mix");
}

StatusOr<WeightFormats> ParseWeightFormats(const std::string& wf, const std::string& hf) {
  WeightFormats f;
  ASSIGN_OR_RETURN(f.layers, ParseLayerFormat(wf, "weight format"));
  if (hf == "-") {
    f.head = DefaultHeadFormat(f.layers);
    return f;
  }
  for (isa::WFormat h : {isa::WFormat::kINT8, isa::WFormat::kINT4, isa::WFormat::kFP4})
    if (hf == isa::WFormatName(h)) {
      f.head = h;
      return f;
    }
  return InvalidArgument("head format '" + hf + "' is not int8|int4|fp4|-");
}

}  // namespace otpu::models
