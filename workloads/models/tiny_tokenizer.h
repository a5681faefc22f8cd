// A small byte-level BPE tokenizer for tiny checkpoints: the 256 byte symbols, merges learned
// from a built-in text with the Qwen pre-tokenizer, and the Qwen special tokens, written as a
// Qwen-style tokenizer.json so tests run the real loading path.
#ifndef OTPU_WORKLOADS_MODELS_TINY_TOKENIZER_H_
#define OTPU_WORKLOADS_MODELS_TINY_TOKENIZER_H_

#include <string>
#include <utility>
#include <vector>

#include "base/status.h"

namespace otpu::models {

// The Qwen added tokens the tiny tokenizer carries, in id order after the BPE vocabulary.
inline constexpr const char* kQwenSpecialTokens[] = {"<|endoftext|>", "<|im_start|>", "<|im_end|>",
                                                     "<think>", "</think>"};

// The English/multilingual paragraph the merges are learned from.
const char* TinyTrainingText();

// A learned vocabulary: symbols[id] are byte-level symbol strings (ids 0..255 are the bytes),
// merges in rank order.
struct TinyBpe {
  std::vector<std::string> symbols;
  std::vector<std::pair<std::string, std::string>> merges;
};

// Learns merges from `text` (most frequent adjacent pair first, ties to the smaller pair of
// ids) until there are `max_symbols` symbols or no pair is left. InvalidArgument when
// max_symbols < 256.
StatusOr<TinyBpe> TrainTinyBpe(const std::string& text, int max_symbols);

// tokenizer.json text for a tokenizer of at most `vocab_size` ids (BPE symbols plus the five
// special tokens), merges as ["a", "b"] pairs or, with `string_merges`, as "a b" strings.
// InvalidArgument naming vocab_size when it cannot hold the bytes and the special tokens.
StatusOr<std::string> TinyTokenizerJson(int vocab_size, bool string_merges = false);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_TINY_TOKENIZER_H_
