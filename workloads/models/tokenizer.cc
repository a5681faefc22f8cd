#include "workloads/models/tokenizer.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <functional>
#include <queue>

#include "base/strings.h"
#include "workloads/models/byte_level.h"
#include "workloads/models/pre_tokenizer.h"
#include "workloads/models/safetensors.h"
#include "base/json.h"

namespace otpu::models {
namespace {

bool IsAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return uint8_t(c) < 0x80; });
}

// Accepts null, NFC, or a Sequence of NFCs; anything else changes the text in ways we do
// not implement.
Status ParseNormalizer(const rapidjson::Value& v, const std::string& where, bool* nfc) {
  if (v.IsNull()) return OkStatus();
  const std::string type =
      v.IsObject() && v.HasMember("type") && v["type"].IsString() ? v["type"].GetString() : "";
  if (type == "NFC") {
    *nfc = true;
    return OkStatus();
  }
  if (type == "Sequence" && v.HasMember("normalizers") && v["normalizers"].IsArray()) {
    for (const auto& n : v["normalizers"].GetArray())
      RETURN_IF_ERROR(ParseNormalizer(n, where, nfc));
    return OkStatus();
  }
  return InvalidArgument(where + ": normalizer type '" + type + "' is not supported (only NFC)");
}

}  // namespace

Tokenizer::Tokenizer(std::string path) : path_(std::move(path)) {}
Tokenizer::~Tokenizer() = default;

StatusOr<std::unique_ptr<Tokenizer>> Tokenizer::FromFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string json, ReadFileToString(path));
  return FromJson(json, path);
}

StatusOr<std::unique_ptr<Tokenizer>> Tokenizer::FromJson(const std::string& json,
                                                         const std::string& path) {
  std::unique_ptr<Tokenizer> t(new Tokenizer(path));
  RETURN_IF_ERROR(t->Load(json));
  return t;
}

