// The MXU (docs/rtl-core.md "MXU"): MM of docs/isa.md for int8, int4 and fp4 weights, with or
// without block scales, ACC, and passes for m > MCOLS. Two-phase start: the streamer
// (otpu_mxu_stream) takes the MM on issue and fills the weight-chunk FIFO (FIFO_DEPTH chunks)
// and the scale FIFO (2*FIFO_DEPTH words) from ports B and A, responses in any order by tag;
// the consumer (otpu_mxu_cons) starts once the sequencer raises release_i, one chunk a cycle;
// the TMEM side (otpu_mxu_tm) drains finished rows and preloads ACC rows. Counters per
// instruction (done_cnt_o): [0] starve (cycles the consumer waited for DRAM data), [1] bp
// (cycles the streamer had a chunk to request but the weight FIFO was full), [2] frz (cycles
// the consumer waited on drain or preload while the TMEM refused the MXU), [3] deny (refused
// TMEM requests).
module otpu_mxu
  import otpu_core_pkg::*;
#(
  parameter int unsigned D          = 32,
  parameter int unsigned MCOLS      = 8,
  parameter int unsigned LANES      = 8,
  parameter int unsigned ACT_BLOCKS = 128,
  parameter int unsigned ACT_ROWS   = 16,
  parameter int unsigned TMEM_WORDS = 65536,
  parameter int unsigned FIFO_DEPTH = 128
) (
  input  logic                                     clk_i,
  input  logic                                     rst_ni,
  // issue (the streamer) and release (the consumer)
  input  logic                                     issue_valid_i,
  output logic                                     issue_ready_o,
  input  logic [3:0]                               issue_slot_i,
  input  logic [INSTR_W-1:0]                       issue_instr_i,
  input  logic                                     release_i,
  output logic                                     release_ack_o,
  output logic                                     busy_o,
  // completion
  output logic                                     done_o,
  output logic [3:0]                               done_slot_o,
  output logic [3:0][31:0]                         done_cnt_o,
  // per-cycle events for the window counters
  output logic                                     ev_starve_o,
  output logic                                     ev_bp_o,
  output logic [15:0]                              fifo_level_o,
  // TMEM
  output logic                                     tm_req_o,
  output logic                                     tm_we_o,
  output logic [LANES-1:0]                         tm_mask_o,
  output logic [LANES-1:0][$clog2(TMEM_WORDS)-1:0] tm_addr_o,
  output logic [LANES-1:0][31:0]                   tm_wdata_o,
  input  logic                                     tm_gnt_i,
  input  logic [LANES-1:0][31:0]                   tm_rdata_i,
  // port B (reads)
  output logic                                     b_rd_valid_o,
  input  logic                                     b_rd_ready_i,
  output logic [31:0]                              b_rd_addr_o,
  output logic [TAG_W-1:0]                         b_rd_tag_o,
  input  logic                                     b_rsp_valid_i,
  input  logic [TAG_W-1:0]                         b_rsp_tag_i,
  input  logic [D*8-1:0]                           b_rsp_data_i,
  // port A (reads)
  output logic                                     a_valid_o,
  input  logic                                     a_ready_i,
  output logic                                     a_we_o,
  output logic [31:0]                              a_addr_o,
  output logic [31:0]                              a_wdata_o,
  output logic [3:0]                               a_be_o,
  output logic [TAG_W-1:0]                         a_tag_o,
  input  logic                                     a_rsp_valid_i,
  input  logic [TAG_W-1:0]                         a_rsp_tag_i,
  input  logic [31:0]                              a_rsp_data_i,
  // ACT RAM: blocks b and b+1 of the rows the columns hold, in the same cycle
  output logic [MCOLS-1:0]                         act_rd_en_o,   // column c reads row
  output logic [$clog2(ACT_ROWS)-1:0]              act_rd_row_o,  // act_rd_row_o + c
  output logic [$clog2(ACT_BLOCKS)-1:0]            act_rd_block_o,
  input  logic [MCOLS-1:0][1:0][D*8-1:0]           act_rd_data_i,
  input  logic [MCOLS-1:0][1:0][31:0]              act_rd_scale_i
);

  localparam int unsigned AW     = $clog2(TMEM_WORDS);
  localparam int unsigned SDEPTH = 2 * FIFO_DEPTH;  // a 4-bit chunk needs two scales
  localparam int unsigned WTAG_W = $clog2(FIFO_DEPTH);
  localparam int unsigned STAG_W = $clog2(SDEPTH);

  //////////////
  // Streamer //
  //////////////

  logic               q_valid, q_take;
  logic [3:0]         q_slot, st_slot;
  logic [INSTR_W-1:0] q_instr;
  logic [WTAG_W-1:0]  wtag;
  logic [STAG_W-1:0]  stag;
  logic               wfull, sfull, st_busy, bp;

  otpu_mxu_stream #(
    .D     (D),
    .MCOLS (MCOLS),
    .WTAG_W(WTAG_W),
    .STAG_W(STAG_W)
  ) u_stream (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .issue_valid_i(issue_valid_i),
    .issue_ready_o(issue_ready_o),
    .issue_slot_i (issue_slot_i),
    .issue_instr_i(issue_instr_i),
    .q_valid_o    (q_valid),
    .q_slot_o     (q_slot),
    .q_instr_o    (q_instr),
    .q_take_i     (q_take),
    .b_rd_valid_o (b_rd_valid_o),
    .b_rd_ready_i (b_rd_ready_i),
    .b_rd_addr_o  (b_rd_addr_o),
    .b_rd_tag_o   (b_rd_tag_o),
    .wtag_i       (wtag),
    .wfull_i      (wfull),
    .a_valid_o    (a_valid_o),
    .a_ready_i    (a_ready_i),
    .a_addr_o     (a_addr_o),
    .a_tag_o      (a_tag_o),
    .stag_i       (stag),
    .sfull_i      (sfull),
    .busy_o       (st_busy),
    .slot_o       (st_slot),
    .bp_o         (bp)
  );

  assign a_we_o    = 1'b0;
  assign a_wdata_o = 32'd0;
  assign a_be_o    = 4'hF;

  ///////////
  // FIFOs //
  ///////////

  logic             w_valid, w2_valid, s_valid, s2_valid;
  logic [D*8-1:0]   w_data, w2_data;
  logic [31:0]      s_data, s2_data;
  logic [1:0]       w_pop, s_pop;
  logic [WTAG_W:0]  wcount;
  logic [STAG_W:0]  unused_scount;

  otpu_mxu_fifo #(
    .WIDTH(D * 8),
    .DEPTH(FIFO_DEPTH)
  ) u_wfifo (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .alloc_i      (b_rd_valid_o && b_rd_ready_i),
    .alloc_tag_o  (wtag),
    .full_o       (wfull),
    .fill_i       (b_rsp_valid_i),
    .fill_tag_i   (b_rsp_tag_i[WTAG_W-1:0]),
    .fill_data_i  (b_rsp_data_i),
    .head_valid_o (w_valid),
    .head_o       (w_data),
    .head2_valid_o(w2_valid),
    .head2_o      (w2_data),
    .pop_i        (w_pop),
    .count_o      (wcount)
  );

  otpu_mxu_fifo #(
    .WIDTH(32),
    .DEPTH(SDEPTH)
  ) u_sfifo (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .alloc_i      (a_valid_o && a_ready_i),
    .alloc_tag_o  (stag),
    .full_o       (sfull),
    .fill_i       (a_rsp_valid_i),
    .fill_tag_i   (a_rsp_tag_i[STAG_W-1:0]),
    .fill_data_i  (a_rsp_data_i),
    .head_valid_o (s_valid),
    .head_o       (s_data),
    .head2_valid_o(s2_valid),
    .head2_o      (s2_data),
    .pop_i        (s_pop),
    .count_o      (unused_scount)
  );

  logic unused_tags;
  assign unused_tags = ^{b_rsp_tag_i[TAG_W-1:WTAG_W], a_rsp_tag_i[TAG_W-1:STAG_W],
                         unused_scount};

  //////////////
  // Consumer //
  //////////////

  logic                   pl_start, pl_strict, pl_valid, pl_take, dr_push, dr_ready, dr_last;
  logic [AW-1:0]          pl_base, dr_base;
  logic [15:0]            pl_stride, dr_stride;
  logic [31:0]            pl_n;
  logic [7:0]             pl_m;
  logic [MCOLS-1:0][31:0] pl_data, dr_data;
  logic [MCOLS-1:0]       dr_cols;
  logic [3:0]             dr_slot, cons_slot;
  logic                   cons_busy, starve, stall_tm;

  otpu_mxu_cons #(
    .D         (D),
    .MCOLS     (MCOLS),
    .ACT_BLOCKS(ACT_BLOCKS),
    .ACT_ROWS  (ACT_ROWS),
    .TMEM_WORDS(TMEM_WORDS)
  ) u_cons (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .q_valid_i     (q_valid),
    .q_slot_i      (q_slot),
    .q_instr_i     (q_instr),
    .release_i     (release_i),
    .release_ack_o (q_take),
    .w_valid_i     (w_valid),
    .w_data_i      (w_data),
    .w2_valid_i    (w2_valid),
    .w2_data_i     (w2_data),
    .s_valid_i     (s_valid),
    .s_data_i      (s_data),
    .s2_valid_i    (s2_valid),
    .s2_data_i     (s2_data),
    .w_pop_o       (w_pop),
    .s_pop_o       (s_pop),
    .act_rd_en_o   (act_rd_en_o),
    .act_rd_row_o  (act_rd_row_o),
    .act_rd_block_o(act_rd_block_o),
    .act_rd_data_i (act_rd_data_i),
    .act_rd_scale_i(act_rd_scale_i),
    .pl_start_o    (pl_start),
    .pl_base_o     (pl_base),
    .pl_stride_o   (pl_stride),
    .pl_n_o        (pl_n),
    .pl_m_o        (pl_m),
    .pl_strict_o   (pl_strict),
    .pl_valid_i    (pl_valid),
    .pl_data_i     (pl_data),
    .pl_take_o     (pl_take),
    .dr_push_o     (dr_push),
    .dr_ready_i    (dr_ready),
    .dr_data_o     (dr_data),
    .dr_base_o     (dr_base),
    .dr_stride_o   (dr_stride),
    .dr_cols_o     (dr_cols),
    .dr_slot_o     (dr_slot),
    .dr_last_o     (dr_last),
    .busy_o        (cons_busy),
    .slot_o        (cons_slot),
    .starve_o      (starve),
    .stall_tm_o    (stall_tm)
  );

  assign release_ack_o = q_take;

  ///////////////
  // TMEM side //
  ///////////////

  logic       tm_busy, deny;
  logic [3:0] deny_slot;

  otpu_mxu_tm #(
    .MCOLS     (MCOLS),
    .LANES     (LANES),
    .TMEM_WORDS(TMEM_WORDS)
  ) u_tm (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .dr_push_i  (dr_push),
    .dr_ready_o (dr_ready),
    .dr_data_i  (dr_data),
    .dr_base_i  (dr_base),
    .dr_stride_i(dr_stride),
    .dr_cols_i  (dr_cols),
    .dr_slot_i  (dr_slot),
    .dr_last_i  (dr_last),
    .pl_start_i (pl_start),
    .pl_base_i  (pl_base),
    .pl_stride_i(pl_stride),
    .pl_n_i     (pl_n),
    .pl_m_i     (pl_m),
    .pl_strict_i(pl_strict),
    .pl_valid_o (pl_valid),
    .pl_data_o  (pl_data),
    .pl_take_i  (pl_take),
    .pl_slot_i  (cons_slot),
    .tm_req_o   (tm_req_o),
    .tm_we_o    (tm_we_o),
    .tm_mask_o  (tm_mask_o),
    .tm_addr_o  (tm_addr_o),
    .tm_wdata_o (tm_wdata_o),
    .tm_gnt_i   (tm_gnt_i),
    .tm_rdata_i (tm_rdata_i),
    .done_o     (done_o),
    .done_slot_o(done_slot_o),
    .deny_o     (deny),
    .deny_slot_o(deny_slot),
    .busy_o     (tm_busy)
  );

  //////////////
  // Counters //
  //////////////

  // Per window slot: [0] starve [1] bp [2] frz [3] deny, cleared when the streamer takes an MM.
  // A memory written only where a counter moves (a whole-array next-state copy costs the
  // simulator 2 kbit twice a cycle; docs/rtl.md "Simulation speed"). No reset: a slot's
  // counters are cleared when its MM is issued, before anything reads them.
  logic [31:0] cnt_q [16][4];

  always_ff @(posedge clk_i) begin
    if (starve) begin
      cnt_q[cons_slot][0] <= cnt_q[cons_slot][0] + 32'd1;
    end
    if (bp) begin
      cnt_q[st_slot][1] <= cnt_q[st_slot][1] + 32'd1;
    end
    if (stall_tm && deny) begin
      cnt_q[cons_slot][2] <= cnt_q[cons_slot][2] + 32'd1;
    end
    if (deny) begin
      cnt_q[deny_slot][3] <= cnt_q[deny_slot][3] + 32'd1;
    end
    if (issue_valid_i && issue_ready_o) begin
      cnt_q[issue_slot_i][0] <= 32'd0;
      cnt_q[issue_slot_i][1] <= 32'd0;
      cnt_q[issue_slot_i][2] <= 32'd0;
      cnt_q[issue_slot_i][3] <= 32'd0;
    end
  end

  assign done_cnt_o = {cnt_q[done_slot_o][3], cnt_q[done_slot_o][2], cnt_q[done_slot_o][1],
                       cnt_q[done_slot_o][0]};
  assign ev_starve_o  = starve;
  assign ev_bp_o      = bp;
  assign fifo_level_o = 16'(wcount);
  assign busy_o       = st_busy || q_valid || cons_busy || tm_busy;

endmodule : otpu_mxu
