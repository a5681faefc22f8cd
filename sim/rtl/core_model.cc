#include "sim/rtl/core_model.h"

#include <cstring>
#include <type_traits>

#include "Votpu_core.h"
#include "verilated.h"

namespace otpu::rtl {
namespace {

// Word i (bits 32i+31..32i) of a Verilated signal of any width.
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

// Little-endian bytes of a signal (byte k = bits 8k+7..8k).
template <typename T>
void GetBytes(const T& v, uint8_t* out, int n) {
  for (int k = 0; k < n; ++k) out[k] = uint8_t(Word(v, k / 4) >> (8 * (k % 4)));
}

template <typename T>
void SetBytes(T& v, const uint8_t* in, int n) {
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

}  // namespace

CoreModel::CoreModel()
    : context_(std::make_unique<VerilatedContext>()),
      top_(std::make_unique<Votpu_core>(context_.get(), "otpu_core")) {
  top_->clk_i = 0;
  top_->run_i = 0;
  top_->win_len_i = 64;
  Reset();
}

CoreModel::~CoreModel() { top_->final(); }

uint32_t CoreModel::version() const { return top_->version_o; }

void CoreModel::IdleCycle() {
  top_->b_rd_ready_i = 0;
  top_->b_wr_ready_i = 0;
  top_->a_ready_i = 0;
  top_->b_rsp_valid_i = 0;
  top_->a_rsp_valid_i = 0;
  top_->clk_i = 0;
  top_->eval();
  Rise();
}

void CoreModel::Reset() {
  top_->rst_ni = 0;
  top_->host_tm_we_i = 0;
  top_->host_act_we_i = 0;
  top_->imem_we_i = 0;
  write_pending_ = false;
  IdleCycle();
  IdleCycle();
  top_->rst_ni = 1;
  IdleCycle();
}

void CoreModel::FinishWrites() {
  if (!write_pending_) return;
  top_->imem_we_i = 0;
  top_->host_tm_we_i = 0;
  top_->host_act_we_i = 0;
  IdleCycle();
  write_pending_ = false;
}

void CoreModel::WriteImem(uint32_t addr, const isa::Instr& in) {
  top_->host_tm_we_i = 0;
  top_->host_act_we_i = 0;
  top_->imem_we_i = 1;
  top_->imem_addr_i = uint16_t(addr);
  for (int i = 0; i < isa::kInstrWords; ++i) SetWord(top_->imem_wdata_i, i, in.w[size_t(i)]);
  IdleCycle();
  write_pending_ = true;
}

void CoreModel::ReadTmem(uint32_t addr, uint32_t* words) {
  FinishWrites();
  top_->host_tm_addr_i = uint16_t(addr);
  top_->eval();
  for (int l = 0; l < lanes(); ++l) words[l] = Word(top_->host_tm_rdata_o, l);
}

void CoreModel::WriteTmem(uint32_t addr, const uint32_t* words) {
  top_->imem_we_i = 0;
  top_->host_act_we_i = 0;
  top_->host_tm_we_i = 1;
  top_->host_tm_addr_i = uint16_t(addr);
  for (int l = 0; l < lanes(); ++l) SetWord(top_->host_tm_wdata_i, l, words[l]);
  IdleCycle();
  write_pending_ = true;
}

void CoreModel::ReadAct(int row, int block, int8_t* values, uint32_t* scale) {
  FinishWrites();
  top_->host_act_row_i = uint8_t(row);
  top_->host_act_block_i = uint8_t(block);
  top_->eval();
  GetBytes(top_->host_act_data_o, reinterpret_cast<uint8_t*>(values), d());
  *scale = top_->host_act_scale_o;
}

void CoreModel::WriteAct(int row, int block, const int8_t* values, uint32_t scale) {
  top_->imem_we_i = 0;
  top_->host_tm_we_i = 0;
  top_->host_act_we_i = 1;
  top_->host_act_row_i = uint8_t(row);
  top_->host_act_block_i = uint8_t(block);
  SetBytes(top_->host_act_wdata_i, reinterpret_cast<const uint8_t*>(values), d());
  top_->host_act_wscale_i = scale;
  IdleCycle();
  write_pending_ = true;
}

void CoreModel::SetRunInputs(const std::array<uint32_t, 8>& args, uint32_t prog_n,
                             uint32_t win_len) {
  for (int i = 0; i < 8; ++i) SetWord(top_->args_i, i, args[size_t(i)]);
  top_->prog_n_i = uint16_t(prog_n);
  top_->win_len_i = win_len;
}

void CoreModel::SetRun(bool run) {
  FinishWrites();
  top_->run_i = run;
}

void CoreModel::Drive(const MemOffer& offer) {
  top_->b_rd_ready_i = offer.b_rd_ready;
  top_->b_wr_ready_i = offer.b_wr_ready;
  top_->a_ready_i = offer.a_ready;
  top_->b_rsp_valid_i = offer.b_rsp_valid;
  if (offer.b_rsp_valid) {
    top_->b_rsp_tag_i = uint16_t(offer.b_rsp_tag);
    SetBytes(top_->b_rsp_data_i, offer.b_rsp_data.data(), d());
  }
  top_->a_rsp_valid_i = offer.a_rsp_valid;
  if (offer.a_rsp_valid) {
    top_->a_rsp_tag_i = uint16_t(offer.a_rsp_tag);
    top_->a_rsp_data_i = offer.a_rsp_data;
  }
  top_->clk_i = 0;
  top_->eval();
}

void CoreModel::ReadRequests(const MemOffer& offer, MemRequests* req) {
  req->b_rd_valid = top_->b_rd_valid_o;
  req->b_rd_addr = top_->b_rd_addr_o;
  req->b_rd_tag = top_->b_rd_tag_o;
  req->b_wr_valid = top_->b_wr_valid_o;
  req->b_wr_addr = top_->b_wr_addr_o;
  if (req->b_wr_valid && offer.b_wr_ready) {
    const int n = d();
    req->b_wr_data.resize(size_t(n));
    req->b_wr_be.resize(size_t(n));
    GetBytes(top_->b_wr_data_o, req->b_wr_data.data(), n);
    for (int i = 0; i < n; ++i) req->b_wr_be[size_t(i)] = Bit(top_->b_wr_be_o, i);
  }
  req->a_valid = top_->a_valid_o;
  req->a_we = top_->a_we_o;
  req->a_addr = top_->a_addr_o;
  req->a_wdata = top_->a_wdata_o;
  req->a_be = top_->a_be_o;
  req->a_tag = top_->a_tag_o;
}

void CoreModel::ReadEvents(CoreCycle* out) {
  Votpu_core& t = *top_;
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

bool CoreModel::HaltEvent() const { return top_->ev_halt_o; }

void CoreModel::Rise() {
  top_->clk_i = 1;
  top_->eval();
}

bool CoreModel::running() const { return top_->running_o; }
bool CoreModel::halted() const { return top_->halted_o; }
bool CoreModel::error() const { return top_->error_o; }
uint32_t CoreModel::error_pc() const { return top_->error_pc_o; }
int CoreModel::error_cause() const { return top_->error_cause_o; }
uint32_t CoreModel::retired() const { return top_->retired_o; }
uint32_t CoreModel::cycle() const { return top_->cycle_o; }

std::array<uint32_t, kCoreUnits> CoreModel::lose() const {
  std::array<uint32_t, kCoreUnits> out{};
  for (int u = 0; u < kCoreUnits; ++u) out[size_t(u)] = Word(top_->ev_lose_o, u);
  return out;
}

}  // namespace otpu::rtl