Status Tokenizer::Load(const std::string& json) {
  rapidjson::Document doc;
  RETURN_IF_ERROR(ParseJson(json, path_, &doc));
  if (!doc.IsObject() || !doc.HasMember("model") || !doc["model"].IsObject()) {
    return InvalidArgument(path_ + ": missing field model");
  }
  const auto& model = doc["model"];
  const std::string type =
      model.HasMember("type") && model["type"].IsString() ? model["type"].GetString() : "";
  if (type != "BPE") {
    return InvalidArgument(path_ + ": model.type '" + type + "' is not supported (only BPE)");
  }
  for (const char* field : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    if (model.HasMember(field) && !model[field].IsNull() &&
        !(model[field].IsString() && model[field].GetStringLength() == 0)) {
      return InvalidArgument(path_ + ": model." + field + " is not supported");
    }
  }
  ignore_merges_ = model.HasMember("ignore_merges") && model["ignore_merges"].IsTrue();

  // Vocabulary.
  if (!model.HasMember("vocab") || !model["vocab"].IsObject()) {
    return InvalidArgument(path_ + ": missing field model.vocab");
  }
  // Ids index a table, so they are bounded by the tokens the file defines (a vocabulary and its
  // added tokens number them from 0, with a few gaps at most), never by a number in it.
  constexpr size_t kIdSlack = 65536;
  const size_t tokens =
      size_t(model["vocab"].MemberCount()) +
      (doc.HasMember("added_tokens") && doc["added_tokens"].IsArray() ? doc["added_tokens"].Size() : 0);
  const size_t max_ids = tokens + kIdSlack;
  for (auto it = model["vocab"].MemberBegin(); it != model["vocab"].MemberEnd(); ++it) {
    const std::string token(it->name.GetString(), it->name.GetStringLength());
    if (!it->value.IsInt() || it->value.GetInt() < 0) {
      return InvalidArgument(path_ + ": model.vocab['" + token + "'] is not an id");
    }
    const int id = it->value.GetInt();
    if (size_t(id) >= max_ids) {
      return InvalidArgument(StrFormat("%s: model.vocab['%s'] = %d: more than %zu past the %zu tokens "
                                       "the file defines", path_.c_str(), token.c_str(), id, kIdSlack, tokens));
    }
    if (size_t(id) >= id_to_token_.size()) id_to_token_.resize(size_t(id) + 1);
    vocab_[token] = id;
    id_to_token_[size_t(id)] = token;
  }
  for (int b = 0; b < 256; ++b) {
    auto it = vocab_.find(ByteSymbol(uint8_t(b)));
    if (it == vocab_.end()) {
      return InvalidArgument(
          StrFormat("%s: model.vocab has no symbol '%s' for byte 0x%02x: not "
                    "a byte-level vocabulary",
                    path_.c_str(), ByteSymbol(uint8_t(b)).c_str(), b));
    }
    byte_id_[b] = it->second;
  }

  // Merges: "a b" strings (older files) or ["a", "b"] pairs (tokenizers >= 0.20).
  if (!model.HasMember("merges") || !model["merges"].IsArray()) {
    return InvalidArgument(path_ + ": missing field model.merges");
  }
  int rank = 0;
  for (const auto& m : model["merges"].GetArray()) {
    const std::string where = StrFormat("%s: model.merges[%d]", path_.c_str(), rank);
    std::string a, b;
    if (m.IsString()) {
      const std::string s(m.GetString(), m.GetStringLength());
      const size_t space = s.find(' ');
      if (space == std::string::npos || s.find(' ', space + 1) != std::string::npos) {
        return InvalidArgument(where + ": '" + s + "' is not two symbols split by one space");
      }
      a = s.substr(0, space), b = s.substr(space + 1);
    } else if (m.IsArray() && m.Size() == 2 && m[0].IsString() && m[1].IsString()) {
      a.assign(m[0].GetString(), m[0].GetStringLength());
      b.assign(m[1].GetString(), m[1].GetStringLength());
    } else {
      return InvalidArgument(where + ": neither \"a b\" nor [\"a\", \"b\"]");
    }
    const auto ia = vocab_.find(a), ib = vocab_.find(b), iab = vocab_.find(a + b);
    for (const auto& [it, sym] : {std::pair{ia, a}, std::pair{ib, b}, std::pair{iab, a + b}}) {
      if (it == vocab_.end())
        return InvalidArgument(where + ": '" + sym + "' is not in model.vocab");
    }
    // A repeated pair keeps its first (best) rank, as in Hugging Face tokenizers.
    merges_.try_emplace(PairKey(ia->second, ib->second), Merge{rank, iab->second});
    ++rank;
  }

  // Added tokens, matched in the raw text before anything else.
  if (doc.HasMember("added_tokens") && doc["added_tokens"].IsArray()) {
    int i = 0;
    for (const auto& a : doc["added_tokens"].GetArray()) {
      if (!a.IsObject() || !a.HasMember("id") || !a["id"].IsInt() || a["id"].GetInt() < 0 ||
          !a.HasMember("content") || !a["content"].IsString() ||
          a["content"].GetStringLength() == 0) {
        return InvalidArgument(
            StrFormat("%s: added_tokens[%d] needs an id and a content", path_.c_str(), i));
      }
      AddedToken t{a["id"].GetInt(), a["content"].GetString(),
                   a.HasMember("special") && a["special"].IsTrue()};
      if (size_t(t.id) >= max_ids) {
        return InvalidArgument(StrFormat("%s: added_tokens[%d].id = %d: more than %zu past the %zu "
                                         "tokens the file defines", path_.c_str(), i, t.id, kIdSlack, tokens));
      }
      if (size_t(t.id) >= id_to_token_.size()) id_to_token_.resize(size_t(t.id) + 1);
      id_to_token_[size_t(t.id)] = t.content;
      added_ids_[t.content] = t.id;
      added_.push_back(std::move(t));
      ++i;
    }
  }
  is_added_.assign(id_to_token_.size(), false);
  is_special_.assign(id_to_token_.size(), false);
  for (const auto& a : added_) {
    is_added_[size_t(a.id)] = true;
    is_special_[size_t(a.id)] = a.special;
  }

  if (doc.HasMember("normalizer")) {
    RETURN_IF_ERROR(ParseNormalizer(doc["normalizer"], path_, &nfc_));
  }
  static const rapidjson::Value kNull;
  ASSIGN_OR_RETURN(pre_, PreTokenizer::FromJson(
                             doc.HasMember("pre_tokenizer") ? doc["pre_tokenizer"] : kNull, path_));
  return OkStatus();
}

StatusOr<std::string> Tokenizer::Normalize(std::string_view segment) const {
  if (!nfc_ || IsAscii(segment)) return std::string(segment);
  UErrorCode err = U_ZERO_ERROR;
  const icu::Normalizer2* nfc = icu::Normalizer2::getNFCInstance(err);
  if (U_FAILURE(err)) return Internal(std::string("ICU NFC: ") + u_errorName(err));
  const icu::UnicodeString in =
      icu::UnicodeString::fromUTF8(icu::StringPiece(segment.data(), int32_t(segment.size())));
  const icu::UnicodeString out = nfc->normalize(in, err);
  if (U_FAILURE(err)) return Internal(std::string("ICU NFC: ") + u_errorName(err));
  std::string utf8;
  out.toUTF8String(utf8);
  return utf8;
}

