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
  // The free-running counters, read one at a time (the register block's read port: counter
  // free_sel_i, 0 past the last), and TMEM_DENY for the board's check. An array through a
  // port is copied at every evaluation (docs/rtl.md "Simulation speed").
  input  logic [$clog2(NUM_COUNTERS)-1:0] free_sel_i,
  output logic [63:0]                   free_cnt_o,
  output logic [63:0]                   tmem_deny_o
);

  // The core retires at most one instruction a cycle and zeroes its count when a run starts
  // (running_i rises with it); the last retirement may land after running_i falls.
  logic        running_q;
  logic [31:0] retired_q;
  logic        retire;
  assign retire = !(running_i && !running_q) && retired_i != retired_q;

  logic [63:0]      cycles_q;
  logic [5:0][31:0] run_q;

  // What this cycle adds to free-running counter k. A function called at the edge, not a
  // signal: the activity word follows the memory's ready inputs, and a signal would be
  // evaluated at every settle of them (docs/rtl.md "Simulation speed").
  function automatic logic [2:0] inc_at(act_t a, logic running, logic ret, int unsigned k);
    logic unused_a;
    unused_a = ^{a.mxu_bp, a.fifo_level};
    // A plain case: distinct constant items; a unique case costs a run-time check per call
    // under --assert (docs/regress.md "Assertion cost").
    case (k)
      CNT_UPTIME:     return 3'd1;
      CNT_RUNNING:    return 3'(running);
      CNT_MXU_BUSY:   return 3'(a.busy[U_MXU]);
      // The MXU has weights at hand and TMEM lets it work: an upper bound of its multiply
      // cycles (the core does not bring out the consumer's multiply strobe).
      CNT_MXU_MAC:    return 3'(a.busy[U_MXU] && !a.mxu_starve && !a.deny[U_MXU]);
      CNT_VPU_BUSY:   return 3'(a.busy[U_VPU]);
      CNT_QNT_BUSY:   return 3'(a.busy[U_QUANT]);
      CNT_DMA_BUSY:   return 3'(a.busy[U_DMA]);
      CNT_TMEM_DENY:  return 3'(a.deny[0]) + 3'(a.deny[1]) + 3'(a.deny[2]) + 3'(a.deny[3]);
      CNT_DRAM_RD:    return 3'(a.b_rd_mxu) + 3'(a.b_rd_dma) + 3'(a.a_mxu);
      CNT_DRAM_WR:    return 3'(a.b_wr_dma) + 3'(a.a_quant);
      CNT_DRAM_WAIT:  return 3'(a.b_wait || a.a_wait);
      CNT_INSTR:      return 3'(ret);
      CNT_MXU_STARVE: return 3'(a.mxu_starve);
      default:        return 3'd0;
    endcase
  endfunction

  // Registered state in always_ff only (the simulator runs it once a cycle).
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      running_q <= 1'b0;
      retired_q <= '0;
      cycles_q  <= '0;
      run_q     <= '0;
    end else begin
      running_q <= running_i;
      retired_q <= retired_i;
      if (clear_i) begin
        cycles_q <= '0;
        run_q    <= '0;
      end else begin
        cycles_q <= cycles_q + 64'(running_i);
        run_q[0] <= run_q[0] + 32'(retire);
        run_q[1] <= run_q[1] + 32'(act_i.b_rd_mxu) + 32'(act_i.b_rd_dma);
        run_q[2] <= run_q[2] + 32'(act_i.b_wr_dma);
        run_q[3] <= run_q[3] + 32'(act_i.a_mxu);
        run_q[4] <= run_q[4] + 32'(act_i.a_quant);
        run_q[5] <= run_q[5] + 32'(act_i.b_wait);
      end
    end
  end

  // The free-running counters: 64-bit registers, in an array read here only (an array
  // output or input port is copied whole at every evaluation; a packed vector of them was a
  // masked insert per increment and a delayed copy of all of it: docs/rtl.md "Simulation
  // speed").
  logic [63:0] free_q [NUM_COUNTERS];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      for (int unsigned k = 0; k < NUM_COUNTERS; k++) free_q[k] <= '0;
    end else begin
      for (int unsigned k = 0; k < NUM_COUNTERS; k++) begin
        free_q[k] <= free_q[k] + 64'(inc_at(act_i, running_i, retire, k));
      end
    end
  end
  assign free_cnt_o  = 32'(free_sel_i) < NUM_COUNTERS ? free_q[free_sel_i] : '0;
  assign tmem_deny_o = free_q[CNT_TMEM_DENY];

  assign cycles_o  = cycles_q;
  assign run_cnt_o = run_q;

endmodule : otpu_counters
