// The VPU (docs/rtl-core.md "Units"): executes VOP (docs/isa.md) on TMEM, one instruction at a
// time. A row of n elements goes in groups of LANES elements (the group starting at element
// j0, a multiple of LANES): read A, read B (FULL and COL; ROW and SCALAR read their one B word
// once per row), compute, write. The composite functions (EXP2 RECIP RSQRT) compute a group on
// CL lanes in ceil(group / CL) steps. The row reductions (RSUM RMAX RSSQ) add each group into
// LANES partials and write mul(fold, C) after the row's last group. Every TMEM request is one
// group of consecutive words, so its lanes hit distinct banks; word j0 + e goes in lane
// (address mod LANES). A refused request simply repeats; the refused cycles are the `frz`
// counter reported with done.
module otpu_vpu
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned LANES      = 8,
  parameter int unsigned CL         = 2,
  parameter int unsigned TMEM_WORDS = 65536
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // issue
  input  logic                                     issue_valid_i,
  output logic                                     issue_ready_o,
  input  logic [3:0]                               issue_slot_i,
  input  logic [INSTR_W-1:0]                       issue_instr_i,
  // completion
  output logic                                     done_o,
  output logic [3:0]                               done_slot_o,
  output logic [3:0][31:0]                         done_cnt_o,
  // TMEM
  output logic                                     tm_req_o,
  output logic                                     tm_we_o,
  output logic [LANES-1:0]                         tm_mask_o,
  output logic [LANES-1:0][$clog2(TMEM_WORDS)-1:0] tm_addr_o,
  output logic [LANES-1:0][31:0]                   tm_wdata_o,
  input  logic                                     tm_gnt_i,
  input  logic [LANES-1:0][31:0]                   tm_rdata_i
);

  localparam int unsigned AW    = $clog2(TMEM_WORDS);
  localparam int unsigned LB    = $clog2(LANES);
  localparam int unsigned Steps = (LANES + CL - 1) / CL;
  localparam int unsigned SW    = (Steps > 1) ? $clog2(Steps) : 1;

  localparam logic [31:0] FP_NEG_INF = 32'hFF80_0000;

  typedef enum logic [2:0] {
    StIdle,
    StRowB,  // read the row's B word (ROW, SCALAR)
    StRdA,   // read a group of A
    StRdB,   // read a group of B (FULL, COL)
    StComp,  // composite steps
    StWr,    // write a group of dst
    StRWr    // write a reduction's result
  } state_e;

  ////////////
  // Decode //
  ////////////

  logic [31:0] w1, w2, w3, w4, w5, w6, w7;
  logic [7:0]  flags, fn;
  logic [1:0]  bmode;
  logic        reads_a, reads_b, composite, reduction;
  assign w1    = issue_instr_i[63:32];
  assign w2    = issue_instr_i[95:64];
  assign w3    = issue_instr_i[127:96];
  assign w4    = issue_instr_i[159:128];
  assign w5    = issue_instr_i[191:160];
  assign w6    = issue_instr_i[223:192];
  assign w7    = issue_instr_i[255:224];
  assign flags = issue_instr_i[31:24];
  assign fn    = w4[7:0];
  assign bmode = flags[1:0];
  assign reduction = (fn == VOP_RSUM) || (fn == VOP_RMAX) || (fn == VOP_RSSQ);
  assign composite = (fn == VOP_EXP2) || (fn == VOP_RECIP) || (fn == VOP_RSQRT);
  assign reads_a   = (fn != VOP_FILL);
  assign reads_b   = !flags[2] && (fn != VOP_COPY) && !reduction;

  logic unused_instr;
  assign unused_instr = ^{issue_instr_i[23:0], flags[7:3], w4[15:8], w1[31:AW], w2[31:AW],
                          w3[31:AW]};

  ///////////
  // State //
  ///////////

  state_e                    state_q;
  logic [3:0]                slot_q;
  logic [7:0]                fn_q;
  logic                      b_row_q;      // B is one word per row (ROW, SCALAR)
  logic                      b_adv_q;      // B's row base advances (FULL, ROW)
  logic                      reads_a_q, reads_b_q;
  logic                      comp_q, red_q;
  logic [15:0]               n_q, m_q, r_q, j_q;
  logic [15:0]               dst_stride_q, a_stride_q;
  logic [15:0]               b_stride_q;
  logic [31:0]               c_q;
  logic [AW-1:0]             rowd_q, rowa_q, rowb_q;
  logic [LANES-1:0][31:0]    a_q, b_q, y_q, p_q;
  logic [31:0]               bs_q;
  logic [SW-1:0]             step_q;
  logic [31:0]               frz_q;
  logic                      done_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q      <= StIdle;
      slot_q       <= '0;
      fn_q         <= '0;
      b_row_q      <= 1'b0;
      b_adv_q      <= 1'b0;
      reads_a_q    <= 1'b0;
      reads_b_q    <= 1'b0;
      comp_q       <= 1'b0;
      red_q        <= 1'b0;
      n_q          <= '0;
      m_q          <= '0;
      r_q          <= '0;
      j_q          <= '0;
      dst_stride_q <= '0;
      a_stride_q   <= '0;
      b_stride_q   <= '0;
      c_q          <= '0;
      rowd_q       <= '0;
      rowa_q       <= '0;
      rowb_q       <= '0;
      a_q          <= '0;
      b_q          <= '0;
      y_q          <= '0;
      p_q          <= '0;
      bs_q         <= '0;
      step_q       <= '0;
      frz_q        <= '0;
      done_q       <= 1'b0;
    end else begin
      frz_q        <= frz_q + {31'd0, tm_req_o && !tm_gnt_i};
      done_q       <= 1'b0;

      // Leaving a group: the next group of the row, the next row, or done.
      if ((state_q == StWr && granted) || (state_q == StRWr && granted) ||
          (state_q == StComp && granted) ||
          (state_q == StRdA && granted && red_q && last_grp)) begin
        step_q <= '0;  // a composite group left from its last step
        if (state_q == StRdA) begin
          p_q     <= red_p;
          state_q <= StRWr;
        end else if ((state_q == StWr || state_q == StComp) && !last_grp) begin
          j_q     <= j_next[15:0];
          state_q <= grp_first;
        end else if (last_row) begin
          state_q <= StIdle;
          done_q  <= 1'b1;
        end else begin
          r_q     <= r_q + 16'd1;
          j_q     <= '0;
          rowd_q  <= rowd_q + AW'(dst_stride_q);
          rowa_q  <= rowa_q + AW'(a_stride_q);
          rowb_q  <= b_adv_q ? rowb_q + AW'(b_stride_q) : rowb_q;
          p_q     <= {LANES{partial_init(fn_q)}};
          state_q <= row_first;
        end
      end else begin
        case (state_q)
          StIdle: begin
            if (issue_valid_i) begin
              slot_q       <= issue_slot_i;
              fn_q         <= fn;
              b_row_q      <= (bmode == BMODE_ROW) || (bmode == BMODE_SCALAR);
              b_adv_q      <= (bmode == BMODE_FULL) || (bmode == BMODE_ROW);
              reads_a_q    <= reads_a;
              reads_b_q    <= reads_b;
              comp_q       <= composite;
              red_q        <= reduction;
              n_q          <= w5[15:0];
              m_q          <= w5[31:16];
              r_q          <= '0;
              j_q          <= '0;
              dst_stride_q <= w6[15:0];
              a_stride_q   <= w6[31:16];
              b_stride_q   <= w4[31:16];
              c_q          <= w7;
              rowd_q       <= w1[AW-1:0];
              rowa_q       <= w2[AW-1:0];
              rowb_q       <= w3[AW-1:0];
              p_q          <= {LANES{partial_init(fn)}};
              frz_q        <= '0;
              if (reads_b && ((bmode == BMODE_ROW) || (bmode == BMODE_SCALAR))) begin
                state_q <= StRowB;
              end else if (reads_a) begin
                state_q <= StRdA;
              end else if (reads_b) begin
                state_q <= StRdB;
              end else begin
                state_q <= composite ? StComp : StWr;
              end
            end
          end
          StRowB: begin
            if (granted) begin
              bs_q    <= rd_elem[0];
              state_q <= grp_first;
            end
          end
          StRdA: begin
            if (granted) begin
              a_q <= rd_elem;
              if (red_q) begin
                p_q     <= red_p;
                j_q     <= j_next[15:0];  // not the last group: handled above
                state_q <= StRdA;
              end else if (reads_b_q && !b_row_q) begin
                state_q <= StRdB;
              end else begin
                state_q <= comp_q ? StComp : StWr;
              end
            end
          end
          StRdB: begin
            if (granted) begin
              b_q     <= rd_elem;
              state_q <= comp_q ? StComp : StWr;
            end
          end
          StComp: begin
            y_q <= y_comp;
            if (last_step) begin
              step_q  <= '0;
              state_q <= StWr;
            end else begin
              step_q <= step_q + SW'(1);
            end
          end
          default: ;  // StWr, StRWr: waiting for the grant
        endcase
      end
    end
  end

  ////////////////////////
  // Group bookkeeping  //
  ////////////////////////

  logic [16:0] j_next;
  logic        last_grp, last_row;
  logic [LB:0] grp_cnt;
  assign j_next   = {1'b0, j_q} + 17'(LANES);
  assign last_grp = (j_next >= {1'b0, n_q});
  assign last_row = ({1'b0, r_q} + 17'd1 == {1'b0, m_q});
  assign grp_cnt  = last_grp ? (LB + 1)'(n_q - j_q) : (LB + 1)'(LANES);

  logic [LANES-1:0] grp_mask;
  for (genvar e = 0; e < LANES; e++) begin : gen_grp_mask
    assign grp_mask[e] = (e < grp_cnt);
  end

  //////////////
  // Datapath //
  //////////////

  // B of every lane: the row's word (ROW, SCALAR), the group (FULL, COL), or +0 (not read).
  // The lanes compute y only when a group of their results is written (StWr of an element-wise
  // function), x only in the composite steps: docs/rtl.md "Simulation speed".
  logic [LANES-1:0][31:0] b_eff, lane_y, lane_x;
  logic                   lane_y_en;
  assign lane_y_en = (state_q == StWr) && !comp_q;
  for (genvar e = 0; e < LANES; e++) begin : gen_lane
    assign b_eff[e] = !reads_b_q ? 32'd0 : (b_row_q ? bs_q : b_q[e]);

    otpu_vpu_lane u_lane (
      .y_en_i(lane_y_en),
      .x_en_i(state_q == StComp),
      .fn_i  (fn_q),
      .a_i   (a_q[e]),
      .b_i   (b_eff[e]),
      .c_i   (c_q),
      .y_o   (lane_y[e]),
      .x_o   (lane_x[e])
    );
  end

  // The composite lanes take elements step*CL .. step*CL + CL - 1 of the group.
  logic [CL-1:0][31:0] comp_x, comp_y;
  for (genvar l = 0; l < CL; l++) begin : gen_comp
    always_comb begin
      comp_x[l] = 32'd0;
      for (int e = 0; e < LANES; e++) begin
        if (e == int'(step_q) * CL + l) begin
          comp_x[l] = lane_x[e];
        end
      end
    end

    otpu_vpu_comp u_comp (
      .en_i(state_q == StComp),
      .fn_i(fn_q),
      .x_i (comp_x[l]),
      .y_o (comp_y[l])
    );
  end

  logic        last_step;
  assign last_step = ((int'(step_q) + 1) * CL >= int'(grp_cnt));

  // The group's results with this step's composite lanes in: the last step writes them at
  // once (a composite group costs its steps plus its reads, not one more cycle to write).
  logic [LANES-1:0][31:0] y_comp;
  always_comb begin
    y_comp = y_q;
    for (int e = 0; e < LANES; e++) begin
      if (e / CL == int'(step_q)) begin
        y_comp[e] = comp_y[e % CL];
      end
    end
  end

  // Reductions: the read group (in element order) into the partials; the fold of the row.
  logic [LANES-1:0][31:0] rd_elem, red_p;
  logic [31:0]            red_y;

  otpu_vpu_red #(
    .LANES(LANES)
  ) u_red (
    .p_en_i(state_q == StRdA && red_q && granted),
    .y_en_i(state_q == StRWr),
    .fn_i  (fn_q),
    .p_i   (p_q),
    .a_i   (rd_elem),
    .mask_i(grp_mask),
    .c_i   (c_q),
    .p_o   (red_p),
    .y_o   (red_y)
  );

  //////////
  // TMEM //
  //////////

  // The request of this state: cnt consecutive words from base (the write data below).
  logic [AW-1:0]          req_base;
  logic [LB:0]            req_cnt;
  always_comb begin
    tm_req_o  = 1'b1;
    tm_we_o   = 1'b0;
    req_base  = rowa_q + AW'(j_q);
    req_cnt   = grp_cnt;
    case (state_q)
      StRowB: begin
        req_base = rowb_q;
        req_cnt  = (LB + 1)'(1);
      end
      StRdA: ;
      StRdB: req_base = rowb_q + AW'(j_q);
      StWr: begin
        tm_we_o  = 1'b1;
        req_base = rowd_q + AW'(j_q);
      end
      StComp: begin
        // The last step writes the group (refused: StWr retries it).
        tm_req_o = last_step;
        tm_we_o  = 1'b1;
        req_base = rowd_q + AW'(j_q);
      end
      StRWr: begin
        tm_we_o  = 1'b1;
        req_base = rowd_q;
        req_cnt  = (LB + 1)'(1);
      end
      default: tm_req_o = 1'b0;  // StIdle
    endcase
  end

  // The request's lanes and the read group's elements (otpu_tm_lanes); the write data here,
  // only for a write: element e goes on lane (base + e) mod LANES.
  logic [LB-1:0] rot;
  logic          granted;
  assign rot     = req_base[LB-1:0];
  assign granted = tm_req_o && tm_gnt_i;
  otpu_tm_lanes #(
    .LANES(LANES),
    .AW   (AW)
  ) u_lanes (
    .req_i  (tm_req_o),
    .base_i (req_base),
    .cnt_i  (req_cnt),
    .mask_o (tm_mask_o),
    .addr_o (tm_addr_o),
    .rd_i   (granted && !tm_we_o),
    .rdata_i(tm_rdata_i),
    .elem_o (rd_elem)
  );
  always_comb begin
    logic [LB-1:0] e;
    e          = '0;
    tm_wdata_o = '0;
    if (tm_req_o && tm_we_o) begin
      for (int l = 0; l < int'(LANES); l++) begin
        e = LB'(l) - rot;
        // The reduction's result, the composite's group or the lanes' results.
        if (state_q == StRWr) begin
          tm_wdata_o[l] = (e == '0) ? red_y : 32'd0;
        end else if (state_q == StComp) begin
          tm_wdata_o[l] = y_comp[e];
        end else begin
          tm_wdata_o[l] = comp_q ? y_q[e] : lane_y[e];
        end
      end
    end
  end

  ///////////////////
  // Control (FSM) //
  ///////////////////

  // The first state of a group, and of a row.
  state_e grp_first, row_first;
  always_comb begin
    if (reads_a_q) begin
      grp_first = StRdA;
    end else if (reads_b_q && !b_row_q) begin
      grp_first = StRdB;
    end else begin
      grp_first = comp_q ? StComp : StWr;
    end
    row_first = (reads_b_q && b_row_q) ? StRowB : grp_first;
  end

  // One lane's partial at a row's start (a word, not the whole group: a simulator clears a
  // wide function result at every evaluation).
  function automatic logic [31:0] partial_init(logic [7:0] f);
    return (f == VOP_RMAX) ? FP_NEG_INF : 32'd0;
  endfunction

  assign issue_ready_o = (state_q == StIdle);

  ////////////////
  // Completion //
  ////////////////

  assign done_o      = done_q;
  assign done_slot_o = slot_q;
  assign done_cnt_o  = {96'd0, frz_q};

endmodule : otpu_vpu