void Tokenizer::Bpe(std::string_view piece, std::vector<int>* out) const {
  if (ignore_merges_) {
    auto it = vocab_.find(BytesToSymbols(piece));
    if (it != vocab_.end()) {
      out->push_back(it->second);
      return;
    }
  }
  // Symbols as a linked list; a min-heap of candidate merges by (rank, position) gives Hugging
  // Face's order (best rank first, leftmost among equals) in O(n log n) for long pieces.
  const int n = int(piece.size());
  std::vector<int> id(piece.size()), next(piece.size()), prev(piece.size());
  for (int i = 0; i < n; ++i) {
    id[i] = byte_id_[uint8_t(piece[i])];
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  struct Candidate {
    int rank, left, right, left_id, right_id;
    bool operator>(const Candidate& o) const {
      return rank != o.rank ? rank > o.rank : left > o.left;
    }
  };
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> heap;
  auto consider = [&](int left, int right) {
    if (left < 0 || right >= n) return;
    auto it = merges_.find(PairKey(id[left], id[right]));
    if (it != merges_.end()) heap.push({it->second.rank, left, right, id[left], id[right]});
  };
  for (int i = 0; i + 1 < n; ++i) consider(i, i + 1);
  std::vector<bool> dead(piece.size(), false);
  while (!heap.empty()) {
    const Candidate c = heap.top();
    heap.pop();
    // Stale when either side has merged since the candidate was pushed.
    if (dead[c.left] || next[c.left] != c.right || id[c.left] != c.left_id ||
        id[c.right] != c.right_id) {
      continue;
    }
    id[c.left] = merges_.at(PairKey(c.left_id, c.right_id)).id;
    dead[c.right] = true;
    next[c.left] = next[c.right];
    if (next[c.left] < n) prev[next[c.left]] = c.left;
    consider(prev[c.left], c.left);
    consider(c.left, next[c.left]);
  }
  for (int i = 0; i < n; i = next[i]) out->push_back(id[i]);
}

Status Tokenizer::SplitNamingFile(std::string_view text,
                                  std::vector<std::string_view>* pieces) const {
  // The patterns come from tokenizer.json: a pattern that fails at match time (PCRE2's match
  // limit) is that file's fault, so the error names it.
  Status s = pre_->Split(text, pieces);
  if (!s.ok()) return DataLoss(path_ + ": pre_tokenizer: " + s.message());
  return OkStatus();
}

StatusOr<std::vector<std::string>> Tokenizer::PreTokenize(std::string_view text) const {
  if (const size_t bad = FindInvalidUtf8(text); bad != std::string_view::npos) {
    return InvalidArgument(StrFormat("text: invalid UTF-8 at byte %zu", bad));
  }
  std::vector<std::string_view> pieces;
  RETURN_IF_ERROR(SplitNamingFile(text, &pieces));
  return std::vector<std::string>(pieces.begin(), pieces.end());
}

StatusOr<std::vector<int>> Tokenizer::Encode(std::string_view text) const {
  if (const size_t bad = FindInvalidUtf8(text); bad != std::string_view::npos) {
    return InvalidArgument(StrFormat("text: invalid UTF-8 at byte %zu", bad));
  }
  std::vector<int> ids;
  std::vector<std::string_view> pieces;
  auto encode_segment = [&](std::string_view segment) -> Status {
    if (segment.empty()) return OkStatus();
    ASSIGN_OR_RETURN(std::string normalized, Normalize(segment));
    pieces.clear();
    RETURN_IF_ERROR(SplitNamingFile(normalized, &pieces));
    for (std::string_view p : pieces) Bpe(p, &ids);
    return OkStatus();
  };
  size_t segment_start = 0, pos = 0;
  while (pos < text.size()) {
    // The longest added token starting here (there are a few dozen at most).
    const AddedToken* match = nullptr;
    for (const auto& a : added_) {
      if (text.compare(pos, a.content.size(), a.content) == 0 &&
          (match == nullptr || a.content.size() > match->content.size())) {
        match = &a;
      }
    }
    if (match == nullptr) {
      ++pos;
      continue;
    }
    RETURN_IF_ERROR(encode_segment(text.substr(segment_start, pos - segment_start)));
    ids.push_back(match->id);
    pos += match->content.size();
    segment_start = pos;
  }
  RETURN_IF_ERROR(encode_segment(text.substr(segment_start)));
  return ids;
}

StatusOr<std::string> Tokenizer::Decode(std::span<const int> ids, bool skip_special) const {
  std::string out, symbols;
  for (int id : ids) {
    if (id < 0 || size_t(id) >= id_to_token_.size() || id_to_token_[size_t(id)].empty()) {
      return InvalidArgument(
          StrFormat("%s: token id %d is not in the vocabulary", path_.c_str(), id));
    }
    const std::string& text = id_to_token_[size_t(id)];
    if (is_added_[size_t(id)]) {
      if (skip_special && is_special_[size_t(id)]) continue;
      out += SymbolsToBytes(symbols);  // added tokens are raw text, not byte-level symbols
      symbols.clear();
      out += text;
    } else {
      symbols += text;
    }
  }
  return out + SymbolsToBytes(symbols);
}

int Tokenizer::TokenId(std::string_view token) const {
  const std::string key(token);
  if (auto it = added_ids_.find(key); it != added_ids_.end()) return it->second;
  if (auto it = vocab_.find(key); it != vocab_.end()) return it->second;
  return -1;
}

std::string_view Tokenizer::TokenText(int id) const {
  if (id < 0 || size_t(id) >= id_to_token_.size()) return {};
  return id_to_token_[size_t(id)];
}

std::string QwenChatPrompt(std::string_view prompt) {
  return "<|im_start|>user\n" + std::string(prompt) +
         "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n";
}

}  // namespace otpu::models
