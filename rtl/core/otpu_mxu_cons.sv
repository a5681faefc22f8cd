// The MXU's consumer (docs/rtl-core.md "MXU"): takes the streamed MM when the sequencer
// releases it, then consumes one weight chunk a cycle in the streamer's order (per pass, per W
// row j, per chunk), MCOLS columns at once, column c accumulating out[pass*MCOLS + c][j]
// (otpu_mxu_col) from ACT RAM row act_row + pass*MCOLS + c. A row starts from +0, or with ACC
// from the preloaded old value; its last chunk hands the results to the drain.
// Paired chunks: an int8 MM with m <= MCOLS/2 leaves the upper half of the columns idle, so
// they take the row's next chunk in the same cycle (column HALF + r continues column r's
// accumulator, (acc + t_b) + t_b+1 as the ISA adds them): two chunks a cycle whenever both are
// in, so the weight FIFO drains while the consumer waits for no DRAM, and has room to refill
// during the consumer's waits for a release (docs/rtl-core.md "MXU").
module otpu_mxu_cons
  import otpu_core_pkg::*;
#(
  parameter int unsigned D          = 32,
  parameter int unsigned MCOLS      = 8,
  parameter int unsigned ACT_BLOCKS = 128,
  parameter int unsigned ACT_ROWS   = 16,
  parameter int unsigned TMEM_WORDS = 65536
) (
  input  logic                                         clk_i,
  input  logic                                         rst_ni,
  // the streamed MM and its release
  input  logic                                         q_valid_i,
  input  logic [3:0]                                   q_slot_i,
  input  logic [INSTR_W-1:0]                           q_instr_i,
  input  logic                                         release_i,
  output logic                                         release_ack_o,
  // FIFO heads
  input  logic                                         w_valid_i,
  input  logic [D*8-1:0]                               w_data_i,
  input  logic                                         w2_valid_i,   // the chunk after it
  input  logic [D*8-1:0]                               w2_data_i,
  input  logic                                         s_valid_i,
  input  logic [31:0]                                  s_data_i,
  input  logic                                         s2_valid_i,
  input  logic [31:0]                                  s2_data_i,
  output logic [1:0]                                   w_pop_o,
  output logic [1:0]                                   s_pop_o,
  // ACT RAM: blocks b and b+1 of column c's row act_rd_row_o + c, while act_rd_en_o[c]
  output logic [MCOLS-1:0]                             act_rd_en_o,
  output logic [$clog2(ACT_ROWS)-1:0]                  act_rd_row_o,
  output logic [$clog2(ACT_BLOCKS)-1:0]                act_rd_block_o,
  input  logic [MCOLS-1:0][1:0][D*8-1:0]               act_rd_data_i,
  input  logic [MCOLS-1:0][1:0][31:0]                  act_rd_scale_i,
  // preload
  output logic                                         pl_start_o,
  output logic [$clog2(TMEM_WORDS)-1:0]                pl_base_o,
  output logic [15:0]                                  pl_stride_o,
  output logic [31:0]                                  pl_n_o,
  output logic [7:0]                                   pl_m_o,
  output logic                                         pl_strict_o,
  input  logic                                         pl_valid_i,
  input  logic [MCOLS-1:0][31:0]                       pl_data_i,
  output logic                                         pl_take_o,
  // drain
  output logic                                         dr_push_o,
  input  logic                                         dr_ready_i,
  output logic [MCOLS-1:0][31:0]                       dr_data_o,
  output logic [$clog2(TMEM_WORDS)-1:0]                dr_base_o,
  output logic [15:0]                                  dr_stride_o,
  output logic [MCOLS-1:0]                             dr_cols_o,
  output logic [3:0]                                   dr_slot_o,
  output logic                                         dr_last_o,
  // status
  output logic                                         busy_o,
  output logic [3:0]                                   slot_o,
  output logic                                         starve_o,   // waiting for a chunk
  output logic                                         stall_tm_o  // waiting for drain/preload
);

  localparam int unsigned AW = $clog2(TMEM_WORDS);
  localparam int unsigned LD = $clog2(D);
  localparam int unsigned LM = $clog2(MCOLS);
  localparam int unsigned RW = $clog2(ACT_ROWS);
  localparam int unsigned BW = $clog2(ACT_BLOCKS);
  localparam int unsigned HALF = MCOLS / 2;  // columns of the first chunk of a pair

  ////////////
  // Decode //
  ////////////

  logic [31:0] w1, w4, w5, w7;
  logic [7:0]  flags;
  assign flags = q_instr_i[31:24];
  assign w1    = q_instr_i[63:32];
  assign w4    = q_instr_i[159:128];
  assign w5    = q_instr_i[191:160];
  assign w7    = q_instr_i[255:224];

  logic unused_instr;
  assign unused_instr = ^{q_instr_i[23:0], q_instr_i[127:64], q_instr_i[223:192], flags[7:4],
                          w1[31:AW], w5[31:24+RW], w7[31:16+BW]};

  ///////////
  // State //
  ///////////

  logic                   act_q;
  logic [3:0]             slot_q;
  logic                   accf_q, unit_q, four_q, fp4_q;
  logic                   pairs_q;       // int8 and m <= HALF: two chunks a cycle
  logic [AW-1:0]          obase_q;       // out[pass*MCOLS][0]
  logic [15:0]            os_q;
  logic [31:0]            n_q, j_q;
  logic [7:0]             m_q;
  logic [4:0]             passes_q, p_q;
  logic [15:0]            chunks_q, c_q;
  logic [RW-1:0]          arow_q;         // ACT RAM row of column 0
  logic [BW-1:0]          blk0_q, blk_q;
  logic [MCOLS-1:0][31:0] accv_q;
  logic [MCOLS-1:0]       cols_q;        // the columns holding a row in this pass

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      act_q    <= 1'b0;
      slot_q   <= '0;
      accf_q   <= 1'b0;
      unit_q   <= 1'b0;
      four_q   <= 1'b0;
      fp4_q    <= 1'b0;
      pairs_q  <= 1'b0;
      obase_q  <= '0;
      os_q     <= '0;
      n_q      <= '0;
      j_q      <= '0;
      m_q      <= '0;
      passes_q <= '0;
      p_q      <= '0;
      chunks_q <= '0;
      c_q      <= '0;
      arow_q   <= '0;
      blk0_q   <= '0;
      blk_q    <= '0;
      accv_q   <= '0;
      cols_q   <= '0;
    end else begin

      if (release_ack_o) begin
        act_q    <= 1'b1;
        slot_q   <= q_slot_i;
        accf_q   <= flags[0];
        unit_q   <= flags[1];
        four_q   <= (flags[3:2] != 2'd0);
        fp4_q    <= (flags[3:2] == 2'd2);
        pairs_q  <= (flags[3:2] == 2'd0) && (9'(w5[23:16]) <= 9'(HALF));
        obase_q  <= w1[AW-1:0];
        os_q     <= w7[15:0];
        n_q      <= w4;
        m_q      <= w5[23:16];
        passes_q <= 5'((9'(w5[23:16]) + 9'(MCOLS) - 9'd1) >> LM);
        chunks_q <= (flags[3:2] != 2'd0) ? 16'(w5[15:0] >> (LD + 1)) : 16'(w5[15:0] >> LD);
        j_q      <= '0;
        p_q      <= '0;
        c_q      <= '0;
        arow_q   <= w5[24 +: RW];
        blk0_q   <= w7[16 +: BW];
        blk_q    <= w7[16 +: BW];
        cols_q   <= MCOLS'(mxu_pass_cols(w5[23:16], 5'd0, MCOLS));
      end

      if (go) begin
        accv_q <= row_acc;
        if (!row_end) begin
          c_q   <= c_q + (pair ? 16'd2 : 16'd1);
          blk_q <= blk_q + ((four_q || pair) ? BW'(2) : BW'(1));
        end else begin
          c_q   <= '0;
          blk_q <= blk0_q;
          if (j_q + 32'd1 < n_q) begin
            j_q <= j_q + 32'd1;
          end else if (p_q + 5'd1 < passes_q) begin
            j_q     <= '0;
            p_q     <= p_q + 5'd1;
            obase_q <= obase_q + AW'(MCOLS * os_q);
            arow_q  <= arow_q + RW'(MCOLS);
            cols_q  <= MCOLS'(mxu_pass_cols(m_q, p_q + 5'd1, MCOLS));
          end else begin
            act_q <= 1'b0;
          end
        end
      end
    end
  end

  /////////////
  // Columns //
  /////////////

  logic first, last, last_row, pair, last_pair, row_end;
  assign first    = (c_q == '0);
  assign last     = (c_q + 16'd1 == chunks_q);
  assign last_row = (j_q + 32'd1 == n_q) && (p_q + 5'd1 == passes_q);
  // This cycle takes chunks c and c+1 of the row: both in (with their scales) and in the row.
  assign pair      = pairs_q && !last && w2_valid_i && (unit_q || s2_valid_i);
  assign last_pair = (c_q + 16'd2 == chunks_q);
  assign row_end   = pair ? last_pair : last;

  assign act_rd_block_o = blk_q;
  assign act_rd_row_o   = arow_q;
  assign act_rd_en_o    = act_q ? cols_q : '0;

  logic [MCOLS-1:0][31:0] col_acc;
  for (genvar c = 0; c < MCOLS; c++) begin : gen_col
    // Paired, column c >= HALF takes chunk c+1 (block b+1, scale s2) for row c - HALF and
    // continues that row's column: it reads what column c - HALF reads (its row's block b+1),
    // and it is computed only in a cycle that takes a pair. A column that holds no row is not
    // computed at all: its result is never drained (decode MMs have m = 1).
    logic        en, second;
    logic [31:0] acc_in, acc_own;
    assign acc_own = !first ? accv_q[c] : (accf_q ? pl_data_i[c] : 32'd0);
    if (c >= int'(HALF)) begin : gen_second
      assign second = pairs_q;
      assign en     = go && (pairs_q ? (pair && cols_q[c-int'(HALF)]) : cols_q[c]);
      assign acc_in = second ? col_acc[c-int'(HALF)] : acc_own;
    end else begin : gen_first
      assign second = 1'b0;
      assign en     = go && cols_q[c];
      assign acc_in = acc_own;
    end
    localparam int unsigned Pair = (c >= int'(HALF)) ? c - HALF : c;  // the row's first column

    otpu_mxu_col #(
      .D(D)
    ) u_col (
      .en_i      (en),
      .second_i  (second),
      .w_i       (w_data_i),
      .w2_i      (w2_data_i),
      .act_i     (act_rd_data_i[c]),
      .sa_i      (act_rd_scale_i[c]),
      .act_pair_i(act_rd_data_i[Pair][1]),
      .sa_pair_i (act_rd_scale_i[Pair][1]),
      .s_i       (s_data_i),
      .s2_i      (s2_data_i),
      .unit_i    (unit_q),
      .four_bit_i(four_q),
      .fp4_i     (fp4_q),
      .acc_i     (acc_in),
      .acc_o     (col_acc[c])
    );
  end

  /////////////
  // Control //
  /////////////

  logic data_ok, go;
  assign data_ok = w_valid_i && (unit_q || (s_valid_i && (!four_q || s2_valid_i)));
  assign go      = act_q && data_ok && (!first || !accf_q || pl_valid_i) &&
                   (!row_end || dr_ready_i);

  assign release_ack_o = release_i && q_valid_i && !act_q;
  assign pl_start_o    = release_ack_o && flags[0];
  assign pl_base_o     = w1[AW-1:0];
  assign pl_stride_o   = w7[15:0];
  assign pl_n_o        = w4;
  assign pl_m_o        = w5[23:16];
  assign pl_strict_o   = (w5[23:16] > 8'd1) && ({16'd0, w7[15:0]} < w4);
  assign pl_take_o     = go && first && accf_q;

  // The row's accumulators: column r, or paired its continuation in column HALF + r.
  logic [MCOLS-1:0][31:0] row_acc;
  always_comb begin
    row_acc = col_acc;
    if (pair) begin
      for (int r = 0; r < int'(HALF); r++) begin
        row_acc[r] = col_acc[r+int'(HALF)];
      end
    end
  end

  assign w_pop_o     = !go ? 2'd0 : (pair ? 2'd2 : 2'd1);
  assign s_pop_o     = (!go || unit_q) ? 2'd0 : ((four_q || pair) ? 2'd2 : 2'd1);
  assign dr_push_o   = go && row_end;
  assign dr_data_o   = row_acc;
  assign dr_base_o   = obase_q + AW'(j_q);
  assign dr_stride_o = os_q;
  assign dr_slot_o   = slot_q;
  assign dr_last_o   = last_row;
  assign dr_cols_o   = cols_q;

  assign busy_o     = act_q;
  assign slot_o     = slot_q;
  assign starve_o   = act_q && !data_ok;
  assign stall_tm_o = act_q && data_ok && !go;

endmodule : otpu_mxu_cons
