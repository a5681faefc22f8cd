#include "host/xdma/transfer_plan.h"

#include <algorithm>

namespace otpu::host {

BeatSpan WidenToBeats(uint64_t addr, uint64_t len) {
  BeatSpan span;
  uint64_t end = addr + len;
  span.start = addr & ~(kBeatBytes - 1);
  span.end = (end + kBeatBytes - 1) & ~(kBeatBytes - 1);
  span.partial_head = addr != span.start;
  span.partial_tail = end != span.end;
  return span;
}

uint64_t PieceLimit(uint64_t max_piece) {
  return std::max(kBeatBytes, max_piece & ~(kBeatBytes - 1));
}

std::vector<TransferPiece> SplitSpan(const BeatSpan& span, uint64_t max_piece) {
  const uint64_t limit = PieceLimit(max_piece);
  std::vector<TransferPiece> pieces;
  pieces.reserve((span.end - span.start + limit - 1) / limit);
  for (uint64_t at = span.start; at < span.end; at += limit) {
    pieces.push_back({at, std::min(limit, span.end - at)});
  }
  return pieces;
}

}  // namespace otpu::host
