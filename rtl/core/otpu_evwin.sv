// Per-window counters (SPEC 5 P and Q records, docs/profile.md buckets): sums of the core's
// per-cycle activity over windows of win_len_i cycles, counted from cycle 0 of a run. At a
// window's last cycle, and at the run's last cycle for the final partial window, it emits the
// window: its cycle count n and the columns in wcol_e order (ff is the FIFO level at the
// window's last cycle, the others are sums); the columns are 0 in the other cycles.
module otpu_evwin
  import otpu_pkg::*;
  import otpu_core_pkg::*;
(
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     start_i,    // the run starts at this edge
  input  logic                     running_i,  // a cycle of the run
  input  logic                     last_i,     // the run's last cycle
  input  logic [31:0]              win_len_i,  // cycles per window (0 counts as 1)
  input  act_t                     act_i,
  output logic                     win_o,      // a window ends this cycle
  output logic [31:0]              win_n_o,
  output logic [WC_NUM-1:0][31:0]  win_cnt_o
);

  logic [31:0]             n_q;
  logic [WC_NUM-1:0][31:0] cnt_q;

  // What a cycle of activity a adds to column c (0..2; FF and FC add nothing). A function, not
  // a signal: a's bits change with the memory's ready inputs, so a signal would be evaluated
  // at every settle of the inputs; called at the edge and in a window's last cycle it runs
  // once a cycle. Per column, so that no wide value is passed (a simulator clears a wide
  // argument or result at every call; docs/rtl.md "Simulation speed").
  function automatic logic [1:0] inc_at(act_t a, int c);
    logic unused_level;
    unused_level = ^a.fifo_level;  // a column of its own, not a count
    unique case (c)
      WC_BM:   return 2'(a.b_rd_mxu);
      WC_BD:   return 2'(a.b_rd_dma) + 2'(a.b_wr_dma);
      WC_AM:   return 2'(a.a_mxu);
      WC_AQ:   return 2'(a.a_quant);
      WC_MX:   return 2'(a.busy[U_MXU]);
      WC_FM:   return 2'(a.deny[U_MXU]);
      WC_FQ:   return 2'(a.deny[U_QUANT]);
      WC_FV:   return 2'(a.deny[U_VPU]);
      WC_BS:   return 2'(a.b_wait);
      WC_AS:   return 2'(a.a_wait);
      WC_MS:   return 2'(a.mxu_starve);
      WC_MB:   return 2'(a.mxu_bp);
      WC_LD:   return 2'(a.busy[U_DMA]);
      default: return 2'd0;
    endcase
  endfunction

  // Columns most cycles add nothing to (TMEM refusals, port waits, DMA and QUANT transfers),
  // and whether a cycle adds to any of them: their counters are then left alone, where the
  // others add every cycle.
  function automatic logic rare_col(int c);
    return c inside {WC_BD, WC_AQ, WC_FM, WC_FQ, WC_FV, WC_BS, WC_AS};
  endfunction
  function automatic logic rare_any(act_t a);
    logic unused_a;
    unused_a = ^{a.busy, a.deny[U_DMA], a.b_rd_mxu, a.a_mxu, a.mxu_starve, a.mxu_bp,
                 a.fifo_level};
    return a.b_rd_dma || a.b_wr_dma || a.a_quant || a.deny[U_MXU] || a.deny[U_QUANT] ||
           a.deny[U_VPU] || a.b_wait || a.a_wait;
  endfunction

  assign win_n_o = n_q + 32'd1;
  assign win_o   = running_i && (last_i || win_n_o >= win_len_i);
  always_comb begin
    win_cnt_o = '0;
    if (win_o) begin
      for (int c = 0; c < WC_NUM; c++) begin
        win_cnt_o[c] = cnt_q[c] + 32'(inc_at(act_i, c));
      end
      win_cnt_o[WC_FF] = 32'(act_i.fifo_level);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_q   <= '0;
      cnt_q <= '0;
    end else if (start_i || win_o) begin
      n_q   <= '0;
      cnt_q <= '0;
    end else if (running_i) begin
      n_q <= win_n_o;
      for (int c = 0; c < WC_NUM; c++) begin
        // The columns of rare activity only in a cycle that has some.
        if (!rare_col(c) || rare_any(act_i)) begin
          cnt_q[c] <= cnt_q[c] + 32'(inc_at(act_i, c));
        end
      end
    end
  end

  logic unused_act;
  assign unused_act = ^{act_i.busy[U_QUANT], act_i.busy[U_VPU], act_i.deny[U_DMA]};

endmodule : otpu_evwin
