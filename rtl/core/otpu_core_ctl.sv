// The core's control and host inputs, registered once: the run control (run, ARGs, program
// length, counter window), IMEM loading and host writes to TMEM and ACT RAM. No host input
// then reaches the core's logic combinationally, which keeps timing clean on a card and keeps
// the Verilated model's input-driven region (evaluated on every eval()) small. Host reads of
// TMEM and ACT RAM stay combinational: they only read memory.
module otpu_core_ctl
  import otpu_core_pkg::*;
#(
  parameter int unsigned  D      = 32,
  parameter int unsigned  LANES  = 8,
  parameter int unsigned  AW     = 16,
  parameter int unsigned  ImemAw = 12,
  parameter int unsigned  RowW   = 4,
  parameter int unsigned  BlkW   = 7
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // From the host
  input  logic                     run_i,
  input  logic [7:0][31:0]         args_i,
  input  logic [15:0]              prog_n_i,
  input  logic [31:0]              win_len_i,
  input  logic                     imem_we_i,
  input  logic [ImemAw-1:0]        imem_addr_i,
  input  logic [INSTR_W-1:0]       imem_wdata_i,
  input  logic                     tm_we_i,
  input  logic [AW-1:0]            tm_addr_i,
  input  logic [LANES-1:0][31:0]   tm_wdata_i,
  input  logic                     act_we_i,
  input  logic [RowW-1:0]          act_row_i,
  input  logic [BlkW-1:0]          act_block_i,
  input  logic [D*8-1:0]           act_wdata_i,
  input  logic [31:0]              act_wscale_i,
  // To the core, a cycle later
  output logic                     run_o,
  output logic [7:0][31:0]         args_o,
  output logic [15:0]              prog_n_o,
  output logic [31:0]              win_len_o,
  output logic                     imem_we_o,
  output logic [ImemAw-1:0]        imem_addr_o,
  output logic [INSTR_W-1:0]       imem_wdata_o,
  output logic                     tm_we_o,
  output logic [AW-1:0]            tm_addr_o,
  output logic [LANES-1:0][31:0]   tm_wdata_o,
  output logic                     act_we_o,
  output logic [RowW-1:0]          act_row_o,
  output logic [BlkW-1:0]          act_block_o,
  output logic [D*8-1:0]           act_wdata_o,
  output logic [31:0]              act_wscale_o
);

  // Strobes reset; data registers need none (used only under their strobe).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_o     <= 1'b0;
      imem_we_o <= 1'b0;
      tm_we_o   <= 1'b0;
      act_we_o  <= 1'b0;
    end else begin
      run_o     <= run_i;
      imem_we_o <= imem_we_i;
      tm_we_o   <= tm_we_i;
      act_we_o  <= act_we_i;
    end
  end

  // A write's address and data are taken with its enable: they are used only with it, and a
  // simulator copies a wide register at every edge it is assigned.
  always_ff @(posedge clk_i) begin
    args_o    <= args_i;
    prog_n_o  <= prog_n_i;
    win_len_o <= win_len_i;
    if (imem_we_i) begin
      imem_addr_o  <= imem_addr_i;
      imem_wdata_o <= imem_wdata_i;
    end
    // Coverage off: otpu_board ties the host write ports to 0 (docs/regress.md "Code coverage").
    /* verilator coverage_off */
    if (tm_we_i) begin
      tm_addr_o  <= tm_addr_i;
      tm_wdata_o <= tm_wdata_i;
    end
    if (act_we_i) begin
      act_row_o    <= act_row_i;
      act_block_o  <= act_block_i;
      act_wdata_o  <= act_wdata_i;
      act_wscale_o <= act_wscale_i;
    end
    /* verilator coverage_on */
  end

endmodule : otpu_core_ctl
