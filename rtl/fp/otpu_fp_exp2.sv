// fp32 exp2, the fixed sequence of docs/isa.md "Numerics": NaN -> NaN, x >= 128 -> +inf,
// x < -126 -> +0; otherwise n = floor(x), f = x - n, p = Horner(f) over c6..c0 with fp32
// mul/add, and y = p with n added to its exponent (+inf if that reaches 2^128).
// Combinational (latency 0): one subtract, then six mul/add pairs.
module otpu_fp_exp2
  import otpu_fp_pkg::*;
(
  input  logic [31:0] x_i,
  output logic [31:0] y_o
);

  assign y_o = fp_exp2(x_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_exp2
