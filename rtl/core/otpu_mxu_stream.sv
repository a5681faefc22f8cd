// The MXU's streamer (docs/rtl-core.md "MXU"): takes an MM when the sequencer issues it (its
// DRAM dependencies are clear) and requests its weight chunks on port B and its block scales
// on port A, in consumption order (per pass, per W row, per chunk / block), each request
// allocating a slot of the weight or scale FIFO whose index is the request's tag. The taken
// MM waits in a one-entry queue for the consumer; a new MM is taken only when the previous
// one is fully requested and the queue is empty, so the streamer runs at most one MM ahead.
module otpu_mxu_stream
  import otpu_core_pkg::*;
#(
  parameter int unsigned D      = 32,
  parameter int unsigned MCOLS  = 8,
  parameter int unsigned WTAG_W = 7,     // weight FIFO slot bits
  parameter int unsigned STAG_W = 8      // scale FIFO slot bits
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  // issue
  input  logic                 issue_valid_i,
  output logic                 issue_ready_o,
  input  logic [3:0]           issue_slot_i,
  input  logic [INSTR_W-1:0]   issue_instr_i,
  // the queue towards the consumer
  output logic                 q_valid_o,
  output logic [3:0]           q_slot_o,
  output logic [INSTR_W-1:0]   q_instr_o,
  input  logic                 q_take_i,
  // port B reads (weight chunks)
  output logic                 b_rd_valid_o,
  input  logic                 b_rd_ready_i,
  output logic [31:0]          b_rd_addr_o,
  output logic [TAG_W-1:0]     b_rd_tag_o,
  input  logic [WTAG_W-1:0]    wtag_i,          // the weight FIFO's next slot
  input  logic                 wfull_i,
  // port A reads (weight scales)
  output logic                 a_valid_o,
  input  logic                 a_ready_i,
  output logic [31:0]          a_addr_o,
  output logic [TAG_W-1:0]     a_tag_o,
  input  logic [STAG_W-1:0]    stag_i,          // the scale FIFO's next slot
  input  logic                 sfull_i,
  // status
  output logic                 busy_o,          // requests of the current MM outstanding
  output logic [3:0]           slot_o,          // the MM being requested
  output logic                 bp_o             // a chunk to request, the weight FIFO full
);

  localparam int unsigned LD = $clog2(D);
  localparam int unsigned LM = $clog2(MCOLS);

  ////////////
  // Decode //
  ////////////

  logic [31:0] w2, w3, w4, w5, w6;
  logic [7:0]  flags;
  logic [15:0] k;
  logic [7:0]  m;
  logic        unit, four_bit;
  assign flags    = issue_instr_i[31:24];
  assign w2       = issue_instr_i[95:64];
  assign w3       = issue_instr_i[127:96];
  assign w4       = issue_instr_i[159:128];
  assign w5       = issue_instr_i[191:160];
  assign w6       = issue_instr_i[223:192];
  assign k        = w5[15:0];
  assign m        = w5[23:16];
  assign unit     = flags[1];
  assign four_bit = (flags[3:2] != 2'd0);

  ///////////
  // State //
  ///////////

  // Next state is written in the always_ff below (once a cycle), not as _d signals that the
  // simulator settles on every evaluation (docs/rtl.md "Simulation speed").
  logic                wbusy_q, sbusy_q;
  logic [3:0]          slot_q;
  logic                q_valid_q;
  logic [3:0]          q_slot_q;
  logic [INSTR_W-1:0]  q_instr_q;
  logic [31:0]         wbase_q, wstride_q, wrow_q, waddr_q;
  logic [31:0]         n_q, wj_q, sj_q, sper_q;
  logic [15:0]         chunks_q, wc_q;
  logic [4:0]          passes_q, wp_q, sp_q;
  logic [31:0]         sbase_q, saddr_q;

  /////////////
  // Outputs //
  /////////////

  assign issue_ready_o = !wbusy_q && !sbusy_q && !q_valid_q;
  assign q_valid_o     = q_valid_q;
  assign q_slot_o      = q_slot_q;
  assign q_instr_o     = q_instr_q;
  assign busy_o        = wbusy_q || sbusy_q;
  assign slot_o        = slot_q;
  assign bp_o          = wbusy_q && wfull_i;

  assign b_rd_valid_o = wbusy_q && !wfull_i;
  assign b_rd_addr_o  = waddr_q;
  assign b_rd_tag_o   = TAG_W'(wtag_i);
  assign a_valid_o    = sbusy_q && !sfull_i;
  assign a_addr_o     = saddr_q;
  assign a_tag_o      = TAG_W'(stag_i);

  logic w_acc, s_acc;
  assign w_acc = b_rd_valid_o && b_rd_ready_i;
  assign s_acc = a_valid_o && a_ready_i;

  /////////////
  // Control //
  /////////////

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbusy_q   <= 1'b0;
      sbusy_q   <= 1'b0;
      slot_q    <= '0;
      q_valid_q <= 1'b0;
      q_slot_q  <= '0;
      q_instr_q <= '0;
      wbase_q   <= '0;
      wstride_q <= '0;
      wrow_q    <= '0;
      waddr_q   <= '0;
      n_q       <= '0;
      wj_q      <= '0;
      sj_q      <= '0;
      sper_q    <= '0;
      chunks_q  <= '0;
      wc_q      <= '0;
      passes_q  <= '0;
      wp_q      <= '0;
      sp_q      <= '0;
      sbase_q   <= '0;
      saddr_q   <= '0;
    end else begin
      if (q_take_i) begin
        q_valid_q <= 1'b0;
      end

      if (issue_valid_i && issue_ready_o) begin
        slot_q    <= issue_slot_i;
        q_valid_q <= 1'b1;
        q_slot_q  <= issue_slot_i;
        q_instr_q <= issue_instr_i;
        wbusy_q   <= 1'b1;
        sbusy_q   <= !unit;
        wbase_q   <= w2;
        wrow_q    <= w2;
        waddr_q   <= w2;
        wstride_q <= w6;
        n_q       <= w4;
        wj_q      <= '0;
        wc_q      <= '0;
        wp_q      <= '0;
        // A W row is k bytes (int8) or k/2 bytes (4-bit): that many D-byte chunks.
        chunks_q  <= four_bit ? 16'(k >> (LD + 1)) : 16'(k >> LD);
        passes_q  <= 5'((9'(m) + 9'(MCOLS) - 9'd1) >> LM);
        sbase_q   <= w3;
        saddr_q   <= w3;
        sj_q      <= '0;
        sp_q      <= '0;
        // Scales per pass: n rows of k/D blocks, contiguous from e3.
        sper_q    <= w4 * ({16'd0, k} >> LD);
      end

      // Weights: chunk wc of row wj of pass wp.
      if (w_acc) begin
        if (wc_q + 16'd1 < chunks_q) begin
          wc_q    <= wc_q + 16'd1;
          waddr_q <= waddr_q + 32'(D);
        end else if (wj_q + 32'd1 < n_q) begin
          wc_q    <= '0;
          wj_q    <= wj_q + 32'd1;
          wrow_q  <= wrow_q + wstride_q;
          waddr_q <= wrow_q + wstride_q;
        end else if (wp_q + 5'd1 < passes_q) begin
          wc_q    <= '0;
          wj_q    <= '0;
          wp_q    <= wp_q + 5'd1;
          wrow_q  <= wbase_q;
          waddr_q <= wbase_q;
        end else begin
          wbusy_q <= 1'b0;
        end
      end

      // Scales: index sj of pass sp, at sbase + 4 * sj.
      if (s_acc) begin
        if (sj_q + 32'd1 < sper_q) begin
          sj_q    <= sj_q + 32'd1;
          saddr_q <= saddr_q + 32'd4;
        end else if (sp_q + 5'd1 < passes_q) begin
          sj_q    <= '0;
          sp_q    <= sp_q + 5'd1;
          saddr_q <= sbase_q;
        end else begin
          sbusy_q <= 1'b0;
        end
      end
    end
  end

  logic unused_instr;
  assign unused_instr = ^{flags[7:4], flags[0], w5[31:24]};

endmodule : otpu_mxu_stream
