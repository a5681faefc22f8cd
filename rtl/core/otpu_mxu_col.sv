// One MXU column (docs/isa.md MM): the next value of one output's accumulator after one weight
// chunk. An int8 chunk is one block: acc + mul(float(isum), scale). A 4-bit chunk is two
// blocks (b in bytes 0 .. D/2-1, b+1 in the rest) added in order: (acc + t_b) + t_b+1.
// scale = UNIT ? sa : mul(sa, sw). Combinational: D MACs (gen_mac), two exact integer sums,
// then the fp32 units in the order the ISA lists them.
module otpu_mxu_col #(
  parameter int unsigned D = 32
) (
  input  logic [D*8-1:0]       w_i,        // the weight chunk
  input  logic [1:0][D*8-1:0]  act_i,      // activation blocks b, b+1 of this column's row
  input  logic [1:0][31:0]     sa_i,       // their activation scales
  input  logic [1:0][31:0]     sw_i,       // the weight scales of blocks b, b+1
  input  logic                 unit_i,
  input  logic                 four_bit_i,
  input  logic                 fp4_i,
  input  logic [31:0]          acc_i,
  output logic [31:0]          acc_o
);

  ///////////////////////
  // Integer products  //
  ///////////////////////

  // The 2*D activations of a 4-bit chunk: block b then block b+1.
  logic [2*D-1:0][7:0] act2;
  assign act2 = act_i;

  logic signed [D-1:0][15:0] p;
  for (genvar e = 0; e < D; e++) begin : gen_mac
    otpu_mxu_mac u_mac (
      .w_i       (w_i[8*e +: 8]),
      .a_lo_i    (four_bit_i ? act2[2*e] : act2[e]),
      .a_hi_i    (act2[2*e+1]),
      .four_bit_i(four_bit_i),
      .fp4_i     (fp4_i),
      .p_o       (p[e])
    );
  end

  // Exact sums of the first and second half of the chunk's bytes.
  logic signed [31:0] sum_lo, sum_hi, isum0, isum1;
  always_comb begin
    sum_lo = '0;
    sum_hi = '0;
    for (int e = 0; e < int'(D); e++) begin
      if (e < int'(D) / 2) begin
        sum_lo += 32'(p[e]);
      end else begin
        sum_hi += 32'(p[e]);
      end
    end
  end
  assign isum0 = four_bit_i ? sum_lo : sum_lo + sum_hi;
  assign isum1 = sum_hi;

  //////////////
  // fp32     //
  //////////////

  logic [1:0][31:0] isum_fp, sasw, scale, term;
  logic [31:0]      acc1, acc2;

  for (genvar b = 0; b < 2; b++) begin : gen_block
    otpu_fp_from_int u_float (
      .v_i(b == 0 ? isum0 : isum1),
      .y_o(isum_fp[b])
    );

    otpu_fp_mul u_sasw (
      .a_i(sa_i[b]),
      .b_i(sw_i[b]),
      .y_o(sasw[b])
    );

    assign scale[b] = unit_i ? sa_i[b] : sasw[b];

    otpu_fp_mul u_term (
      .a_i(isum_fp[b]),
      .b_i(scale[b]),
      .y_o(term[b])
    );
  end

  otpu_fp_add u_acc1 (
    .a_i  (acc_i),
    .b_i  (term[0]),
    .sub_i(1'b0),
    .y_o  (acc1)
  );

  otpu_fp_add u_acc2 (
    .a_i  (acc1),
    .b_i  (term[1]),
    .sub_i(1'b0),
    .y_o  (acc2)
  );

  assign acc_o = four_bit_i ? acc2 : acc1;

endmodule : otpu_mxu_col
