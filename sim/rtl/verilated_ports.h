// The core's port groups as every Verilated top that brings them out names them (otpu_core,
// otpu_board: docs/rtl-core.md): the DRAM ports as MemOffer/MemRequests and the event bundle
// as CoreCycle. Templates over the Verilated top's class, so that each model's .cc (the only
// place its Verilator header is included) shares one copy of the plumbing.
#ifndef OTPU_SIM_RTL_VERILATED_PORTS_H_
#define OTPU_SIM_RTL_VERILATED_PORTS_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "sim/rtl/core_cycle.h"
#include "sim/rtl/dram_model.h"
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

// Fills `out` from the event bundle of a settled cycle (cycle numbering is the caller's).
template <typename Top>
void ReadEvents(const Top& t, CoreCycle* out) {
  out->activity.bits = t.ev_act_o;
  out->dispatch.valid = t.ev_disp_o;
  out->release.valid = t.ev_rel_o;
  out->halt.valid = t.ev_halt_o;
  out->window.valid = t.ev_win_o;
  const uint8_t starts = t.ev_start_o, ends = t.ev_end_o;
  out->any = out->dispatch.valid || out->release.valid || out->halt.valid ||
             out->window.valid || starts != 0 || ends != 0;
  if (out->dispatch.valid) {
    out->dispatch.slot = t.ev_disp_slot_o;
    out->dispatch.pc = t.ev_disp_pc_o;
    for (int i = 0; i < isa::kInstrWords; ++i) {
      out->dispatch.instr.w[size_t(i)] = Word(t.ev_disp_instr_o, i);
    }
  }
  for (int u = 0; u < kCoreUnits; ++u) {
    CoreCycle::Start& s = out->start[size_t(u)];
    s.valid = starts >> u & 1;
    if (s.valid) {
      s.slot = t.ev_start_slot_o >> (4 * u) & 0xF;
      s.ready = Word(t.ev_start_rdy_o, u);
    }
    CoreCycle::End& e = out->end[size_t(u)];
    e.valid = ends >> u & 1;
    if (e.valid) {
      e.slot = t.ev_end_slot_o >> (4 * u) & 0xF;
      for (int c = 0; c < 4; ++c) e.counters[size_t(c)] = Word(t.ev_end_cnt_o, 4 * u + c);
    }
  }
  if (out->release.valid) out->release.slot = t.ev_rel_slot_o;
  if (out->halt.valid) {
    for (int i = 0; i < 4; ++i) out->halt.ports[size_t(i)] = Word(t.ev_halt_ports_o, i);
  }
  if (out->window.valid) {
    out->window.n = t.ev_win_n_o;
    for (int c = 0; c < kWindowColumns; ++c) {
      out->window.columns[size_t(c)] = Word(t.ev_win_cnt_o, c);
    }
  }
}

}  // namespace otpu::rtl::ports

#endif  // OTPU_SIM_RTL_VERILATED_PORTS_H_
