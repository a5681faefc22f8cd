// A byte-level BPE tokenizer read from a Hugging Face tokenizer.json (the Qwen2/Qwen3 and
// GPT-2 family): added/special tokens matched first, NFC, the pre-tokenizer's Split regexes
// (PCRE2, UTF + UCP, JIT when available), the GPT-2 byte-to-unicode map, merges by rank.
// Also the Qwen chat template.
#ifndef OTPU_WORKLOADS_MODELS_TOKENIZER_H_
#define OTPU_WORKLOADS_MODELS_TOKENIZER_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/status.h"

namespace otpu::models {

class PreTokenizer;

// One entry of tokenizer.json's added_tokens.
struct AddedToken {
  int id = 0;
  std::string content;
  bool special = false;
};

// An immutable tokenizer; Encode and Decode are safe to call from several threads.
class Tokenizer {
 public:
  // Reads `path` (a tokenizer.json); errors name the file and the field.
  static StatusOr<std::unique_ptr<Tokenizer>> FromFile(const std::string& path);
  // Parses tokenizer.json text; `path` is only used in messages.
  static StatusOr<std::unique_ptr<Tokenizer>> FromJson(const std::string& json,
                                                       const std::string& path);
  ~Tokenizer();
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;

  // Token ids of UTF-8 `text`; added tokens (<|im_start|> ...) are recognised anywhere.
  // InvalidArgument naming the byte offset for malformed UTF-8.
  StatusOr<std::vector<int>> Encode(std::string_view text) const;
  // The text of `ids` (byte-level symbols back to bytes; a cut multi-byte character stays
  // cut). InvalidArgument naming an id that is not in the vocabulary.
  StatusOr<std::string> Decode(std::span<const int> ids, bool skip_special = false) const;
  // The pieces the pre-tokenizer cuts `text` into (no added-token matching, no NFC).
  StatusOr<std::vector<std::string>> PreTokenize(std::string_view text) const;

  // The id of token `token` (a vocabulary symbol string or an added token), or -1.
  int TokenId(std::string_view token) const;
  // The vocabulary symbol string or added-token content of `id`; empty when unknown.
  std::string_view TokenText(int id) const;
  // One more than the largest id.
  int vocab_size() const { return int(id_to_token_.size()); }
  // The added tokens, as listed in the file.
  const std::vector<AddedToken>& added_tokens() const { return added_; }
  // The path the tokenizer came from.
  const std::string& path() const { return path_; }

 private:
  // pre_->Split, with a failure named after this tokenizer's file (DataLoss).
  Status SplitNamingFile(std::string_view text, std::vector<std::string_view>* pieces) const;
  explicit Tokenizer(std::string path);
  Status Load(const std::string& json);
  void Bpe(std::string_view piece, std::vector<int>* out) const;
  StatusOr<std::string> Normalize(std::string_view segment) const;

  struct Merge {
    int rank;
    int id;  // the merged token
  };
  static uint64_t PairKey(int a, int b) { return uint64_t(uint32_t(a)) << 32 | uint32_t(b); }

  std::string path_;
  std::unordered_map<std::string, int> vocab_;  // symbol string -> id (model.vocab)
  std::vector<std::string> id_to_token_;        // id -> symbol string or added content
  std::vector<bool> is_added_, is_special_;     // by id
  std::unordered_map<uint64_t, Merge> merges_;  // (left id, right id) -> rank, merged id
  std::vector<AddedToken> added_;
  std::unordered_map<std::string, int> added_ids_;
  int byte_id_[256] = {};  // the id of each byte's symbol
  bool nfc_ = false;
  bool ignore_merges_ = false;
  std::unique_ptr<PreTokenizer> pre_;
};

// Wraps one user turn in the Qwen chat template with thinking off, ready for generation:
// "<|im_start|>user\n{prompt}<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n".
std::string QwenChatPrompt(std::string_view prompt);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_TOKENIZER_H_
