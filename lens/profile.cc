#include "lens/profile.h"

#include <ctime>

namespace otpu::lens {
namespace {

constexpr std::array<const char*, 4> kKindNames = {"rtl", "isa", "board", "hw"};
constexpr std::array<const char*, 4> kLevelNames = {"good", "warn", "bad", "info"};

}  // namespace

const char* KindName(ProfileKind kind) { return kKindNames[static_cast<int>(kind)]; }

bool ParseKind(std::string_view name, ProfileKind* kind) {
  for (size_t i = 0; i < kKindNames.size(); ++i) {
    if (name == kKindNames[i]) {
      *kind = static_cast<ProfileKind>(i);
      return true;
    }
  }
  return false;
}

const char* NoteLevelName(NoteLevel level) { return kLevelNames[static_cast<int>(level)]; }

bool ParseNoteLevel(std::string_view name, NoteLevel* level) {
  for (size_t i = 0; i < kLevelNames.size(); ++i) {
    if (name == kLevelNames[i]) {
      *level = static_cast<NoteLevel>(i);
      return true;
    }
  }
  return false;
}

ProfileConfig ConfigOf(const isa::Config& cfg) {
  ProfileConfig c;
  c.S = cfg.S;
  c.D = cfg.D;
  c.MCOLS = cfg.MCOLS;
  c.LANES = cfg.LANES;
  c.CL = cfg.CL;
  c.ACT_BLOCKS = cfg.ACT_BLOCKS;
  c.TMEM_WORDS = cfg.TMEM_WORDS;
  c.DRAM_BYTES = static_cast<int64_t>(cfg.DRAM_BYTES);
  c.IMEM_WORDS = cfg.IMEM_WORDS;
  c.FIFO_DEPTH = cfg.FIFO_DEPTH;
  c.WIN = cfg.WIN;
  c.MEM = cfg.MEM;
  return c;
}

const std::array<std::pair<const char*, std::vector<int64_t> Buckets::*>, Buckets::kNumColumns>&
Buckets::Columns() {
  static const std::array<std::pair<const char*, std::vector<int64_t> Buckets::*>, kNumColumns>
      kColumns = {{{"c", &Buckets::c},
                   {"n", &Buckets::n},
                   {"bm", &Buckets::bm},
                   {"bd", &Buckets::bd},
                   {"am", &Buckets::am},
                   {"aq", &Buckets::aq},
                   {"mx", &Buckets::mx},
                   {"fm", &Buckets::fm},
                   {"fq", &Buckets::fq},
                   {"fv", &Buckets::fv},
                   {"fc", &Buckets::fc},
                   {"bs", &Buckets::bs},
                   {"as", &Buckets::as},
                   {"ms", &Buckets::ms},
                   {"mb", &Buckets::mb},
                   {"ff", &Buckets::ff},
                   {"ld", &Buckets::ld}}};
  return kColumns;
}

void Buckets::Resize(size_t windows) {
  for (const auto& [name, column] : Columns()) (this->*column).resize(windows, 0);
}

std::string NowIso8601() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace otpu::lens
