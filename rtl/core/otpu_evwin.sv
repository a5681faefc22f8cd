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

  // The columns after one more cycle of activity a (0..2 each; FF and FC add nothing). A
  // function, not a signal: a's bits change with the memory's ready inputs, so a signal would
  // be evaluated at every settle of the inputs; called at the edge and in a window's last cycle
  // it runs once a cycle (docs/rtl.md "Simulation speed").
  function automatic logic [WC_NUM-1:0][31:0] counted(logic [WC_NUM-1:0][31:0] cnt, act_t a);
    logic [WC_NUM-1:0][1:0] inc;
    logic                   unused_level;
    unused_level = ^a.fifo_level;  // a column of its own, not a count
    inc        = '0;
    inc[WC_BM] = 2'(a.b_rd_mxu);
    inc[WC_BD] = 2'(a.b_rd_dma) + 2'(a.b_wr_dma);
    inc[WC_AM] = 2'(a.a_mxu);
    inc[WC_AQ] = 2'(a.a_quant);
    inc[WC_MX] = 2'(a.busy[U_MXU]);
    inc[WC_FM] = 2'(a.deny[U_MXU]);
    inc[WC_FQ] = 2'(a.deny[U_QUANT]);
    inc[WC_FV] = 2'(a.deny[U_VPU]);
    inc[WC_BS] = 2'(a.b_wait);
    inc[WC_AS] = 2'(a.a_wait);
    inc[WC_MS] = 2'(a.mxu_starve);
    inc[WC_MB] = 2'(a.mxu_bp);
    inc[WC_LD] = 2'(a.busy[U_DMA]);
    for (int c = 0; c < WC_NUM; c++) begin
      counted[c] = cnt[c] + 32'(inc[c]);
    end
  endfunction

  assign win_n_o = n_q + 32'd1;
  assign win_o   = running_i && (last_i || win_n_o >= win_len_i);
  always_comb begin
    win_cnt_o = '0;
    if (win_o) begin
      win_cnt_o        = counted(cnt_q, act_i);
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
      n_q   <= win_n_o;
      cnt_q <= counted(cnt_q, act_i);
    end
  end

  logic unused_act;
  assign unused_act = ^{act_i.busy[U_QUANT], act_i.busy[U_VPU], act_i.deny[U_DMA]};

endmodule : otpu_evwin
