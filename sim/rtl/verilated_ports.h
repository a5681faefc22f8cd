// The core's port groups as every Verilated top that brings them out names them (otpu_core,
// otpu_board: docs/rtl-core.md): the DRAM ports as MemOffer/MemRequests and the event bundle
// (events_t, one wide port: fields at event_fields.h's offsets) as CoreCycle. Templates over the Verilated top's class, so that each model's .cc (the only
// place its Verilator header is included) shares one copy of the plumbing.
#ifndef OTPU_SIM_RTL_VERILATED_PORTS_H_
#define OTPU_SIM_RTL_VERILATED_PORTS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
#include "sim/rtl/event_fields.h"
#include "workloads/isa/instr.h"

namespace otpu::rtl::ports {

// Word i (bits 32i+31..32i) of a Verilated signal of any width (integral up to 64 bits,
// VlWide above).
template <typename T>
uint32_t Word(const T& v, int i) {
  if constexpr (std::is_integral_v<T>) {
    return i < int(sizeof(T) + 3) / 4 ? uint32_t(uint64_t(v) >> (32 * i)) : 0u;
  } else {
    return v[size_t(i)];
  }
}

template <typename T>
void SetWord(T& v, int i, uint32_t x) {
  if constexpr (std::is_integral_v<T>) {
    if (i >= int(sizeof(T) + 3) / 4) return;
    const uint64_t mask = uint64_t{0xFFFFFFFFu} << (32 * i);
    v = T((uint64_t(v) & ~mask) | (uint64_t(x) << (32 * i)));
  } else {
    v[size_t(i)] = x;
  }
}

// Little-endian bytes of a signal (byte k = bits 8k+7..8k). A VlWide's words are stored in
// order, so on a little-endian host whole words are one copy.
template <typename T>
void GetBytes(const T& v, uint8_t* out, int n) {
  if constexpr (!std::is_integral_v<T> && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    std::memcpy(out, &v[0], size_t(n));
  } else {
    for (int k = 0; k < n; ++k) out[k] = uint8_t(Word(v, k / 4) >> (8 * (k % 4)));
  }
}

template <typename T>
void SetBytes(T& v, const uint8_t* in, int n) {
  if constexpr (!std::is_integral_v<T> && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__) {
    if (n % 4 == 0) {
      std::memcpy(&v[0], in, size_t(n));
      return;
    }
  }
  for (int i = 0; i < (n + 3) / 4; ++i) {
    uint32_t w = 0;
    for (int b = 0; b < 4 && 4 * i + b < n; ++b) w |= uint32_t(in[4 * i + b]) << (8 * b);
    SetWord(v, i, w);
  }
}

// Bit i of a signal.
template <typename T>
bool Bit(const T& v, int i) {
  return Word(v, i / 32) >> (i % 32) & 1;
}

// Drives the memory's ready bits and responses (`d` = chunk bytes) onto the top's inputs.
template <typename Top>
void DriveOffer(const MemOffer& offer, int d, Top* top) {
  top->b_rd_ready_i = offer.b_rd_ready;
  top->b_wr_ready_i = offer.b_wr_ready;
  top->a_ready_i = offer.a_ready;
  top->b_rsp_valid_i = offer.b_rsp_valid;
  if (offer.b_rsp_valid) {
    top->b_rsp_tag_i = uint16_t(offer.b_rsp_tag);
    SetBytes(top->b_rsp_data_i, offer.b_rsp_data.data(), d);
  }
  top->a_rsp_valid_i = offer.a_rsp_valid;
  if (offer.a_rsp_valid) {
    top->a_rsp_tag_i = uint16_t(offer.a_rsp_tag);
    top->a_rsp_data_i = offer.a_rsp_data;
  }
}

// Drives an idle memory: no ready bits, no responses.
template <typename Top>
void DriveIdle(Top* top) {
  top->b_rd_ready_i = 0;
  top->b_wr_ready_i = 0;
  top->a_ready_i = 0;
  top->b_rsp_valid_i = 0;
  top->a_rsp_valid_i = 0;
}

// Reads the requests of a settled cycle into `req`: a request's fields only with its valid
// (the others keep their old values), write data only for a write `offer` accepts.
template <typename Top>
void ReadRequests(const Top& top, const MemOffer& offer, int d, MemRequests* req) {
  req->b_rd_valid = top.b_rd_valid_o;
  if (req->b_rd_valid) {
    req->b_rd_addr = top.b_rd_addr_o;
    req->b_rd_tag = top.b_rd_tag_o;
  }
  req->b_wr_valid = top.b_wr_valid_o;
  if (req->b_wr_valid) req->b_wr_addr = top.b_wr_addr_o;
  if (req->b_wr_valid && offer.b_wr_ready) {
    req->b_wr_data.resize(size_t(d));
    req->b_wr_be.resize(size_t(d));
    GetBytes(top.b_wr_data_o, req->b_wr_data.data(), d);
    for (int i = 0; i < d; ++i) req->b_wr_be[size_t(i)] = Bit(top.b_wr_be_o, i);
  }
  req->a_valid = top.a_valid_o;
  if (req->a_valid) {
    req->a_we = top.a_we_o;
    req->a_addr = top.a_addr_o;
    req->a_wdata = top.a_wdata_o;
    req->a_be = top.a_be_o;
    req->a_tag = top.a_tag_o;
  }
}

// Bits [lsb, lsb + width) of a wide signal, width <= 32.
template <typename T>
uint32_t Bits(const T& v, int lsb, int width) {
  const int k = lsb / 32, off = lsb % 32;
  uint64_t two = Word(v, k);
  if (off + width > 32) two |= uint64_t(Word(v, k + 1)) << 32;  // it straddles two words
  return uint32_t(two >> off) & uint32_t((uint64_t{1} << width) - 1);
}

// Writes bits [lsb, lsb + width) of a wide signal, width <= 32.
template <typename T>
void SetBits(T& v, int lsb, int width, uint32_t x) {
  for (int i = 0; i < width; ++i) {
    const int b = lsb + i, w = b / 32;
    const uint32_t bit = 1u << (b % 32);
    SetWord(v, w, (x >> i & 1) ? (Word(v, w) | bit) : (Word(v, w) & ~bit));
  }
}

// Field `F` of an events_t signal (element `i` of an array field), up to 32 bits; the offset
// is a compile-time constant.
template <events::Field F, typename T>
uint32_t Event(const T& ev, int i = 0) {
  constexpr int kBits = std::min(events::kFields[int(F)].bits, 32);
  return Bits(ev, events::Lsb(F) + i * events::kFields[int(F)].bits, kBits);
}

// Word `i` of field `F`, whose elements are whole words (win_n, start_rdy, done_cnt, ...).
template <events::Field F, typename T>
uint32_t EventWord(const T& ev, int i) {
  static_assert(events::Lsb(F) % 32 == 0 && events::kFields[int(F)].bits % 32 == 0);
  return Word(ev, events::Lsb(F) / 32 + i);
}

// The halt bit, which the harness reads every cycle.
template <typename T>
bool HaltEvent(const T& ev) {
  return Bit(ev, events::Lsb(events::Field::kHalt));
}

// Fills `out` from the event bundle `ev` (events_t) of a settled cycle and the activity word
// (cycle numbering is the caller's).
template <typename E>
void ReadEvents(const E& ev, uint64_t activity, CoreCycle* out) {
  using events::Field;
  out->activity.bits = activity;
  out->dispatch.valid = Event<Field::kDisp>(ev);
  out->release.valid = Event<Field::kRel>(ev);
  out->halt.valid = Event<Field::kHalt>(ev);
  out->window.valid = Event<Field::kWin>(ev);
  const uint32_t starts = Event<Field::kStart>(ev), ends = Event<Field::kDone>(ev);
  out->any = out->dispatch.valid || out->release.valid || out->halt.valid ||
             out->window.valid || starts != 0 || ends != 0;
  if (out->dispatch.valid) {
    out->dispatch.slot = int(Event<Field::kDispSlot>(ev));
    out->dispatch.pc = Event<Field::kDispPc>(ev);
    for (int i = 0; i < isa::kInstrWords; ++i) {
      out->dispatch.instr.w[size_t(i)] = EventWord<Field::kDispInstr>(ev, i);
    }
  }
  for (int u = 0; u < kCoreUnits; ++u) {
    CoreCycle::Start& s = out->start[size_t(u)];
    s.valid = starts >> u & 1;
    if (s.valid) {
      s.slot = int(Event<Field::kStartSlot>(ev, u));
      s.ready = EventWord<Field::kStartRdy>(ev, u);
    }
    CoreCycle::End& e = out->end[size_t(u)];
    e.valid = ends >> u & 1;
    if (e.valid) {
      e.slot = int(Event<Field::kDoneSlot>(ev, u));
      for (int c = 0; c < 4; ++c) e.counters[size_t(c)] = EventWord<Field::kDoneCnt>(ev, 4 * u + c);
    }
  }
  if (out->release.valid) out->release.slot = int(Event<Field::kRelSlot>(ev));
  if (out->halt.valid) {
    for (int i = 0; i < 4; ++i) out->halt.ports[size_t(i)] = EventWord<Field::kHaltPorts>(ev, i);
  }
  if (out->window.valid) {
    out->window.n = EventWord<Field::kWinN>(ev, 0);
    for (int c = 0; c < kWindowColumns; ++c) {
      out->window.columns[size_t(c)] = EventWord<Field::kWinCnt>(ev, c);
    }
  }
}

// Drives every field of `c` onto an events_t input `ev`, valid or not (the inverse of
// ReadEvents, for a Verilated trace unit fed by a harness).
template <typename E>
void WriteEvents(const CoreCycle& c, E* ev) {
  using events::Field;
  auto set = [ev](Field f, int i, uint32_t x) {
    SetBits(*ev, events::Lsb(f, i), events::kFields[int(f)].bits, x);
  };
  auto set_word = [ev](Field f, int i, uint32_t x) { SetWord(*ev, events::Lsb(f) / 32 + i, x); };
  set(Field::kDisp, 0, c.dispatch.valid);
  set(Field::kDispSlot, 0, uint32_t(c.dispatch.slot));
  set(Field::kDispPc, 0, c.dispatch.pc);
  for (int i = 0; i < isa::kInstrWords; ++i) set_word(Field::kDispInstr, i, c.dispatch.instr.w[size_t(i)]);
  for (int u = 0; u < kCoreUnits; ++u) {
    const CoreCycle::Start& s = c.start[size_t(u)];
    SetBits(*ev, events::Lsb(Field::kStart) + u, 1, s.valid);
    set(Field::kStartSlot, u, uint32_t(s.slot));
    set_word(Field::kStartRdy, u, s.ready);
    const CoreCycle::End& e = c.end[size_t(u)];
    SetBits(*ev, events::Lsb(Field::kDone) + u, 1, e.valid);
    set(Field::kDoneSlot, u, uint32_t(e.slot));
    for (int k = 0; k < 4; ++k) set_word(Field::kDoneCnt, 4 * u + k, e.counters[size_t(k)]);
  }
  set(Field::kRel, 0, c.release.valid);
  set(Field::kRelSlot, 0, uint32_t(c.release.slot));
  set(Field::kHalt, 0, c.halt.valid);
  for (int i = 0; i < 4; ++i) set_word(Field::kHaltPorts, i, c.halt.ports[size_t(i)]);
  set(Field::kWin, 0, c.window.valid);
  set_word(Field::kWinN, 0, c.window.n);
  for (int i = 0; i < kWindowColumns; ++i) set_word(Field::kWinCnt, i, c.window.columns[size_t(i)]);
}

// The Verilated events_t port: one wide signal of events::kBits.
template <typename E>
constexpr bool IsEventsPort() {
  return sizeof(E) == size_t((events::kBits + 31) / 32) * 4;
}

}  // namespace otpu::rtl::ports

#endif  // OTPU_SIM_RTL_VERILATED_PORTS_H_
