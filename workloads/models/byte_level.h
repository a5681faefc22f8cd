// The GPT-2 byte-level alphabet and the UTF-8 helpers byte-level BPE needs: every byte maps
// to one printable code point (printable ASCII and Latin-1 to themselves, the rest to
// U+0100 upward), so any byte string is a string of vocabulary symbols.
#ifndef OTPU_WORKLOADS_MODELS_BYTE_LEVEL_H_
#define OTPU_WORKLOADS_MODELS_BYTE_LEVEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace otpu::models {

// The code point byte `b` stands for.
uint32_t ByteToCodePoint(uint8_t b);
// The byte code point `cp` stands for; -1 when `cp` is not in the alphabet.
int CodePointToByte(uint32_t cp);
// The UTF-8 encoding of the symbol for byte `b`.
const std::string& ByteSymbol(uint8_t b);

// Appends the UTF-8 encoding of `cp` (< 0x110000) to `out`.
void AppendUtf8(uint32_t cp, std::string* out);
// Decodes the code point at s[*pos] and advances *pos; returns -1 (advancing one byte) on a
// malformed sequence.
int32_t NextCodePoint(std::string_view s, size_t* pos);
// The byte offset of the first malformed UTF-8 sequence in `s`, or npos when it is valid.
size_t FindInvalidUtf8(std::string_view s);

// Bytes -> byte-level symbols ("hi there" -> "hiĠthere").
std::string BytesToSymbols(std::string_view bytes);
// Byte-level symbols -> bytes; code points outside the alphabet are kept as UTF-8.
std::string SymbolsToBytes(std::string_view symbols);

}  // namespace otpu::models

#endif  // OTPU_WORKLOADS_MODELS_BYTE_LEVEL_H_
