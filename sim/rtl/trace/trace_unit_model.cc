#include "sim/rtl/trace/trace_unit_model.h"

#include <algorithm>
#include <string>

namespace otpu::rtl {
namespace {

namespace tr = trace;
using tr::RecordType;

uint32_t SatAdd(uint32_t a, uint64_t b) {
  return uint32_t(std::min<uint64_t>(uint64_t(a) + b, 0xFFFFFFFFu));
}

}  // namespace

StatusOr<std::unique_ptr<TraceUnitModel>> TraceUnitModel::Create(const TraceUnitOptions& opts) {
  if (opts.queue_depth < 1) {
    return InvalidArgument("trace queue_depth " + std::to_string(opts.queue_depth) +
                           ": the capture queue needs at least 1 line");
  }
  if (opts.drain < 1 || opts.drain > 8) {
    return InvalidArgument("trace drain " + std::to_string(opts.drain) +
                           ": the queue drains 1 to 8 lines a cycle (one a buffer bank)");
  }
  if (opts.depth < 1) {
    return InvalidArgument("trace depth " + std::to_string(opts.depth) +
                           ": the buffer needs at least 1 record");
  }
  return std::unique_ptr<TraceUnitModel>(new TraceUnitModel(opts));
}

std::vector<Record> TraceUnitModel::Bundle(const CoreCycle& c) {
  std::vector<Record> b;
  if (!c.any) return b;
  const uint32_t now = uint32_t(c.cycle);
  if (c.dispatch.valid) {
    const isa::Instr& in = c.dispatch.instr;
    b.push_back(tr::Dispatch{uint32_t(c.dispatch.slot), c.dispatch.pc, now}.Encode());
    for (Record o : tr::EncodeOperands(in.opcode(), in.w[1], in.w[2], in.w[3])) b.push_back(o);
  }
  for (int u = 0; u < kCoreUnits; ++u) {
    const CoreCycle::Start& s = c.start[size_t(u)];
    if (!s.valid) continue;
    const uint32_t delay = now - s.ready;
    const bool saturated = delay >= tr::kSaturatedDelay;
    b.push_back(tr::Start{uint32_t(s.slot), uint32_t(u), saturated ? tr::kSaturatedDelay : delay,
                          now}.Encode());
    if (saturated) b.push_back(tr::EncodeReady(s.ready));
  }
  if (c.release.valid) {
    b.push_back(tr::SlotCycle{RecordType::kRELEASE, uint32_t(c.release.slot), now}.Encode());
  }
  for (int u = 0; u < kCoreUnits; ++u) {
    const CoreCycle::End& e = c.end[size_t(u)];
    if (!e.valid) continue;
    b.push_back(tr::SlotCycle{RecordType::kEND, uint32_t(e.slot), now}.Encode());
    const int values = tr::UnitValueCount(uint32_t(u));
    if (values == 0) continue;
    b.push_back(tr::UnitCounters{uint32_t(u), now}.Encode());
    for (int i = 0; i < values; ++i) {
      b.push_back(tr::EncodeValue(uint32_t(i), e.counters[size_t(i)]));
    }
  }
  if (c.window.valid) {
    const uint32_t n = std::min(c.window.n, tr::kMaxWindowN);
    b.push_back(tr::Window{RecordType::kWINDOW_P, n, now}.Encode());
    for (int i = 0; i < tr::kWindowPColumns; ++i) {
      b.push_back(tr::EncodeValue(uint32_t(i), c.window.columns[size_t(i)]));
    }
    b.push_back(tr::Window{RecordType::kWINDOW_Q, n, now}.Encode());
    for (int i = 0; i < tr::kWindowQColumns; ++i) {
      b.push_back(tr::EncodeValue(uint32_t(i), c.window.columns[size_t(tr::kWindowPColumns + i)]));
    }
  }
  if (c.halt.valid) {
    b.push_back(tr::SlotCycle{RecordType::kHALT, 0, now}.Encode());
    for (int i = 0; i < tr::kHaltPorts; ++i) {
      b.push_back(tr::EncodeValue(uint32_t(i), c.halt.ports[size_t(i)]));
    }
  }
  return b;
}

void TraceUnitModel::OnRunStart() {
  queue_.clear();
  held_.clear();
  buffer_.assign(size_t(options_.depth), 0);
  written_ = 0;
  count_ = drop_ = 0;
  drain_cycles_ = 0;
  rptr_ = 0;
  if (reader_) reader_->OnClear();
}

void TraceUnitModel::Store(Record r) {
  // Keep first writes while there is room; the ring writes at COUNT mod DEPTH. Either way
  // COUNT counts the record, so keep-first loses exactly COUNT - DEPTH. Streaming writes at
  // COUNT mod DEPTH too, but only when there is room (Step checks the read pointer).
  if (options_.keep_last || options_.stream) {
    buffer_[size_t(written_ % options_.depth)] = r;
  } else if (written_ < options_.depth) {
    buffer_[size_t(written_)] = r;
  }
  ++written_;
  count_ = SatAdd(count_, 1);
}

void TraceUnitModel::Step(const std::vector<Record>& bundle, bool halt) {
  // 1. The buffer takes up to DRAIN of the oldest queued lines; streaming, each only while the
  // ring has room (fewer than DEPTH records written and not yet read).
  for (int k = 0; k < options_.drain && !queue_.empty(); ++k) {
    const bool room = !options_.stream || uint32_t(uint32_t(written_) - rptr_) < options_.depth;
    if (!room) break;
    Store(queue_.front());
    queue_.pop_front();
  }
  // 2. Capture: a held bundle goes first; the queue takes one bundle a cycle, whole.
  auto fits = [&](size_t lines) {
    return queue_.size() + lines <= size_t(options_.queue_depth);
  };
  if (!held_.empty()) {
    if (fits(held_.size())) {
      queue_.insert(queue_.end(), held_.begin(), held_.end());
      held_.clear();
    }
    drop_ = SatAdd(drop_, bundle.size());
    return;
  }
  if (bundle.empty()) return;
  if (fits(bundle.size())) {
    queue_.insert(queue_.end(), bundle.begin(), bundle.end());
  } else if (halt && bundle.size() <= size_t(options_.queue_depth)) {
    held_ = bundle;
  } else {
    drop_ = SatAdd(drop_, bundle.size());
  }
}

void TraceUnitModel::OnClock(const CoreCycle& c) {
  if (reader_) reader_->BeforeCycle(*this);
  if (options_.enable) {
    Step(Bundle(c), c.halt.valid);
  } else {
    Step({}, false);
  }
}

void TraceUnitModel::OnRunEnd() {
  while (busy()) {
    if (reader_) reader_->BeforeCycle(*this);
    const bool full = options_.stream && uint32_t(uint32_t(written_) - rptr_) >= options_.depth;
    if (full && !reader_) break;  // no host to make room: the queue stays (BUSY stays set)
    Step({}, false);
    ++drain_cycles_;
  }
}

std::vector<Record> TraceUnitModel::Records() const {
  const int64_t n = std::min<int64_t>(written_, options_.depth);
  std::vector<Record> out;
  out.reserve(size_t(n));
  const int64_t first = wrapped() ? written_ % options_.depth : 0;
  for (int64_t i = 0; i < n; ++i) out.push_back(buffer_[size_t((first + i) % options_.depth)]);
  return out;
}

}  // namespace otpu::rtl
