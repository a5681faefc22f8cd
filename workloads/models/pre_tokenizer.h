// The pre-tokenizer of a byte-level BPE tokenizer.json: a chain of regex splits (Split with
// behavior Isolated, or ByteLevel with use_regex) run with PCRE2 in UTF + UCP mode, JIT
// compiled when the library has JIT. Each step cuts every piece of the previous one; text
// between matches is kept as its own piece.
#ifndef OTPU_WORKLOADS_MODELS_PRE_TOKENIZER_H_
#define OTPU_WORKLOADS_MODELS_PRE_TOKENIZER_H_

#include <rapidjson/document.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace otpu::models {

// The GPT-2 pattern ByteLevel uses when its use_regex is true.
inline constexpr char kGpt2Pattern[] =
    R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";

// The Qwen2/Qwen3 Split pattern (digits one by one, case-insensitive contractions).
inline constexpr char kQwenPattern[] =
    R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";

class PreTokenizer {
 public:
  // Builds the chain from tokenizer.json's "pre_tokenizer" value (null: no splitting).
  // InvalidArgument naming `path` and the field for a type, behavior or option we do not
  // implement, or a pattern PCRE2 rejects (with its message and offset).
  static StatusOr<std::unique_ptr<PreTokenizer>> FromJson(const rapidjson::Value& value,
                                                          const std::string& path);
  // A chain of one regex (tests, the tiny-tokenizer trainer).
  static StatusOr<std::unique_ptr<PreTokenizer>> FromPattern(const std::string& pattern);
  ~PreTokenizer();
  PreTokenizer(const PreTokenizer&) = delete;
  PreTokenizer& operator=(const PreTokenizer&) = delete;

  // Appends the pieces of `text` (valid UTF-8, not checked again) to `pieces`; they view
  // `text`. Internal if PCRE2 gives up (match limit).
  Status Split(std::string_view text, std::vector<std::string_view>* pieces) const;
  // Whether the patterns run JIT compiled.
  bool jit() const { return jit_; }

 private:
  PreTokenizer() = default;
  Status Add(const std::string& pattern, bool literal, const std::string& where);
  Status AddJson(const rapidjson::Value& value, const std::string& where);

  std::vector<void*> codes_;  // pcre2_code_8*, kept opaque so users need no PCRE2 headers
  bool jit_ = true;
};

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_PRE_TOKENIZER_H_
