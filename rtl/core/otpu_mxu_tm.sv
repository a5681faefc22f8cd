// The MXU's TMEM side (docs/rtl-core.md "MXU"): the drain writes the results of a finished W
// row (out[i][j] for the pass's rows i, at base + c*stride for column c) and, for ACC, the
// preloader reads the old out values of the next row the consumer will start, one row ahead.
// A row's words may share banks: each request carries the oldest pending column of every
// bank it can (lane = bank), so a row takes one request per word of its busiest bank. The
// drain goes first. done_o pulses the cycle after an MM's last row is written. When an MM's
// out rows overlap one another (pl_strict_i), a row's old values are read only after the
// previous row is written, so with m <= MCOLS every output adds to what the ISA's loop order
// left there (several passes, or out_stride 0 with m > 1, still differ: docs/rtl-core.md).
module otpu_mxu_tm
  import otpu_core_pkg::*;
#(
  parameter int unsigned MCOLS      = 8,
  parameter int unsigned LANES      = 8,
  parameter int unsigned TMEM_WORDS = 65536
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // drain: one finished row from the consumer
  input  logic                                     dr_push_i,
  output logic                                     dr_ready_o,
  input  logic [MCOLS-1:0][31:0]                   dr_data_i,
  input  logic [$clog2(TMEM_WORDS)-1:0]            dr_base_i,     // out[pass row 0][j]
  input  logic [15:0]                              dr_stride_i,   // out_stride
  input  logic [MCOLS-1:0]                         dr_cols_i,     // columns holding a row
  input  logic [3:0]                               dr_slot_i,
  input  logic                                     dr_last_i,     // the MM's last row
  // preload (ACC): the old values of every row of the consumer's MM, in its order
  input  logic                                     pl_start_i,
  input  logic [$clog2(TMEM_WORDS)-1:0]            pl_base_i,     // e1
  input  logic [15:0]                              pl_stride_i,
  input  logic [31:0]                              pl_n_i,
  input  logic [7:0]                               pl_m_i,
  input  logic                                     pl_strict_i,   // out rows overlap
  output logic                                     pl_valid_o,
  output logic [MCOLS-1:0][31:0]                   pl_data_o,
  input  logic                                     pl_take_i,
  input  logic [3:0]                               pl_slot_i,     // the consumer's MM
  // TMEM
  output logic                                     tm_req_o,
  output logic                                     tm_we_o,
  output logic [LANES-1:0]                         tm_mask_o,
  output logic [LANES-1:0][$clog2(TMEM_WORDS)-1:0] tm_addr_o,
  output logic [LANES-1:0][31:0]                   tm_wdata_o,
  input  logic                                     tm_gnt_i,
  input  logic [LANES-1:0][31:0]                   tm_rdata_i,
  // status
  output logic                                     done_o,
  output logic [3:0]                               done_slot_o,
  output logic                                     deny_o,        // a request refused
  output logic [3:0]                               deny_slot_o,
  output logic                                     busy_o
);

  localparam int unsigned AW = $clog2(TMEM_WORDS);
  localparam int unsigned LB = $clog2(LANES);
  localparam int unsigned LM = $clog2(MCOLS);

  ///////////
  // State //
  ///////////

  // Next state is written in the always_ff blocks below, not as _d signals: the simulator
  // runs combinational logic on every settle, an always_ff once a cycle (docs/rtl.md
  // "Simulation speed").
  logic                   dv_q, dlast_q;
  logic [MCOLS-1:0]       dpend_q;
  logic [MCOLS-1:0][31:0] ddata_q;
  logic [AW-1:0]          dbase_q;
  logic [15:0]            dstride_q;
  logic [3:0]             dslot_q;

  logic                   pact_q, pvalid_q;
  logic [MCOLS-1:0]       ppend_q;
  logic [MCOLS-1:0][31:0] pdata_q;
  logic [AW-1:0]          ppbase_q;
  logic [15:0]            pstride_q;
  logic [31:0]            pn_q, pj_q;
  logic [7:0]             pm_q;
  logic [4:0]             pp_q;
  logic                   pstrict_q;
  logic [31:0]            ptaken_q, ppushed_q;  // rows since pl_start

  logic                   done_q;
  logic [3:0]             done_slot_q;

  ///////////////////////
  // Request and banks //
  ///////////////////////

  // The drain has the port when it holds a row; else the preloader when it misses words (and,
  // strict, once every row before the one it fetches has been written).
  logic             use_drain, use_pl;
  logic [MCOLS-1:0] req_pend;
  assign use_drain = dv_q;
  assign use_pl    = !dv_q && pact_q && !pvalid_q && (!pstrict_q || ppushed_q == ptaken_q);
  assign req_pend  = use_drain ? dpend_q : (use_pl ? ppend_q : '0);

  // Only while a column is pending: each column's address and bank, sel (the oldest pending
  // column of each bank) and the request's lanes.
  logic [MCOLS-1:0][AW-1:0] col_addr;
  logic [MCOLS-1:0][LB-1:0] col_bank;
  logic [MCOLS-1:0]         sel;
  always_comb begin
    logic [AW-1:0] req_base;
    logic [15:0]   req_stride;
    req_base   = '0;
    req_stride = '0;
    col_addr   = '0;
    col_bank   = '0;
    sel        = '0;
    tm_mask_o  = '0;
    tm_addr_o  = '0;
    tm_wdata_o = '0;
    if (req_pend != '0) begin
      req_base   = use_drain ? dbase_q : ppbase_q + AW'(pj_q);
      req_stride = use_drain ? dstride_q : pstride_q;
      for (int c = 0; c < int'(MCOLS); c++) begin
        if (req_pend[c]) begin  // the other columns' addresses are never used
          col_addr[c] = req_base + AW'(c * req_stride);
          col_bank[c] = col_addr[c][LB-1:0];
        end
      end
      for (int c = 0; c < int'(MCOLS); c++) begin
        if (req_pend[c]) begin
          sel[c] = 1'b1;
          for (int o = 0; o < c; o++) begin
            if (req_pend[o] && col_bank[o] == col_bank[c]) begin
              sel[c] = 1'b0;
            end
          end
        end
      end
      for (int c = 0; c < int'(MCOLS); c++) begin
        if (sel[c]) begin
          tm_mask_o[col_bank[c]]  = 1'b1;
          tm_addr_o[col_bank[c]]  = col_addr[c];
          tm_wdata_o[col_bank[c]] = ddata_q[c];
        end
      end
    end
  end

  assign tm_req_o    = (req_pend != '0);
  assign tm_we_o     = use_drain;
  assign deny_o      = tm_req_o && !tm_gnt_i;
  assign deny_slot_o = use_drain ? dslot_q : pl_slot_i;

  logic granted, d_finish;
  assign granted  = tm_req_o && tm_gnt_i;
  assign d_finish = use_drain && granted && ((dpend_q & ~sel) == '0);

  assign dr_ready_o  = !dv_q || d_finish;
  assign pl_valid_o  = pvalid_q;
  assign pl_data_o   = pdata_q;
  assign done_o      = done_q;
  assign done_slot_o = done_slot_q;
  assign busy_o      = dv_q || pact_q;

  ///////////
  // Drain //
  ///////////

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dv_q        <= 1'b0;
      dlast_q     <= 1'b0;
      dpend_q     <= '0;
      ddata_q     <= '0;
      dbase_q     <= '0;
      dstride_q   <= '0;
      dslot_q     <= '0;
      done_q      <= 1'b0;
      done_slot_q <= '0;
    end else begin
      done_q      <= d_finish && dlast_q;
      done_slot_q <= dslot_q;
      if (use_drain && granted) begin
        dpend_q <= dpend_q & ~sel;
        dv_q    <= !d_finish;
      end
      if (dr_push_i && dr_ready_o) begin
        dv_q      <= 1'b1;
        dlast_q   <= dr_last_i;
        dpend_q   <= dr_cols_i;
        ddata_q   <= dr_data_i;
        dbase_q   <= dr_base_i;
        dstride_q <= dr_stride_i;
        dslot_q   <= dr_slot_i;
      end
    end
  end

  /////////////
  // Preload //
  /////////////

  logic [4:0] passes;
  assign passes = 5'((9'(pm_q) + 9'(MCOLS) - 9'd1) >> LM);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pact_q    <= 1'b0;
      pvalid_q  <= 1'b0;
      ppend_q   <= '0;
      pdata_q   <= '0;
      ppbase_q  <= '0;
      pstride_q <= '0;
      pn_q      <= '0;
      pj_q      <= '0;
      pm_q      <= '0;
      pp_q      <= '0;
      pstrict_q <= 1'b0;
      ptaken_q  <= '0;
      ppushed_q <= '0;
    end else begin
      if (pl_take_i && pvalid_q) begin
        ptaken_q <= ptaken_q + 32'd1;
      end
      if (dr_push_i && dr_ready_o) begin
        ppushed_q <= ppushed_q + 32'd1;
      end
      if (use_pl && granted) begin
        for (int c = 0; c < int'(MCOLS); c++) begin
          if (sel[c]) begin
            pdata_q[c] <= tm_rdata_i[col_bank[c]];
          end
        end
        ppend_q  <= ppend_q & ~sel;
        pvalid_q <= ((ppend_q & ~sel) == '0);
      end
      if (pl_take_i && pvalid_q) begin
        // The next row: j + 1 of this pass, or row 0 of the next pass, or none.
        pvalid_q <= 1'b0;
        if (pj_q + 32'd1 < pn_q) begin
          pj_q    <= pj_q + 32'd1;
          ppend_q <= MCOLS'(mxu_pass_cols(pm_q, pp_q, MCOLS));
        end else if (pp_q + 5'd1 < passes) begin
          pj_q     <= '0;
          pp_q     <= pp_q + 5'd1;
          ppbase_q <= ppbase_q + AW'(MCOLS * pstride_q);
          ppend_q  <= MCOLS'(mxu_pass_cols(pm_q, pp_q + 5'd1, MCOLS));
        end else begin
          pact_q <= 1'b0;
        end
      end
      if (pl_start_i) begin
        pact_q    <= 1'b1;
        pvalid_q  <= 1'b0;
        ppbase_q  <= pl_base_i;
        pstride_q <= pl_stride_i;
        pn_q      <= pl_n_i;
        pm_q      <= pl_m_i;
        pj_q      <= '0;
        pp_q      <= '0;
        ppend_q   <= MCOLS'(mxu_pass_cols(pl_m_i, 5'd0, MCOLS));
        pstrict_q <= pl_strict_i;
        ptaken_q  <= '0;
        ppushed_q <= '0;
      end
    end
  end

endmodule : otpu_mxu_tm
