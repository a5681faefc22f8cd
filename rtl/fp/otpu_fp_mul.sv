// fp32 multiplier: y_o = a_i * b_i. docs/isa.md "Numerics": inputs flushed to zero, round to
// nearest even, a product whose exact magnitude is below 2^-126 is a zero of the product's
// sign (even where IEEE rounding would give 2^-126), overflow gives ±inf, 0 * inf and any NaN
// input give 0x7FC00000. Combinational (latency 0).
module otpu_fp_mul
  import otpu_fp_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  assign y_o = fp_mul(a_i, b_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_mul
