// Footprint of a resolved unit instruction (docs/rtl-core.md "Footprint"): the bounding
// interval of every TMEM, DRAM and ACT RAM range it reads or writes, `first + (rows - 1) *
// stride + row length` as docs/isa.md gives them. Combinational; meaningful only for an
// instruction that passed otpu_seq_check (its ranges then fit in 33 bits). Computed only while
// en_i (the instruction dispatches; fp_o is 0 otherwise): docs/rtl.md "Simulation speed".
module otpu_seq_fprint
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned D = 32
) (
  input  logic               en_i,
  input  logic [INSTR_W-1:0] instr_i,
  output fprint_t            fp_o
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

  // The interval [base, range_end) with its access kind.
  function automatic ival_t rows_ival(logic [31:0] base, logic [31:0] count,
                                      logic [31:0] stride, logic [47:0] len, logic wr);
    ival_t       r;
    logic [32:0] unused_above;
    {unused_above, r.hi} = range_end(base, count, stride, len);
    r.v  = 1'b1;
    r.wr = wr;
    r.lo = {1'b0, base};
    return r;
  endfunction

  // An ACT RAM rectangle side [lo, lo + len).
  function automatic ival_t span_ival(logic [31:0] lo, logic [31:0] len, logic wr);
    ival_t r;
    r.v  = 1'b1;
    r.wr = wr;
    r.lo = {1'b0, lo};
    r.hi = {1'b0, lo} + {1'b0, len};
    return r;
  endfunction

  // Fields (docs/isa.md) of the formats that need them.
  logic [31:0] mm_k, mm_m, mm_blocks, mm_row_bytes;
  assign mm_k         = {16'd0, w[5][15:0]};
  assign mm_m         = {24'd0, w[5][23:16]};
  assign mm_blocks    = mm_k >> LogD;
  assign mm_row_bytes = flags[3:2] != 2'd0 ? mm_k >> 1 : mm_k;

  logic [31:0] q_n, q_rows, qs_scales;
  assign q_n       = {16'd0, w[4][15:0]};
  assign q_rows    = {16'd0, w[4][31:16]};
  assign qs_scales = flags[0] ? 32'd1 : q_n >> LogD;

  logic [7:0]  v_fn;
  logic [31:0] v_n, v_m;
  logic        v_reduce;
  assign v_fn     = w[4][7:0];
  assign v_n      = {16'd0, w[5][15:0]};
  assign v_m      = {16'd0, w[5][31:16]};
  assign v_reduce = v_fn == VOP_RSUM || v_fn == VOP_RMAX || v_fn == VOP_RSSQ;

  always_comb begin
    fp_o = '0;
    if (en_i) begin
      case (opcode)
        OP_LD, OP_ST: begin
          fp_o.tm[0] = rows_ival(w[1], w[5], w[7], 48'(w[4]), opcode == OP_LD);
          fp_o.dr[0] = rows_ival(w[2], w[5], w[6], {14'd0, w[4], 2'b00}, opcode == OP_ST);
        end
        OP_MM: begin
          // ACC reads the outputs it writes: the write interval covers both.
          fp_o.tm[0] = rows_ival(w[1], mm_m, {16'd0, w[7][15:0]}, 48'(w[4]), 1'b1);
          fp_o.dr[0] = rows_ival(w[2], w[4], w[6], 48'(mm_row_bytes), 1'b0);
          if (!flags[1]) begin
            fp_o.dr[1] = rows_ival(w[3], 32'd1, 32'd0, {14'd0, w[4], 2'b00} * 48'(mm_blocks),
                                   1'b0);
          end
          fp_o.act_rows   = span_ival({24'd0, w[5][31:24]}, mm_m, 1'b0);
          fp_o.act_blocks = span_ival({16'd0, w[7][31:16]}, mm_blocks, 1'b0);
        end
        OP_QACT: begin
          fp_o.tm[0]      = rows_ival(w[1], q_rows, w[5], 48'(q_n), 1'b0);
          fp_o.act_rows   = span_ival({24'd0, w[6][7:0]}, q_rows, 1'b1);
          fp_o.act_blocks = span_ival({16'd0, w[6][23:8]}, q_n >> LogD, 1'b1);
        end
        OP_QST: begin
          fp_o.tm[0] = rows_ival(w[1], q_rows, w[5], 48'(q_n), 1'b0);
          fp_o.dr[0] = rows_ival(w[2], q_rows, w[7], {16'd0, q_n - 32'd1} * 48'(w[6]) + 48'd1,
                                 1'b1);
          fp_o.dr[1] = rows_ival(w[3], 32'd1, 32'd0, {14'd0, q_rows, 2'b00} * 48'(qs_scales),
                                 1'b1);
        end
        OP_VOP: begin
          fp_o.tm[0] = rows_ival(w[1], v_m, {16'd0, w[6][15:0]}, v_reduce ? 48'd1 : 48'(v_n),
                                 1'b1);
          if (v_fn != VOP_FILL) begin
            fp_o.tm[1] = rows_ival(w[2], v_m, {16'd0, w[6][31:16]}, 48'(v_n), 1'b0);
          end
          if (v_fn != VOP_COPY && !v_reduce && !flags[2]) begin
            case (flags[1:0])
              BMODE_FULL: fp_o.tm[2] = rows_ival(w[3], v_m, {16'd0, w[4][31:16]}, 48'(v_n), 1'b0);
              BMODE_ROW:  fp_o.tm[2] = rows_ival(w[3], v_m, {16'd0, w[4][31:16]}, 48'd1, 1'b0);
              BMODE_COL:  fp_o.tm[2] = rows_ival(w[3], 32'd1, 32'd0, 48'(v_n), 1'b0);
              default:    fp_o.tm[2] = rows_ival(w[3], 32'd1, 32'd0, 48'd1, 1'b0);
            endcase
          end
        end
        default: ;
      endcase
    end
  end

endmodule : otpu_seq_fprint
