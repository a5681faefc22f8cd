#include "workloads/models/tiny_tokenizer.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <map>
#include <unordered_map>

#include "base/strings.h"
#include "workloads/models/byte_level.h"
#include "workloads/models/pre_tokenizer.h"

namespace otpu::models {

const char* TinyTrainingText() {
  return "What is the capital of France? The capital of France is Paris. Paris is a city on "
         "the river Seine, and it is the largest city in the country. What is the capital of "
         "Germany? The capital of Germany is Berlin.\n"
         "The accelerator runs one decode step of the model at a time: it reads the weights "
         "from memory, multiplies them with the activations, and writes the next token. "
         "Tokens are numbers; the tokenizer turns text into tokens and tokens back into text. "
         "In 2024 there were 365 days, 12 months and 52 weeks.\n"
         "user\nassistant\nHello! How can I help you today? I can answer questions, write "
         "code, and explain things. Let's think step by step.\n"
         "    def main():\n        return 0\n\n"
         "Le café est très bon. Ich möchte einen Kaffee, bitte. Grüße aus München! "
         "日本語のテキストです。你好，世界。Привет, мир! 😀 👍\n"
         "A systolic array multiplies a stream of int8 weights with stationary activations; "
         "each processing element adds its product to a running sum, and the quantizer "
         "scales the results back to floating point. Attention compares the query of the "
         "newest position with the keys of every earlier one, softmax turns the scores into "
         "weights, and the values are summed with those weights. Rotary embeddings rotate "
         "pairs of dimensions by an angle that grows with the position.\n"
         "Profiles show where the cycles went: which unit was busy, which one waited for "
         "memory, and how close the kernel came to the roofline. A good profiler answers "
         "questions quickly, explains its findings plainly, and never hides dropped records.\n"
         "Numbers: 0 1 2 3 4 5 6 7 8 9 10 100 1000 3.14159 2.71828 -42 +7 1e-6 0x1F.\n"
         "Punctuation and symbols: (a + b) * c = d; x[i] != y[j]; {key: \"value\"}; a/b, "
         "c\\d, e|f, g&h, 50% off, #tag, @user, ~home, `code`, 'quote'.\n"
         "She said: \"I'm sure we'll finish, and they've said they'd help; it's fine.\"\n"
         "Español: ¿Dónde está la biblioteca? Mañana por la mañana. Português: ação, coração. "
         "Français: où, déjà, garçon, Noël. Ελληνικά: καλημέρα. العربية: مرحبا. "
         "한국어: 안녕하세요. हिन्दी: नमस्ते. 🚀🎉🤖\n";
}

StatusOr<TinyBpe> TrainTinyBpe(const std::string& text, int max_symbols) {
  if (max_symbols < 256) {
    return InvalidArgument(
        StrFormat("max_symbols = %d: fewer than the 256 byte symbols", max_symbols));
  }
  ASSIGN_OR_RETURN(auto pre, PreTokenizer::FromPattern(kQwenPattern));
  std::vector<std::string_view> pieces;
  RETURN_IF_ERROR(pre->Split(text, &pieces));

  TinyBpe bpe;
  std::map<std::string, int> ids;
  for (int b = 0; b < 256; ++b) {
    bpe.symbols.push_back(ByteSymbol(uint8_t(b)));
    ids[bpe.symbols.back()] = b;
  }
  std::map<std::string_view, int> counts;
  for (std::string_view p : pieces) ++counts[p];
  std::vector<std::pair<std::vector<int>, int>> words;  // symbol ids, occurrences
  for (const auto& [piece, count] : counts) {
    std::vector<int> w;
    for (char c : piece) w.push_back(uint8_t(c));
    words.emplace_back(std::move(w), count);
  }

  std::unordered_map<uint64_t, int> pairs;  // (left id, right id) -> occurrences
  while (int(bpe.symbols.size()) < max_symbols) {
    pairs.clear();
    for (const auto& [w, count] : words) {
      for (size_t i = 0; i + 1 < w.size(); ++i)
        pairs[uint64_t(w[i]) << 32 | uint32_t(w[i + 1])] += count;
    }
    if (pairs.empty()) break;
    uint64_t best = 0;
    int best_count = 0;
    for (const auto& [key, count] : pairs) {  // ties go to the smaller pair: deterministic
      if (count > best_count || (count == best_count && key < best)) best = key, best_count = count;
    }
    const int a = int(best >> 32), b = int(best & 0xFFFFFFFF);
    const std::string merged = bpe.symbols[size_t(a)] + bpe.symbols[size_t(b)];
    int id;
    if (auto it = ids.find(merged); it != ids.end()) {
      id = it->second;  // another split of the same string: a merge, not a new symbol
    } else {
      id = int(bpe.symbols.size());
      bpe.symbols.push_back(merged);
      ids[merged] = id;
    }
    bpe.merges.emplace_back(bpe.symbols[size_t(a)], bpe.symbols[size_t(b)]);
    for (auto& [w, count] : words) {
      if (w.size() < 2) continue;
      std::vector<int> out;
      for (size_t i = 0; i < w.size(); ++i) {
        if (i + 1 < w.size() && w[i] == a && w[i + 1] == b) {
          out.push_back(id);
          ++i;
        } else {
          out.push_back(w[i]);
        }
      }
      w.swap(out);
    }
  }
  return bpe;
}

StatusOr<std::string> TinyTokenizerJson(int vocab_size, bool string_merges) {
  const int specials = int(std::size(kQwenSpecialTokens));
  if (vocab_size < 256 + specials) {
    return InvalidArgument(StrFormat("vocab_size = %d: a byte-level tokenizer needs at least %d",
                                     vocab_size, 256 + specials));
  }
  ASSIGN_OR_RETURN(TinyBpe bpe, TrainTinyBpe(TinyTrainingText(), vocab_size - specials));

  rapidjson::StringBuffer sb;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(sb);
  w.SetIndent(' ', 1);
  w.SetFormatOptions(rapidjson::kFormatSingleLineArray);
  w.StartObject();
  w.Key("version");
  w.String("1.0");
  w.Key("truncation");
  w.Null();
  w.Key("padding");
  w.Null();
  w.Key("added_tokens");
  w.StartArray();
  for (int i = 0; i < specials; ++i) {
    const std::string content = kQwenSpecialTokens[i];
    w.StartObject();
    w.Key("id");
    w.Int(int(bpe.symbols.size()) + i);
    w.Key("content");
    w.String(content.c_str());
    for (const char* flag : {"single_word", "lstrip", "rstrip", "normalized"}) {
      w.Key(flag);
      w.Bool(false);
    }
    w.Key("special");
    w.Bool(content != "<think>" && content != "</think>");  // as in Qwen3's file
    w.EndObject();
  }
  w.EndArray();
  w.Key("normalizer");
  w.StartObject();
  w.Key("type");
  w.String("NFC");
  w.EndObject();
  w.Key("pre_tokenizer");
  w.StartObject();
  w.Key("type");
  w.String("Sequence");
  w.Key("pretokenizers");
  w.StartArray();
  w.StartObject();
  w.Key("type");
  w.String("Split");
  w.Key("pattern");
  w.StartObject();
  w.Key("Regex");
  w.String(kQwenPattern);
  w.EndObject();
  w.Key("behavior");
  w.String("Isolated");
  w.Key("invert");
  w.Bool(false);
  w.EndObject();
  w.StartObject();
  w.Key("type");
  w.String("ByteLevel");
  w.Key("add_prefix_space");
  w.Bool(false);
  w.Key("trim_offsets");
  w.Bool(false);
  w.Key("use_regex");
  w.Bool(false);
  w.EndObject();
  w.EndArray();
  w.EndObject();
  for (const char* key : {"post_processor", "decoder"}) {
    w.Key(key);
    w.StartObject();
    w.Key("type");
    w.String("ByteLevel");
    w.EndObject();
  }
  w.Key("model");
  w.StartObject();
  w.Key("type");
  w.String("BPE");
  w.Key("dropout");
  w.Null();
  w.Key("unk_token");
  w.Null();
  w.Key("continuing_subword_prefix");
  w.String("");
  w.Key("end_of_word_suffix");
  w.String("");
  w.Key("fuse_unk");
  w.Bool(false);
  w.Key("byte_fallback");
  w.Bool(false);
  w.Key("ignore_merges");
  w.Bool(false);
  w.Key("vocab");
  w.StartObject();
  for (size_t id = 0; id < bpe.symbols.size(); ++id) {
    w.Key(bpe.symbols[id].c_str());
    w.Int(int(id));
  }
  w.EndObject();
  w.Key("merges");
  w.StartArray();
  for (const auto& [a, b] : bpe.merges) {
    if (string_merges) {
      w.String((a + " " + b).c_str());
    } else {
      w.StartArray();
      w.String(a.c_str());
      w.String(b.c_str());
      w.EndArray();
    }
  }
  w.EndArray();
  w.EndObject();
  w.EndObject();
  return std::string(sb.GetString()) + "\n";
}

}  // namespace otpu::models
