// Legality of a resolved unit instruction: the checks of sim/isa/checks.cc, in the same order,
// on the effective operands (w1..w3 hold e1..e3). Combinational. The first failing check
// names the cause; the sequencer raises ERROR at this pc instead of dispatching. Checked only
// while en_i (ERR_NONE otherwise): the sequencer checks an instruction in the first cycle it
// holds it and keeps the answer while it waits (docs/rtl.md "Simulation speed").
module otpu_seq_check
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned     D          = 32,
  parameter int unsigned     ACT_BLOCKS = 128,
  parameter int unsigned     ACT_ROWS   = 16,
  parameter int unsigned     TMEM_WORDS = 65536,
  parameter longint unsigned DRAM_BYTES = 64'd1 << 30
) (
  input  logic               en_i,
  input  logic [INSTR_W-1:0] instr_i,
  output err_e               cause_o     // ERR_NONE: legal
);

  localparam int unsigned LogD = $clog2(D);

  logic [31:0] w[8];
  for (genvar i = 0; i < 8; i++) begin : gen_words
    assign w[i] = instr_i[32*i +: 32];
  end

  logic [7:0] opcode, flags;
  assign opcode = w[0][7:0];
  assign flags  = w[0][31:24];

  logic [3:0] unused_flags;
  assign unused_flags = flags[7:4];

  // A range check: true when the rows [base + r*stride, + len) lie inside [0, size).
  function automatic logic fits(logic [31:0] base, logic [31:0] count, logic [31:0] stride,
                                logic [47:0] len, longint unsigned size);
    return range_end(base, count, stride, len) <= 66'(size);
  endfunction

  function automatic logic misaligned_d(logic [31:0] v);
    logic [31:0] low;
    low = v & 32'(D - 1);
    return low != '0;
  endfunction

  ///////////////
  // LD and ST //
  ///////////////

  err_e dma_cause;
  always_comb begin
    dma_cause = ERR_NONE;
    if (en_i && (opcode == OP_LD || opcode == OP_ST)) begin  // only its own checks run
      if (w[4] == '0 || w[5] == '0) begin
        dma_cause = ERR_ZERO;
      end else if (w[2][1:0] != 2'd0 || w[6][1:0] != 2'd0) begin
        dma_cause = ERR_ALIGN;
      end else if (!fits(w[1], w[5], w[7], 48'(w[4]), longint'(TMEM_WORDS))) begin
        dma_cause = ERR_TMEM;
      end else if (!fits(w[2], w[5], w[6], {14'd0, w[4], 2'b00}, DRAM_BYTES)) begin
        dma_cause = ERR_DRAM;
      end
    end
  end

  ////////
  // MM //
  ////////

  logic [31:0] mm_n, mm_k, mm_m, mm_row, mm_blk, mm_blocks, mm_row_bytes;
  logic        mm_4bit, mm_unit;
  assign mm_n         = w[4];
  assign mm_k         = {16'd0, w[5][15:0]};
  assign mm_m         = {24'd0, w[5][23:16]};
  assign mm_row       = {24'd0, w[5][31:24]};
  assign mm_blk       = {16'd0, w[7][31:16]};
  assign mm_blocks    = mm_k >> LogD;
  assign mm_4bit      = flags[3:2] != 2'd0;
  assign mm_unit      = flags[1];
  assign mm_row_bytes = mm_4bit ? mm_k >> 1 : mm_k;

  err_e mm_cause;
  always_comb begin
    mm_cause = ERR_NONE;
    if (en_i && opcode == OP_MM) begin  // only the instruction's own checks run
      if (flags[3:2] == 2'd3) begin
        mm_cause = ERR_WF;
      end else if (mm_n == '0 || mm_k == '0 || mm_m == '0) begin
        mm_cause = ERR_ZERO;
      end else if (misaligned_d(mm_k) || (mm_4bit && mm_k[LogD] != 1'b0)) begin
        mm_cause = ERR_MULTIPLE;
      end else if (mm_row + mm_m > 32'(ACT_ROWS) || mm_blk + mm_blocks > 32'(ACT_BLOCKS)) begin
        mm_cause = ERR_ACT;
      end else if (misaligned_d(w[2])) begin
        mm_cause = ERR_ALIGN;
      end else if (misaligned_d(w[6])) begin
        mm_cause = ERR_MULTIPLE;
      end else if (w[6] < mm_row_bytes) begin
        mm_cause = ERR_STRIDE;
      end else if (!mm_unit && w[3][1:0] != 2'd0) begin
        mm_cause = ERR_ALIGN;
      end else if (!fits(w[1], mm_m, {16'd0, w[7][15:0]}, 48'(mm_n), longint'(TMEM_WORDS))) begin
        mm_cause = ERR_TMEM;
      end else if (!fits(w[2], mm_n, w[6], 48'(mm_row_bytes), DRAM_BYTES) ||
                   (!mm_unit && !fits(w[3], 32'd1, 32'd0,
                                      {14'd0, mm_n, 2'b00} * 48'(mm_blocks), DRAM_BYTES))) begin
        mm_cause = ERR_DRAM;
      end
    end
  end

  //////////
  // QACT //
  //////////

  logic [31:0] q_n, q_rows, qa_row, qa_blk;
  assign q_n    = {16'd0, w[4][15:0]};
  assign q_rows = {16'd0, w[4][31:16]};
  assign qa_row = {24'd0, w[6][7:0]};
  assign qa_blk = {16'd0, w[6][23:8]};

  err_e qact_cause;
  always_comb begin
    qact_cause = ERR_NONE;
    if (en_i && opcode == OP_QACT) begin  // only the instruction's own checks run
      if (q_n == '0 || q_rows == '0) begin
        qact_cause = ERR_ZERO;
      end else if (misaligned_d(q_n)) begin
        qact_cause = ERR_MULTIPLE;
      end else if (qa_row + q_rows > 32'(ACT_ROWS) ||
                   qa_blk + (q_n >> LogD) > 32'(ACT_BLOCKS)) begin
        qact_cause = ERR_ACT;
      end else if (!fits(w[1], q_rows, w[5], 48'(q_n), longint'(TMEM_WORDS))) begin
        qact_cause = ERR_TMEM;
      end
    end
  end

  /////////
  // QST //
  /////////

  logic        q_perrow;
  logic [31:0] qs_scales;
  assign q_perrow  = flags[0];
  assign qs_scales = q_perrow ? 32'd1 : q_n >> LogD;

  err_e qst_cause;
  always_comb begin
    qst_cause = ERR_NONE;
    if (en_i && opcode == OP_QST) begin  // only the instruction's own checks run
      if (q_n == '0 || q_rows == '0) begin
        qst_cause = ERR_ZERO;
      end else if (!q_perrow && misaligned_d(q_n)) begin
        qst_cause = ERR_MULTIPLE;
      end else if (w[6] == '0) begin
        qst_cause = ERR_ZERO;
      end else if (w[3][1:0] != 2'd0) begin
        qst_cause = ERR_ALIGN;
      end else if (!fits(w[1], q_rows, w[5], 48'(q_n), longint'(TMEM_WORDS))) begin
        qst_cause = ERR_TMEM;
      end else if (!fits(w[2], q_rows, w[7], {16'd0, q_n - 32'd1} * 48'(w[6]) + 48'd1,
                         DRAM_BYTES) ||
                   !fits(w[3], 32'd1, 32'd0, {14'd0, q_rows, 2'b00} * 48'(qs_scales),
                         DRAM_BYTES)) begin
        qst_cause = ERR_DRAM;
      end
    end
  end

  /////////
  // VOP //
  /////////

  logic [7:0]  v_fn;
  logic [31:0] v_n, v_m, v_dst_stride, v_a_stride, v_b_stride;
  logic        v_reduce, v_reads_a, v_reads_b;
  assign v_fn         = w[4][7:0];
  assign v_n          = {16'd0, w[5][15:0]};
  assign v_m          = {16'd0, w[5][31:16]};
  assign v_dst_stride = {16'd0, w[6][15:0]};
  assign v_a_stride   = {16'd0, w[6][31:16]};
  assign v_b_stride   = {16'd0, w[4][31:16]};
  assign v_reduce     = v_fn == VOP_RSUM || v_fn == VOP_RMAX || v_fn == VOP_RSSQ;
  assign v_reads_a    = v_fn != VOP_FILL;
  assign v_reads_b    = v_fn != VOP_COPY && !v_reduce && !flags[2];

  // The B operand's range by BMODE: rows, stride and row length.
  logic [31:0] vb_rows, vb_stride, vb_len;
  always_comb begin
    case (flags[1:0])
      BMODE_FULL: begin
        vb_rows = v_m;  vb_stride = v_b_stride;  vb_len = v_n;
      end
      BMODE_ROW: begin
        vb_rows = v_m;  vb_stride = v_b_stride;  vb_len = 32'd1;
      end
      BMODE_COL: begin
        vb_rows = 32'd1;  vb_stride = 32'd0;  vb_len = v_n;
      end
      default: begin  // BMODE_SCALAR
        vb_rows = 32'd1;  vb_stride = 32'd0;  vb_len = 32'd1;
      end
    endcase
  end

  err_e vop_cause;
  always_comb begin
    vop_cause = ERR_NONE;
    if (en_i && opcode == OP_VOP) begin  // only the instruction's own checks run
      if (v_fn > VOP_SCALE) begin
        vop_cause = ERR_VOP_FN;
      end else if (v_n == '0 || v_m == '0) begin
        vop_cause = ERR_ZERO;
      end else if (!fits(w[1], v_m, v_dst_stride, v_reduce ? 48'd1 : 48'(v_n),
                         longint'(TMEM_WORDS)) ||
                   (v_reads_a && !fits(w[2], v_m, v_a_stride, 48'(v_n), longint'(TMEM_WORDS))) ||
                   (v_reads_b && !fits(w[3], vb_rows, vb_stride, 48'(vb_len),
                                       longint'(TMEM_WORDS)))) begin
        vop_cause = ERR_TMEM;
      end
    end
  end

  ////////////
  // Output //
  ////////////

  always_comb begin
    case (opcode)
      OP_LD, OP_ST: cause_o = dma_cause;
      OP_MM:        cause_o = mm_cause;
      OP_QACT:      cause_o = qact_cause;
      OP_QST:       cause_o = qst_cause;
      OP_VOP:       cause_o = vop_cause;
      default:      cause_o = ERR_NONE;
    endcase
  end

endmodule : otpu_seq_check
