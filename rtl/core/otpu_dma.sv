// The DMA unit (docs/rtl-core.md "DMA"): LD requests the chunks of each row on port B (tagged
// with a reorder-buffer slot, so responses may come back in any order), then writes their
// words to TMEM in groups of up to LANES consecutive words, in order. ST reads TMEM groups,
// gathers them into chunks with byte enables and writes port B through a two-entry queue.
// One instruction at a time; it ends when its last TMEM write is granted (LD) or its last
// chunk is accepted (ST).
module otpu_dma
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned D          = 32,
  parameter int unsigned LANES      = 8,
  parameter int unsigned TMEM_WORDS = 65536,
  parameter int unsigned ROB        = 64,    // chunks in flight (covers the DRAM latency)
  localparam int unsigned AW        = $clog2(TMEM_WORDS)
) (
  input  logic                       clk_i,
  input  logic                       rst_ni,
  // Issue and completion
  input  logic                       issue_valid_i,
  output logic                       issue_ready_o,
  input  logic [3:0]                 issue_slot_i,
  input  logic [INSTR_W-1:0]         issue_instr_i,
  output logic                       done_o,
  output logic [3:0]                 done_slot_o,
  output logic [3:0][31:0]           done_cnt_o,
  // TMEM
  output logic                       tm_req_o,
  output logic                       tm_we_o,
  output logic [LANES-1:0]           tm_mask_o,
  output logic [LANES-1:0][AW-1:0]   tm_addr_o,
  output logic [LANES-1:0][31:0]     tm_wdata_o,
  input  logic                       tm_gnt_i,
  input  logic [LANES-1:0][31:0]     tm_rdata_i,
  // Port B
  output logic                       b_rd_valid_o,
  input  logic                       b_rd_ready_i,
  output logic [31:0]                b_rd_addr_o,
  output logic [TAG_W-1:0]           b_rd_tag_o,
  input  logic                       b_rsp_valid_i,
  input  logic [TAG_W-1:0]           b_rsp_tag_i,
  input  logic [D*8-1:0]             b_rsp_data_i,
  output logic                       b_wr_valid_o,
  input  logic                       b_wr_ready_i,
  output logic [31:0]                b_wr_addr_o,
  output logic [D*8-1:0]             b_wr_data_o,
  output logic [D-1:0]               b_wr_be_o
);

  localparam int unsigned Words = D / 4;           // words per chunk
  localparam int unsigned WordW = $clog2(Words);
  localparam int unsigned RobW  = $clog2(ROB);
  localparam int unsigned LaneW = $clog2(LANES);

  ///////////////////////
  // Instruction state //
  ///////////////////////

  logic       busy_q, is_st_q;
  logic [3:0] slot_q;
  logic       start;

  assign issue_ready_o = !busy_q;
  assign start         = issue_valid_i && !busy_q;

  logic [31:0] iw[8];
  for (genvar i = 0; i < 8; i++) begin : gen_words
    assign iw[i] = issue_instr_i[32*i +: 32];
  end

  // The request walk (LD: one step per chunk) and the data walk (one TMEM group a step).
  logic        rq_active, rq_adv;
  logic [32:0] rq_chunk, unused_rq_pos;
  logic [31:0] unused_rq_tmem, unused_rq_words;
  logic        unused_rq_chunk_last, unused_rq_last;

  otpu_dma_walk #(
    .D         (D),
    .GroupBytes(D)
  ) u_req_walk (
    .clk_i,
    .rst_ni,
    .start_i     (start && iw[0][7:0] == OP_LD),
    .dram_i      (iw[2]),
    .tmem_i      (iw[1]),
    .n_i         (iw[4]),
    .rows_i      (iw[5]),
    .dstride_i   (iw[6]),
    .tstride_i   (iw[7]),
    .adv_i       (rq_adv),
    .active_o    (rq_active),
    .chunk_o     (rq_chunk),
    .pos_o       (unused_rq_pos),
    .tmem_o      (unused_rq_tmem),
    .words_o     (unused_rq_words),
    .chunk_last_o(unused_rq_chunk_last),
    .last_o      (unused_rq_last)
  );

  logic        dw_active, dw_adv, dw_chunk_last, dw_last;
  logic [32:0] dw_chunk, dw_pos;
  logic [31:0] dw_tmem, dw_words;

  otpu_dma_walk #(
    .D         (D),
    .GroupBytes(4 * LANES)
  ) u_data_walk (
    .clk_i,
    .rst_ni,
    .start_i     (start),
    .dram_i      (iw[2]),
    .tmem_i      (iw[1]),
    .n_i         (iw[4]),
    .rows_i      (iw[5]),
    .dstride_i   (iw[6]),
    .tstride_i   (iw[7]),
    .adv_i       (dw_adv),
    .active_o    (dw_active),
    .chunk_o     (dw_chunk),
    .pos_o       (dw_pos),
    .tmem_o      (dw_tmem),
    .words_o     (dw_words),
    .chunk_last_o(dw_chunk_last),
    .last_o      (dw_last)
  );

  logic [WordW-1:0] off;  // word offset of the group in its chunk
  assign off = dw_pos[WordW+1:2];

  // Chunk addresses are below 2^32; the group's other position bits are in dw_tmem.
  logic [32-WordW:0]     unused_pos;
  logic [1:0]            unused_chunk_top;
  assign unused_pos       = {dw_pos[32:WordW+2], dw_pos[1:0]};
  assign unused_chunk_top = {dw_chunk[32], rq_chunk[32]};

  /////////////////////
  // LD: reorder buf //
  /////////////////////

  logic [D*8-1:0]  rob_data_q[ROB];
  logic [ROB-1:0]  rob_valid_q;
  logic [RobW-1:0] rob_head_q, rob_tail_q;
  logic [RobW:0]   rob_cnt_q;
  logic            rob_pop;

  assign b_rd_valid_o = rq_active && rob_cnt_q != (RobW + 1)'(ROB);
  assign b_rd_addr_o  = rq_chunk[31:0];
  assign b_rd_tag_o   = TAG_W'(rob_tail_q);
  assign rq_adv       = b_rd_valid_o && b_rd_ready_i;

  always_ff @(posedge clk_i) begin
    if (b_rsp_valid_i) begin
      rob_data_q[b_rsp_tag_i[RobW-1:0]] <= b_rsp_data_i;
    end
  end

  logic [TAG_W-RobW-1:0] unused_rsp_tag;
  assign unused_rsp_tag = b_rsp_tag_i[TAG_W-1:RobW];

  ////////////////
  // ST: gather //
  ////////////////

  logic [D*8-1:0] stb_data_d, stb_data_q;
  logic [D-1:0]   stb_be_d, stb_be_q;
  logic           wq_push, wq_empty, wq_full;
  logic [D*8-1:0] wq_data;
  logic [D-1:0]   wq_be;
  logic [31:0]    wq_addr;

  // The chunk with this cycle's TMEM group merged in: group word j sits in lane
  // (dw_tmem + j) mod LANES. Only an ST uses it (merged only then: docs/rtl.md "Simulation
  // speed").
  always_comb begin
    logic [LaneW-1:0] lane;
    lane       = '0;
    stb_data_d = stb_data_q;
    stb_be_d   = stb_be_q;
    if (is_st_q && dw_active) begin
      for (int k = 0; k < Words; k++) begin
        lane = LaneW'(dw_tmem) + LaneW'(k - int'(off));
        if (k >= int'(off) && 32'(k - int'(off)) < dw_words) begin
          stb_data_d[32*k +: 32] = tm_rdata_i[lane];
          stb_be_d[4*k +: 4]     = 4'hF;
        end
      end
    end
  end

  assign wq_push = is_st_q && dw_adv && dw_chunk_last;

  otpu_fifo #(
    .Width(32 + D * 8 + D),
    .Depth(2)
  ) u_write_queue (
    .clk_i,
    .rst_ni,
    .clear_i(1'b0),
    .push_i (wq_push),
    .data_i ({dw_chunk[31:0], stb_data_d, stb_be_d}),
    .pop_i  (b_wr_valid_o && b_wr_ready_i),
    .data_o ({wq_addr, wq_data, wq_be}),
    .empty_o(wq_empty),
    .full_o (wq_full)
  );

  assign b_wr_valid_o = !wq_empty;
  assign b_wr_addr_o  = wq_addr;
  assign b_wr_data_o  = wq_data;
  assign b_wr_be_o    = wq_be;

  //////////
  // TMEM //
  //////////

  // LD writes a group once its chunk has arrived; ST reads one while the queue has room. The
  // lanes are 0 while the walk is idle (the TMEM looks at them only with tm_req_o).
  always_comb begin
    logic [LaneW-1:0] j;
    j          = '0;
    tm_req_o   = 1'b0;
    tm_we_o    = !is_st_q;
    tm_mask_o  = '0;
    tm_addr_o  = '0;
    tm_wdata_o = '0;
    if (busy_q && dw_active) begin
      tm_req_o = is_st_q ? !wq_full : rob_valid_q[rob_head_q];
      // Lane l carries group word j = (l - dw_tmem) mod LANES, of bank l.
      for (int l = 0; l < LANES; l++) begin
        j             = LaneW'(l) - LaneW'(dw_tmem);
        tm_mask_o[l]  = 32'(j) < dw_words;
        tm_addr_o[l]  = AW'(dw_tmem + 32'(j));
        if (!is_st_q) begin
          // An LD writes the head chunk, read from the reorder buffer here only: as a signal
          // it would be copied every cycle.
          tm_wdata_o[l] = rob_data_q[rob_head_q][32*((int'(off) + int'(j)) % Words) +: 32];
        end
      end
    end
  end

  assign dw_adv  = tm_req_o && tm_gnt_i;
  assign rob_pop = !is_st_q && dw_adv && dw_chunk_last;

  ////////////////
  // Completion //
  ////////////////

  // Every group of the walk is done; for ST the queue has drained too.
  logic finished;
  assign finished = busy_q && !dw_active && (!is_st_q || wq_empty);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      is_st_q     <= 1'b0;
      slot_q      <= '0;
      rob_valid_q <= '0;
      rob_head_q  <= '0;
      rob_tail_q  <= '0;
      rob_cnt_q   <= '0;
      stb_data_q  <= '0;
      stb_be_q    <= '0;
    end else begin
      if (dw_adv && is_st_q) begin
        stb_data_q <= dw_chunk_last ? '0 : stb_data_d;
        stb_be_q   <= dw_chunk_last ? '0 : stb_be_d;
      end
      if (b_rsp_valid_i) begin
        rob_valid_q[b_rsp_tag_i[RobW-1:0]] <= 1'b1;
      end
      if (rob_pop) begin
        rob_valid_q[rob_head_q] <= 1'b0;
        rob_head_q <= rob_head_q + RobW'(1);
      end
      if (rq_adv) begin
        rob_tail_q <= rob_tail_q + RobW'(1);
      end
      rob_cnt_q <= rob_cnt_q + (RobW + 1)'(rq_adv) - (RobW + 1)'(rob_pop);
      if (start) begin
        busy_q  <= 1'b1;
        is_st_q <= iw[0][7:0] == OP_ST;
        slot_q  <= issue_slot_i;
      end else if (finished) begin
        busy_q <= 1'b0;
      end
    end
  end

  assign done_o      = finished;
  assign done_slot_o = slot_q;
  assign done_cnt_o  = '0;  // the DMA has no unit counters (SPEC 5)

  // LD/ST use neither e3 nor the register and flag fields; the walk's end shows as !active.
  logic        unused_dw_last;
  logic [55:0] unused_iw;
  assign unused_dw_last = dw_last;
  assign unused_iw      = {iw[0][31:8], iw[3]};

endmodule : otpu_dma
