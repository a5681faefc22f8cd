#include "sim/rtl/core_model.h"

#include "Votpu_core.h"
#include "sim/rtl/verilated_ports.h"
#include "verilated.h"

namespace otpu::rtl {

using ports::GetBytes;
using ports::SetBytes;
using ports::SetWord;
using ports::Word;

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
  ports::DriveIdle(top_.get());
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
  ports::DriveOffer(offer, d(), top_.get());
  top_->clk_i = 0;
  top_->eval();
}

void CoreModel::ReadRequests(const MemOffer& offer, MemRequests* req) {
  ports::ReadRequests(*top_, offer, d(), req);
}

void CoreModel::ReadEvents(CoreCycle* out) { ports::ReadEvents(*top_, out); }

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
