// The block quantizer's constants (docs/isa.md "Numerics", block quantizer) from a block's
// amax: inv = mul(127.0, recip(amax)) and scale = mul(amax, fp32(1/127)); amax = +0 gives
// scale +0 (and inv makes every value 0). Combinational; the same units and order as
// sim/isa/fp32.cc.
module otpu_quant_scale (
  input  logic [31:0] amax_i,
  output logic [31:0] inv_o,
  output logic [31:0] scale_o
);

  localparam logic [31:0] FP_127     = 32'h42FE_0000;
  localparam logic [31:0] FP_INV_127 = 32'h3C01_0204;

  logic [31:0] r, s;

  otpu_fp_recip u_recip (
    .x_i(amax_i),
    .y_o(r)
  );

  otpu_fp_mul u_inv (
    .a_i(FP_127),
    .b_i(r),
    .y_o(inv_o)
  );

  otpu_fp_mul u_scale (
    .a_i(amax_i),
    .b_i(FP_INV_127),
    .y_o(s)
  );

  assign scale_o = (amax_i == 32'd0) ? 32'd0 : s;

endmodule : otpu_quant_scale
