#include "workloads/models/byte_level.h"

#include <array>

namespace otpu::models {
namespace {

struct Tables {
  std::array<uint32_t, 256> to_cp{};
  std::array<std::string, 256> symbol;
  std::array<int16_t, 512> to_byte{};  // every alphabet code point is below 512
  Tables() {
    to_byte.fill(-1);
    uint32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
      to_cp[b] = printable ? uint32_t(b) : next++;
      AppendUtf8(to_cp[b], &symbol[b]);
      to_byte[to_cp[b]] = int16_t(b);
    }
  }
};

const Tables& T() {
  static const Tables tables;
  return tables;
}

}  // namespace

uint32_t ByteToCodePoint(uint8_t b) { return T().to_cp[b]; }

int CodePointToByte(uint32_t cp) { return cp < 512 ? T().to_byte[cp] : -1; }

const std::string& ByteSymbol(uint8_t b) { return T().symbol[b]; }

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(char(cp));
  } else if (cp < 0x800) {
    out->push_back(char(0xC0 | (cp >> 6)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(char(0xE0 | (cp >> 12)));
    out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(char(0xF0 | (cp >> 18)));
    out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(char(0x80 | (cp & 0x3F)));
  }
}

int32_t NextCodePoint(std::string_view s, size_t* pos) {
  const auto byte = [&](size_t i) { return uint8_t(s[i]); };
  const uint8_t b0 = byte(*pos);
  int len = 0;
  uint32_t cp = 0, min = 0;
  if (b0 < 0x80) {
    ++*pos;
    return b0;
  } else if ((b0 & 0xE0) == 0xC0) {
    len = 2, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    len = 3, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    len = 4, cp = b0 & 0x07, min = 0x10000;
  } else {
    ++*pos;
    return -1;
  }
  if (*pos + len > s.size()) {
    ++*pos;
    return -1;
  }
  for (int i = 1; i < len; ++i) {
    if ((byte(*pos + i) & 0xC0) != 0x80) {
      ++*pos;
      return -1;
    }
    cp = cp << 6 | (byte(*pos + i) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++*pos;
    return -1;
  }
  *pos += len;
  return int32_t(cp);
}

size_t FindInvalidUtf8(std::string_view s) {
  size_t pos = 0;
  while (pos < s.size()) {
    const size_t at = pos;
    if (NextCodePoint(s, &pos) < 0) return at;
  }
  return std::string_view::npos;
}

std::string BytesToSymbols(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (char c : bytes) out += ByteSymbol(uint8_t(c));
  return out;
}

std::string SymbolsToBytes(std::string_view symbols) {
  std::string out;
  size_t pos = 0;
  while (pos < symbols.size()) {
    const size_t at = pos;
    const int32_t cp = NextCodePoint(symbols, &pos);
    const int b = cp < 0 ? -1 : CodePointToByte(uint32_t(cp));
    if (b >= 0) {
      out.push_back(char(b));
    } else {
      out.append(symbols.substr(at, pos - at));
    }
  }
  return out;
}

}  // namespace otpu::models
