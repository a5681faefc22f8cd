// QUANT (docs/rtl-core.md "Units"): QACT (TMEM fp32 rows -> ACT RAM int8 blocks + scales) and
// QST (TMEM fp32 rows -> int8 bytes and fp32 scales in DRAM through port A), one instruction
// at a time. Each quantization segment (a block of D elements, or the whole row with PERROW)
// takes two passes over TMEM in groups of LANES words: pass 1 folds the magnitudes into amax,
// pass 2 quantizes every element with inv = mul(127, recip(amax)) (otpu_fp_quant). QACT writes
// a block to ACT RAM (one cycle) each time D values are ready; QST hands each group to the
// port-A writer (otpu_quant_wr), then writes the row's scales, kept in a buffer, after the
// row's values as the ISA orders them. done_o follows the last write.
module otpu_quant
  import otpu_pkg::*;
  import otpu_fp_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned D          = 32,
  parameter int unsigned LANES      = 8,
  parameter int unsigned ACT_BLOCKS = 128,
  parameter int unsigned ACT_ROWS   = 16,
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
  // TMEM (reads only)
  output logic                                     tm_req_o,
  output logic                                     tm_we_o,
  output logic [LANES-1:0]                         tm_mask_o,
  output logic [LANES-1:0][$clog2(TMEM_WORDS)-1:0] tm_addr_o,
  output logic [LANES-1:0][31:0]                   tm_wdata_o,
  input  logic                                     tm_gnt_i,
  input  logic [LANES-1:0][31:0]                   tm_rdata_i,
  // port A (writes only)
  output logic                                     a_valid_o,
  input  logic                                     a_ready_i,
  output logic                                     a_we_o,
  output logic [31:0]                              a_addr_o,
  output logic [31:0]                              a_wdata_o,
  output logic [3:0]                               a_be_o,
  output logic [TAG_W-1:0]                         a_tag_o,
  // ACT RAM write
  output logic                                     act_we_o,
  output logic [$clog2(ACT_ROWS)-1:0]              act_row_o,
  output logic [$clog2(ACT_BLOCKS)-1:0]            act_block_o,
  output logic [D*8-1:0]                           act_data_o,
  output logic [31:0]                              act_scale_o
);

  localparam int unsigned AW   = $clog2(TMEM_WORDS);
  localparam int unsigned LB   = $clog2(LANES);
  localparam int unsigned LD   = $clog2(D);
  localparam int unsigned RW   = $clog2(ACT_ROWS);
  localparam int unsigned BW   = $clog2(ACT_BLOCKS);
  localparam int unsigned SBUF = 65536 / D;  // scales of the longest row (n < 2^16)
  localparam int unsigned SW   = $clog2(SBUF);

  typedef enum logic [2:0] {
    StIdle,
    StP1,     // pass 1: read a group, fold its magnitudes into amax
    StP2,     // pass 2: read a group, quantize it
    StActWr,  // QACT: write the finished block to ACT RAM
    StFlush,  // QST: write the row's last gathered word
    StScale,  // QST: write the row's scales
    StDrain   // QST: wait for the last write to leave
  } state_e;

  ////////////
  // Decode //
  ////////////

  logic [31:0] w1, w2, w3, w4, w5, w6, w7;
  logic [7:0]  opcode, flags;
  assign opcode = issue_instr_i[7:0];
  assign flags  = issue_instr_i[31:24];
  assign w1     = issue_instr_i[63:32];
  assign w2     = issue_instr_i[95:64];
  assign w3     = issue_instr_i[127:96];
  assign w4     = issue_instr_i[159:128];
  assign w5     = issue_instr_i[191:160];
  assign w6     = issue_instr_i[223:192];
  assign w7     = issue_instr_i[255:224];

  logic unused_instr;
  assign unused_instr = ^{issue_instr_i[23:8], flags[7:1], w1[31:AW], w5[31:AW], w6[31:24]};

  ///////////
  // State //
  ///////////

  state_e           state_q;
  logic [3:0]       slot_q;
  logic             qst_q, perrow_q;
  logic [15:0]      n_q, rows_q, r_q, j_q, seg_q;
  logic [AW-1:0]    src_stride_q, row_src_q;
  logic [RW-1:0]    act_row_q;
  logic [BW-1:0]    act_blk_q;     // ACT RAM block of the next block written
  logic [BW-1:0]    act_blk0_q;   // ACT RAM block of the row's first block
  logic [31:0]      elem_stride_q, dst_stride_q;
  logic [31:0]      row_dst_q, elem_addr_q, sptr_q;
  logic [31:0]      amax_q;
  logic [D-1:0][7:0] blk_q;
  logic [SW:0]      sidx_q, scnt_q;
  logic [31:0]      frz_q;
  logic             done_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StIdle;
      slot_q        <= '0;
      qst_q         <= 1'b0;
      perrow_q      <= 1'b0;
      n_q           <= '0;
      rows_q        <= '0;
      r_q           <= '0;
      j_q           <= '0;
      seg_q         <= '0;
      src_stride_q  <= '0;
      row_src_q     <= '0;
      act_row_q     <= '0;
      act_blk_q     <= '0;
      act_blk0_q    <= '0;
      elem_stride_q <= '0;
      dst_stride_q  <= '0;
      row_dst_q     <= '0;
      elem_addr_q   <= '0;
      sptr_q        <= '0;
      amax_q        <= '0;
      blk_q         <= '0;
      sidx_q        <= '0;
      scnt_q        <= '0;
      frz_q         <= '0;
      done_q        <= 1'b0;
    end else begin
      frz_q         <= frz_q + {31'd0, tm_req_o && !tm_gnt_i};
      done_q        <= 1'b0;

      // After a segment's pass 2: the next segment, or the row's end.
      if ((state_q == StP2 && granted && last_grp && qst_q) ||
          (state_q == StActWr && last_grp)) begin
        if (state_q == StP2) begin
          elem_addr_q <= elem_addr_q + (elem_stride_q << LB);
          sidx_q      <= sidx_q + 1'b1;
        end else begin
          act_blk_q <= act_blk_q + 1'b1;
        end
        amax_q <= '0;
        if (!last_seg) begin
          seg_q   <= seg_end[15:0];
          j_q     <= seg_end[15:0];
          state_q <= StP1;
        end else if (qst_q) begin
          state_q <= StFlush;
        end else if (last_row) begin
          state_q <= StIdle;
          done_q  <= 1'b1;
        end else begin
          r_q       <= r_q + 16'd1;
          j_q       <= '0;
          seg_q     <= '0;
          row_src_q <= row_src_q + src_stride_q;
          act_row_q <= act_row_q + 1'b1;
          act_blk_q <= act_blk0_q;
          state_q   <= StP1;
        end
      end else begin
        case (state_q)
          StIdle: begin
            if (issue_valid_i) begin
              slot_q        <= issue_slot_i;
              qst_q         <= (opcode == OP_QST);
              perrow_q      <= flags[0];
              n_q           <= w4[15:0];
              rows_q        <= w4[31:16];
              r_q           <= '0;
              j_q           <= '0;
              seg_q         <= '0;
              src_stride_q  <= w5[AW-1:0];
              row_src_q     <= w1[AW-1:0];
              act_row_q     <= w6[RW-1:0];
              act_blk_q     <= w6[8 +: BW];
              act_blk0_q    <= w6[8 +: BW];
              elem_stride_q <= w6;
              dst_stride_q  <= w7;
              row_dst_q     <= w2;
              elem_addr_q   <= w2;
              sptr_q        <= w3;
              amax_q        <= '0;
              sidx_q        <= '0;
              scnt_q        <= '0;
              frz_q         <= '0;
              state_q       <= StP1;
            end
          end
          StP1: begin
            if (granted) begin
              amax_q <= grp_amax;
              if (last_grp) begin
                j_q     <= seg_q;
                state_q <= StP2;
              end else begin
                j_q <= j_next[15:0];
              end
            end
          end
          StP2: begin
            if (granted) begin
              if (qst_q) begin
                // Not the segment's last group: that is handled above.
                elem_addr_q <= elem_addr_q + (elem_stride_q << LB);
                j_q         <= j_next[15:0];
              end else begin
                for (int e = 0; e < LANES; e++) begin
                  if (grp_mask[e]) begin
                    blk_q[j_q[LD-1:0] + LD'(e)] <= q[e];
                  end
                end
                if (blk_end) begin
                  state_q <= StActWr;
                end else begin
                  j_q <= j_next[15:0];
                end
              end
            end
          end
          StActWr: begin
            // Not the segment's last block: that is handled above.
            act_blk_q <= act_blk_q + 1'b1;
            j_q       <= j_next[15:0];
            state_q   <= StP2;
          end
          StFlush: begin
            if (wr_idle) begin
              state_q <= StScale;
            end
          end
          StScale: begin
            if (wr_idle) begin
              if (scnt_q == sidx_q) begin
                if (last_row) begin
                  state_q <= StDrain;
                end else begin
                  r_q         <= r_q + 16'd1;
                  j_q         <= '0;
                  seg_q       <= '0;
                  sidx_q      <= '0;
                  scnt_q      <= '0;
                  row_src_q   <= row_src_q + src_stride_q;
                  row_dst_q   <= row_dst_q + dst_stride_q;
                  elem_addr_q <= row_dst_q + dst_stride_q;
                  state_q     <= StP1;
                end
              end else begin
                scnt_q <= scnt_q + 1'b1;
                sptr_q <= sptr_q + 32'd4;
              end
            end
          end
          StDrain: begin
            if (wr_idle) begin
              state_q <= StIdle;
              done_q  <= 1'b1;
            end
          end
          default: begin
            state_q <= StIdle;
          end
        endcase
      end
    end
  end

  // The scales of the current QST row, written after its values.
  logic [31:0] sbuf_q [SBUF];
  logic        sbuf_we;
  logic [31:0] sbuf_wdata;
  always_ff @(posedge clk_i) begin
    if (sbuf_we) begin
      sbuf_q[sidx_q[SW-1:0]] <= sbuf_wdata;
    end
  end

  ////////////////////////
  // Group bookkeeping  //
  ////////////////////////

  // The segment is [seg, seg_end); the group [j, j + grp_cnt).
  logic [16:0] seg_end, j_next;
  logic        last_grp, last_row, last_seg, blk_end;
  logic [LB:0] grp_cnt;
  assign seg_end  = perrow_q ? {1'b0, n_q} : {1'b0, seg_q} + 17'(D);
  assign j_next   = {1'b0, j_q} + 17'(LANES);
  assign last_grp = (j_next >= seg_end);
  assign grp_cnt  = last_grp ? (LB + 1)'(seg_end - {1'b0, j_q}) : (LB + 1)'(LANES);
  assign last_seg = (seg_end >= {1'b0, n_q});
  assign last_row = ({1'b0, r_q} + 17'd1 == {1'b0, rows_q});
  assign blk_end  = (j_next[LD-1:0] == '0) || last_grp;

  logic [LANES-1:0] grp_mask;
  for (genvar e = 0; e < LANES; e++) begin : gen_grp_mask
    assign grp_mask[e] = (e < grp_cnt);
  end

  //////////
  // TMEM //
  //////////

  // The group's elements, through the lanes of their banks (otpu_tm_lanes).
  logic          wr_idle;
  logic [AW-1:0] req_base;
  assign req_base = row_src_q + AW'(j_q);
  assign tm_req_o = (state_q == StP1) || (state_q == StP2 && (!qst_q || wr_idle));
  assign tm_we_o  = 1'b0;

  logic                   granted;
  logic [LANES-1:0][31:0] rd_elem;
  assign granted    = tm_req_o && tm_gnt_i;
  assign tm_wdata_o = '0;
  otpu_tm_lanes #(
    .LANES(LANES),
    .AW   (AW)
  ) u_lanes (
    .req_i  (tm_req_o),
    .base_i (req_base),
    .cnt_i  (grp_cnt),
    .mask_o (tm_mask_o),
    .addr_o (tm_addr_o),
    .rd_i   (granted),
    .rdata_i(tm_rdata_i),
    .elem_o (rd_elem)
  );

  //////////////
  // Datapath //
  //////////////

  // Pass 1: |x| after the flush, a NaN counting as +inf; positive floats order as integers.
  // Only in a granted pass-1 cycle, the one that uses it (docs/rtl.md "Simulation speed").
  logic [31:0] grp_amax;
  always_comb begin
    logic [31:0] mag;
    mag      = '0;
    grp_amax = amax_q;
    if (state_q == StP1 && granted) begin
      for (int e = 0; e < LANES; e++) begin
        mag = {1'b0, rd_elem[e][30:0]};
        if (mag[30:23] == 8'd0) begin
          mag = 32'd0;
        end else if (mag[30:23] == 8'hFF && mag[22:0] != 23'd0) begin
          mag = 32'h7F80_0000;
        end
        if (grp_mask[e] && mag > grp_amax) begin
          grp_amax = mag;
        end
      end
    end
  end

  // Pass 2: the segment's constants and the group's values.
  logic [31:0] inv, scale;
  // Used in pass 2 (inv, the scale into the scale buffer) and by the ACT RAM write (scale).
  otpu_quant_scale u_scale (
    .inv_en_i  (state_q == StP2),
    .scale_en_i(state_q == StP2 || state_q == StActWr),
    .amax_i    (amax_q),
    .inv_o     (inv),
    .scale_o   (scale)
  );

  // The group's int8 values (otpu_fp_quant's function), computed in a granted pass-2 cycle
  // only, the one that uses them.
  logic [LANES-1:0][7:0] q;
  always_comb begin
    q = '0;
    if (state_q == StP2 && granted) begin
      for (int e = 0; e < LANES; e++) begin
        q[e] = fp_quant(rd_elem[e], inv);
      end
    end
  end

  // QST: the group goes to the port-A writer as it is read.
  logic load, flush, word;
  otpu_quant_wr #(
    .LANES(LANES)
  ) u_wr (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .load_i     (load),
    .bytes_i    (q),
    .count_i    (grp_cnt),
    .addr_i     (elem_addr_q),
    .stride_i   (elem_stride_q),
    .flush_i    (flush),
    .word_i     (word),
    .word_addr_i(sptr_q),
    .word_data_i(sbuf_q[scnt_q[SW-1:0]]),
    .idle_o     (wr_idle),
    .a_valid_o  (a_valid_o),
    .a_ready_i  (a_ready_i),
    .a_we_o     (a_we_o),
    .a_addr_o   (a_addr_o),
    .a_wdata_o  (a_wdata_o),
    .a_be_o     (a_be_o),
    .a_tag_o    (a_tag_o)
  );

  assign act_we_o    = (state_q == StActWr);
  assign act_row_o   = act_row_q;
  assign act_block_o = act_blk_q;
  assign act_data_o  = blk_q;
  assign act_scale_o = scale;

  /////////////
  // Control //
  /////////////

  assign issue_ready_o = (state_q == StIdle);

  // The control's strobes, apart from its next state (which the always_ff below writes).
  assign load       = state_q == StP2 && granted && qst_q;
  assign sbuf_we    = state_q == StP2 && granted && last_grp && qst_q;
  assign sbuf_wdata = scale;
  assign flush      = state_q == StFlush && wr_idle;
  assign word       = state_q == StScale && wr_idle && scnt_q != sidx_q;

  ////////////////
  // Completion //
  ////////////////

  assign done_o      = done_q;
  assign done_slot_o = slot_q;
  assign done_cnt_o  = {96'd0, frz_q};

endmodule : otpu_quant
