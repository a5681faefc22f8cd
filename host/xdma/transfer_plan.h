// How XdmaBoard cuts one DMA request into driver transfers (SPEC 4, 7): the host moves whole
// 64-byte beats, so a request is widened to beat boundaries, and no single pread/pwrite may
// pass the driver's limit, so the widened range is split into pieces of at most `max_piece`
// bytes (a multiple of the beat). Pure arithmetic, kept apart so it is tested on its own.
#ifndef OTPU_HOST_XDMA_TRANSFER_PLAN_H_
#define OTPU_HOST_XDMA_TRANSFER_PLAN_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace otpu::host {

// Bytes of one DRAM beat: the unit every host write covers whole (SPEC 4).
inline constexpr uint64_t kBeatBytes = 64;

// The beat-aligned range [start, end) that covers [addr, addr + len).
struct BeatSpan {
  uint64_t start = 0;
  uint64_t end = 0;
  // True when the first / last beat is only partly covered by the request (a write must
  // read it first and merge).
  bool partial_head = false;
  bool partial_tail = false;
};

// The beats covering [addr, addr + len); len > 0.
BeatSpan WidenToBeats(uint64_t addr, uint64_t len);

// One pread/pwrite: `len` bytes at card address `card_addr`.
struct TransferPiece {
  uint64_t card_addr = 0;
  uint64_t len = 0;
};

// `max_piece` rounded down to whole beats (at least one beat).
uint64_t PieceLimit(uint64_t max_piece);

// [span.start, span.end) in order, each piece at most PieceLimit(max_piece) bytes.
std::vector<TransferPiece> SplitSpan(const BeatSpan& span, uint64_t max_piece);

}  // namespace otpu::host

#endif  // OTPU_HOST_XDMA_TRANSFER_PLAN_H_
