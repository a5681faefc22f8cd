// fp32 reciprocal, the fixed sequence of docs/isa.md "Numerics": NaN -> NaN, ±0 -> ±inf,
// ±inf -> ±0. Otherwise |x| = m * 2^e with m in [1, 2): the seed y = bits(0x7EF311C7 -
// bits(m)) and three Newton steps y = mul(y, add(2.0, -mul(m, y))) on m, then y * 2^-e by
// subtracting e from y's exponent field (±0 below 2^-126), with x's sign.
// Combinational (latency 0): three mul/sub/mul steps and an exponent subtraction.
module otpu_fp_recip
  import otpu_fp_pkg::*;
(
  input  logic [31:0] x_i,
  output logic [31:0] y_o
);

  assign y_o = fp_recip(x_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_recip
