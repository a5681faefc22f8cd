// Per-window counters (SPEC 5 P and Q records, docs/profile.md buckets): sums of the core's
// per-cycle activity over windows of win_len_i cycles, counted from cycle 0 of a run. At a
// window's last cycle, and at the run's last cycle for the final partial window, it emits the
// window: its cycle count n and the columns in wcol_e order (ff is the FIFO level at the
// window's last cycle, the others are sums).
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

  logic [31:0]             n_d, n_q;
  logic [WC_NUM-1:0][31:0] cnt_d, cnt_q;

  // This cycle's increments.
  logic [WC_NUM-1:0][31:0] inc;
  always_comb begin
    inc        = '0;
    inc[WC_BM] = 32'(act_i.b_rd_mxu);
    inc[WC_BD] = 32'(act_i.b_rd_dma) + 32'(act_i.b_wr_dma);
    inc[WC_AM] = 32'(act_i.a_mxu);
    inc[WC_AQ] = 32'(act_i.a_quant);
    inc[WC_MX] = 32'(act_i.busy[U_MXU]);
    inc[WC_FM] = 32'(act_i.deny[U_MXU]);
    inc[WC_FQ] = 32'(act_i.deny[U_QUANT]);
    inc[WC_FV] = 32'(act_i.deny[U_VPU]);
    inc[WC_BS] = 32'(act_i.b_wait);
    inc[WC_AS] = 32'(act_i.a_wait);
    inc[WC_MS] = 32'(act_i.mxu_starve);
    inc[WC_MB] = 32'(act_i.mxu_bp);
    inc[WC_LD] = 32'(act_i.busy[U_DMA]);
  end

  // The window including this cycle.
  always_comb begin
    win_n_o   = n_q + 32'd1;
    win_cnt_o = '0;
    for (int c = 0; c < WC_NUM; c++) begin
      win_cnt_o[c] = cnt_q[c] + inc[c];
    end
    win_cnt_o[WC_FF] = 32'(act_i.fifo_level);
  end

  assign win_o = running_i && (last_i || win_n_o >= win_len_i);

  always_comb begin
    n_d   = n_q;
    cnt_d = cnt_q;
    if (start_i || win_o) begin
      n_d   = '0;
      cnt_d = '0;
    end else if (running_i) begin
      n_d   = win_n_o;
      cnt_d = win_cnt_o;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_q   <= '0;
      cnt_q <= '0;
    end else begin
      n_q   <= n_d;
      cnt_q <= cnt_d;
    end
  end

  logic unused_act;
  assign unused_act = ^{act_i.busy[U_QUANT], act_i.busy[U_VPU], act_i.deny[U_DMA]};

endmodule : otpu_evwin
