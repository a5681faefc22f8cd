// The board's counters (SPEC 4, docs/registers.md "Counters"), sums of the core's per-cycle
// activity (otpu_core_pkg::act_t) and run state:
// - per run (cleared by CTRL.CLEAR): CYCLES (cycles the core runs: the halt's cycle + 1 for a
//   run after a CLEAR), ICOUNT (instructions retired, HALT included), B_RD, B_WR, A_RD, A_WR
//   (accepted port transfers) and B_STALL (cycles a port-B request waited);
// - free-running from reset, 64 bits each, in otpu_pkg's CNT_* order.
module otpu_counters
  import otpu_pkg::*;
  import otpu_core_pkg::*;
(
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          clear_i,      // CTRL.CLEAR pulse
  input  logic                          running_i,
  input  logic [31:0]                   retired_i,    // the core's count of this run
  input  act_t                          act_i,
  output logic [63:0]                   cycles_o,
  output logic [5:0][31:0]              run_cnt_o,    // ICOUNT B_RD B_WR A_RD A_WR B_STALL
  output logic [NUM_COUNTERS-1:0][63:0] free_cnt_o
);

  // The core retires at most one instruction a cycle and zeroes its count when a run starts
  // (running_i rises with it); the last retirement may land after running_i falls.
  logic        running_q;
  logic [31:0] retired_q;
  logic        retire;
  assign retire = !(running_i && !running_q) && retired_i != retired_q;

  logic [63:0]                   cycles_q, cycles_d;
  logic [5:0][31:0]              run_q, run_d;
  logic [NUM_COUNTERS-1:0][63:0] free_q, free_d;
  logic [NUM_COUNTERS-1:0][2:0]  inc;   // this cycle's increment of each free-running counter

  always_comb begin
    inc                 = '0;
    inc[CNT_UPTIME]     = 3'd1;
    inc[CNT_RUNNING]    = 3'(running_i);
    inc[CNT_MXU_BUSY]   = 3'(act_i.busy[U_MXU]);
    // The MXU has weights at hand and TMEM lets it work: an upper bound of its multiply
    // cycles (the core does not bring out the consumer's multiply strobe).
    inc[CNT_MXU_MAC]    = 3'(act_i.busy[U_MXU] && !act_i.mxu_starve && !act_i.deny[U_MXU]);
    inc[CNT_VPU_BUSY]   = 3'(act_i.busy[U_VPU]);
    inc[CNT_QNT_BUSY]   = 3'(act_i.busy[U_QUANT]);
    inc[CNT_DMA_BUSY]   = 3'(act_i.busy[U_DMA]);
    inc[CNT_TMEM_DENY]  = 3'(act_i.deny[0]) + 3'(act_i.deny[1]) + 3'(act_i.deny[2]) +
                          3'(act_i.deny[3]);
    inc[CNT_DRAM_RD]    = 3'(act_i.b_rd_mxu) + 3'(act_i.b_rd_dma) + 3'(act_i.a_mxu);
    inc[CNT_DRAM_WR]    = 3'(act_i.b_wr_dma) + 3'(act_i.a_quant);
    inc[CNT_DRAM_WAIT]  = 3'(act_i.b_wait || act_i.a_wait);
    inc[CNT_INSTR]      = 3'(retire);
    inc[CNT_MXU_STARVE] = 3'(act_i.mxu_starve);
  end

  always_comb begin
    for (int k = 0; k < int'(NUM_COUNTERS); k++) begin
      free_d[k] = free_q[k] + 64'(inc[k]);
    end
    if (clear_i) begin
      cycles_d = '0;
      run_d    = '0;
    end else begin
      cycles_d = cycles_q + 64'(running_i);
      run_d[0] = run_q[0] + 32'(retire);
      run_d[1] = run_q[1] + 32'(act_i.b_rd_mxu) + 32'(act_i.b_rd_dma);
      run_d[2] = run_q[2] + 32'(act_i.b_wr_dma);
      run_d[3] = run_q[3] + 32'(act_i.a_mxu);
      run_d[4] = run_q[4] + 32'(act_i.a_quant);
      run_d[5] = run_q[5] + 32'(act_i.b_wait);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      retired_q <= '0;
      cycles_q  <= '0;
      run_q     <= '0;
      free_q    <= '0;
    end else begin
      running_q <= running_i;
      retired_q <= retired_i;
      cycles_q  <= cycles_d;
      run_q     <= run_d;
      free_q    <= free_d;
    end
  end

  assign cycles_o   = cycles_q;
  assign run_cnt_o  = run_q;
  assign free_cnt_o = free_q;

  logic [16:0] unused_act;
  assign unused_act = {act_i.mxu_bp, act_i.fifo_level};

endmodule : otpu_counters
