// CoreModel on one Verilated otpu_core class: the same code for every RTL configuration,
// instantiated once per configuration by the generated core_model_<config>.cc (the only
// place that includes its Votpu_core_<config>.h; sim/rtl/CMakeLists.txt).
#ifndef OTPU_SIM_RTL_VERILATED_CORE_MODEL_H_
#define OTPU_SIM_RTL_VERILATED_CORE_MODEL_H_

#include <array>
#include <cstdint>
#include <memory>

#include "sim/rtl/assert_switch.h"
#include "sim/rtl/core_model.h"
#include "sim/rtl/verilated_ports.h"
#include "verilated.h"

namespace otpu::rtl {

template <typename Top>
class VerilatedCoreModel final : public CoreModel {
 public:
  VerilatedCoreModel()
      : context_(std::make_unique<VerilatedContext>()),
        // Verilator registers the model's scopes in the thread's current context.
        top_((Verilated::threadContextp(context_.get()),
              std::make_unique<Top>(context_.get(), "otpu_core"))) {
    context_->assertOn(AssertionsEvaluated());
    top_->clk_i = 0;
    top_->run_i = 0;
    top_->win_len_i = 64;
    Reset();
  }
  // Verilator erases a model's scopes (which --assert's %m needs) through the thread's current
  // context, not the model's: make it this model's while the model goes, and forget it after,
  // so that no model erases through a context already destroyed.
  ~VerilatedCoreModel() override {
    top_->final();
    Verilated::threadContextp(context_.get());
    top_.reset();
    context_.reset();
    Verilated::threadContextp(nullptr);
  }

  uint32_t version() const override { return top_->version_o; }

  void Reset() override {
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

  void FinishWrites() override {
    if (!write_pending_) return;
    top_->imem_we_i = 0;
    top_->host_tm_we_i = 0;
    top_->host_act_we_i = 0;
    IdleCycle();
    write_pending_ = false;
  }

  void WriteImem(uint32_t addr, const isa::Instr& in) override {
    top_->host_tm_we_i = 0;
    top_->host_act_we_i = 0;
    top_->imem_we_i = 1;
    top_->imem_addr_i = uint16_t(addr);
    for (int i = 0; i < isa::kInstrWords; ++i) {
      ports::SetWord(top_->imem_wdata_i, i, in.w[size_t(i)]);
    }
    IdleCycle();
    write_pending_ = true;
  }

  void ReadTmem(uint32_t addr, uint32_t* words) override {
    FinishWrites();
    top_->host_tm_addr_i = uint16_t(addr);
    top_->eval();
    for (int l = 0; l < lanes(); ++l) words[l] = ports::Word(top_->host_tm_rdata_o, l);
  }

  void WriteTmem(uint32_t addr, const uint32_t* words) override {
    top_->imem_we_i = 0;
    top_->host_act_we_i = 0;
    top_->host_tm_we_i = 1;
    top_->host_tm_addr_i = uint16_t(addr);
    for (int l = 0; l < lanes(); ++l) ports::SetWord(top_->host_tm_wdata_i, l, words[l]);
    IdleCycle();
    write_pending_ = true;
  }

  void ReadAct(int row, int block, int8_t* values, uint32_t* scale) override {
    FinishWrites();
    top_->host_act_row_i = uint8_t(row);
    top_->host_act_block_i = uint8_t(block);
    top_->eval();
    ports::GetBytes(top_->host_act_data_o, reinterpret_cast<uint8_t*>(values), d());
    *scale = top_->host_act_scale_o;
  }

  void WriteAct(int row, int block, const int8_t* values, uint32_t scale) override {
    top_->imem_we_i = 0;
    top_->host_tm_we_i = 0;
    top_->host_act_we_i = 1;
    top_->host_act_row_i = uint8_t(row);
    top_->host_act_block_i = uint8_t(block);
    ports::SetBytes(top_->host_act_wdata_i, reinterpret_cast<const uint8_t*>(values), d());
    top_->host_act_wscale_i = scale;
    IdleCycle();
    write_pending_ = true;
  }

  void SetRunInputs(const std::array<uint32_t, 8>& args, uint32_t prog_n,
                    uint32_t win_len) override {
    for (int i = 0; i < 8; ++i) ports::SetWord(top_->args_i, i, args[size_t(i)]);
    top_->prog_n_i = uint16_t(prog_n);
    top_->win_len_i = win_len;
  }

  void SetRun(bool run) override {
    FinishWrites();
    top_->run_i = run;
  }

  void Drive(const MemOffer& offer) override {
    ports::DriveOffer(offer, d(), top_.get());
    top_->clk_i = 0;
    top_->eval();
  }

  void ReadRequests(const MemOffer& offer, MemRequests* req) override {
    ports::ReadRequests(*top_, offer, d(), req);
  }

  void ReadEvents(CoreCycle* out) override { ports::ReadEvents(*top_, out); }

  bool HaltEvent() const override { return top_->ev_halt_o; }

  void Rise() override {
    top_->clk_i = 1;
    top_->eval();
  }

  bool running() const override { return top_->running_o; }
  bool halted() const override { return top_->halted_o; }
  bool error() const override { return top_->error_o; }
  uint32_t error_pc() const override { return top_->error_pc_o; }
  int error_cause() const override { return top_->error_cause_o; }
  uint32_t retired() const override { return top_->retired_o; }
  uint32_t cycle() const override { return top_->cycle_o; }

  std::array<uint32_t, kCoreUnits> lose() const override {
    std::array<uint32_t, kCoreUnits> out{};
    for (int u = 0; u < kCoreUnits; ++u) out[size_t(u)] = ports::Word(top_->ev_lose_o, u);
    return out;
  }

 private:
  // A full cycle with the memory idle (no ready, no responses).
  void IdleCycle() {
    ports::DriveIdle(top_.get());
    top_->clk_i = 0;
    top_->eval();
    Rise();
  }

  std::unique_ptr<VerilatedContext> context_;
  std::unique_ptr<Top> top_;
  bool write_pending_ = false;
};

}  // namespace otpu::rtl

#endif  // OTPU_SIM_RTL_VERILATED_CORE_MODEL_H_
