// The DMA's walk over an LD/ST: rows of n words, each row split at D-byte chunk boundaries
// and, within a chunk, into steps of at most GroupBytes (docs/isa.md: row r covers DRAM bytes
// [e2 + r*w6, + 4n) and TMEM words from e1 + r*w7). The request side walks whole chunks
// (GroupBytes = D), the data side groups of LANES words. One step a cycle when adv_i.
module otpu_dma_walk #(
  parameter int unsigned D          = 32,
  parameter int unsigned GroupBytes = 32
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,        // load a new instruction's walk
  input  logic [31:0] dram_i,         // e2: DRAM byte address of row 0 (4-byte aligned)
  input  logic [31:0] tmem_i,         // e1: TMEM word address of row 0
  input  logic [31:0] n_i,            // words per row
  input  logic [31:0] rows_i,
  input  logic [31:0] dstride_i,      // bytes
  input  logic [31:0] tstride_i,      // words
  input  logic        adv_i,          // the current step is done
  output logic        active_o,       // a step is pending
  output logic [32:0] chunk_o,        // its chunk's DRAM address
  output logic [32:0] pos_o,          // its first byte
  output logic [31:0] tmem_o,         // TMEM word address of that byte
  output logic [31:0] words_o,        // words in the step
  output logic        chunk_last_o,   // the step ends the row's part of the chunk
  output logic        last_o          // the step is the walk's last
);

  logic        active_q;
  logic [31:0] rows_left_q;  // rows after the current one
  logic [32:0] row_q;              // current row's first byte
  logic [32:0] pos_q;              // current step's first byte
  logic [31:0] trow_q;            // current row's TMEM start
  logic [32:0] nbytes_q;
  logic [31:0] dstride_q, tstride_q;

  logic [32:0] row_end, chunk_end, group_end, step_end;
  assign row_end   = row_q + nbytes_q;
  assign chunk_o   = {pos_q[32:$clog2(D)], {$clog2(D){1'b0}}};
  assign chunk_end = chunk_o + 33'(D);
  assign group_end = pos_q + 33'(GroupBytes);

  always_comb begin
    step_end = group_end;
    if (chunk_end < step_end) begin
      step_end = chunk_end;
    end
    if (row_end < step_end) begin
      step_end = row_end;
    end
  end

  logic [32:0] row_off, step_bytes;
  assign row_off      = pos_q - row_q;
  assign step_bytes   = step_end - pos_q;
  assign pos_o        = pos_q;
  assign tmem_o       = trow_q + {1'b0, row_off[32:2]};
  assign words_o      = {1'b0, step_bytes[32:2]};
  assign chunk_last_o = step_end == chunk_end || step_end == row_end;
  assign last_o       = step_end == row_end && rows_left_q == '0;
  assign active_o     = active_q;

  // Both are multiples of 4 bytes.
  logic [3:0] unused_word_offsets;
  assign unused_word_offsets = {row_off[1:0], step_bytes[1:0]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      active_q    <= 1'b0;
      rows_left_q <= '0;
      row_q       <= '0;
      pos_q       <= '0;
      trow_q      <= '0;
      nbytes_q    <= '0;
      dstride_q   <= '0;
      tstride_q   <= '0;
    end else begin
      if (start_i) begin
        active_q    <= 1'b1;
        rows_left_q <= rows_i - 32'd1;
        row_q       <= {1'b0, dram_i};
        pos_q       <= {1'b0, dram_i};
        trow_q      <= tmem_i;
        nbytes_q    <= 33'({n_i, 2'b00});  // legal: 4n <= DRAM bytes <= 2^32
        dstride_q   <= dstride_i;
        tstride_q   <= tstride_i;
      end else if (active_q && adv_i) begin
        if (step_end != row_end) begin
          pos_q <= step_end;
        end else if (rows_left_q != '0) begin
          rows_left_q <= rows_left_q - 32'd1;
          row_q       <= row_q + {1'b0, dstride_q};
          pos_q       <= row_q + {1'b0, dstride_q};
          trow_q      <= trow_q + tstride_q;
        end else begin
          active_q <= 1'b0;
        end
      end
    end
  end

endmodule : otpu_dma_walk
