// One MXU column (docs/isa.md MM): the next value of one output's accumulator after one weight
// chunk. An int8 chunk is one block: acc + mul(float(isum), scale). A 4-bit chunk is two
// blocks (b in bytes 0 .. D/2-1, b+1 in the rest) added in order: (acc + t_b) + t_b+1.
// scale = UNIT ? sa : mul(sa, sw). Combinational: D MACs (the products of
// otpu_core_pkg::mxu_mac), two exact integer sums, then the fp32 functions of otpu_fp_pkg in
// the order the ISA lists them. Everything is one always_comb under en_i, and only the active
// weight format's path runs: the simulator evaluates an instance's logic every cycle, this
// block only when the consumer takes a chunk (docs/rtl.md "Simulation speed"). acc_o is 0
// while en_i is low.
module otpu_mxu_col
  import otpu_fp_pkg::*;
#(
  parameter int unsigned D = 32
) (
  input  logic                 en_i,       // the result is used this cycle
  // A paired chunk (second_i, int8 only): the row's next chunk w2_i, of block b+1 (act_pair_i,
  // sa_pair_i) at weight scale s2_i. The inputs are wired straight to their sources and chosen
  // here, under en_i: a port driven by an expression is evaluated every cycle.
  input  logic                 second_i,
  input  logic [D*8-1:0]       w_i,        // the weight chunk
  input  logic [D*8-1:0]       w2_i,       // the chunk after it
  input  logic [1:0][D*8-1:0]  act_i,      // activation blocks b, b+1 of this column's row
  input  logic [1:0][31:0]     sa_i,       // their activation scales
  input  logic [D*8-1:0]       act_pair_i,
  input  logic [31:0]          sa_pair_i,
  input  logic [31:0]          s_i,        // the weight scales of blocks b, b+1
  input  logic [31:0]          s2_i,
  input  logic                 unit_i,
  input  logic                 four_bit_i,
  input  logic                 fp4_i,
  input  logic [31:0]          acc_i,
  output logic [31:0]          acc_o
);

  // The 2*D activations of a 4-bit chunk: block b then block b+1.
  logic [2*D-1:0][7:0] act2;
  assign act2 = act_i;

  // A 4-bit weight's value, mxu_nibble as a table indexed by {fp4, nibble}, sign-extended to 32
  // bits (an unpacked constant array: one load, where a packed one is a wide select).
  localparam logic [31:0] NibVal[32] = '{
    32'd0, 32'd1, 32'd2, 32'd3, 32'd4, 32'd5, 32'd6, 32'd7,                  // int4 0..7
    -32'd8, -32'd7, -32'd6, -32'd5, -32'd4, -32'd3, -32'd2, -32'd1,          // int4 8..15
    32'd0, 32'd1, 32'd2, 32'd3, 32'd4, 32'd6, 32'd8, 32'd12,                 // fp4 0..7
    32'd0, -32'd1, -32'd2, -32'd3, -32'd4, -32'd6, -32'd8, -32'd12           // fp4 8..15
  };

  // The sums are exact in 32 bits, so they are computed modulo 2^32: each int8 is sign-extended
  // as (b ^ 0x80) - 128 and the products are unsigned, which are the same 32 bits as the signed
  // ones. Written so, a simulator's C++ compiler turns each product into a byte load with sign
  // extension and one multiply; $signed operands cost it three times as many instructions.
  // The expression is written out at each use: as a function, Verilator passes every byte
  // through temporaries and the sums cost 4 % more (docs/rtl.md "Simulation speed").
  logic [31:0] isum0, isum1;
  logic [31:0] scale0, scale1, acc1;
  always_comb begin
    acc_o  = 32'd0;
    isum0  = '0;
    isum1  = '0;
    scale0 = 32'd0;
    scale1 = 32'd0;
    acc1   = 32'd0;
    if (en_i) begin
      // The whole chunk (int8), or its first and second half (4-bit).
      if (second_i) begin
        for (int e = 0; e < int'(D); e++) begin
          isum0 += ((32'(w2_i[8*e +: 8]) ^ 32'h80) - 32'd128)
                 * ((32'(act_pair_i[8*e +: 8]) ^ 32'h80) - 32'd128);
        end
      end else if (!four_bit_i) begin
        for (int e = 0; e < int'(D); e++) begin
          isum0 += ((32'(w_i[8*e +: 8]) ^ 32'h80) - 32'd128) * ((32'(act2[e]) ^ 32'h80) - 32'd128);
        end
      end else begin
        for (int e = 0; e < int'(D); e++) begin
          if (e < int'(D) / 2) begin
            isum0 += ((32'(act2[2*e]) ^ 32'h80) - 32'd128) * NibVal[{fp4_i, w_i[8*e +: 4]}]
                   + ((32'(act2[2*e+1]) ^ 32'h80) - 32'd128) * NibVal[{fp4_i, w_i[8*e+4 +: 4]}];
          end else begin
            isum1 += ((32'(act2[2*e]) ^ 32'h80) - 32'd128) * NibVal[{fp4_i, w_i[8*e +: 4]}]
                   + ((32'(act2[2*e+1]) ^ 32'h80) - 32'd128) * NibVal[{fp4_i, w_i[8*e+4 +: 4]}];
          end
        end
      end
      if (second_i) begin
        scale0 = unit_i ? sa_pair_i : fp_mul(sa_pair_i, s2_i);
      end else begin
        scale0 = unit_i ? sa_i[0] : fp_mul(sa_i[0], s_i);
      end
      acc1   = fp_add(acc_i, fp_mul(fp_from_int(isum0), scale0), 1'b0);
      acc_o  = acc1;
      if (four_bit_i) begin
        scale1 = unit_i ? sa_i[1] : fp_mul(sa_i[1], s2_i);
        acc_o  = fp_add(acc1, fp_mul(fp_from_int(isum1), scale1), 1'b0);
      end
    end
  end

endmodule : otpu_mxu_col
