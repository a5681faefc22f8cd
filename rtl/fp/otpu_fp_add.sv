// fp32 adder: y_o = a_i + b_i, or a_i - b_i when sub_i is set (b's sign flipped first).
// docs/isa.md "Numerics": inputs flushed to zero, round to nearest even, a result whose
// exact magnitude is below 2^-126 is a zero of the exact result's sign, overflow gives ±inf,
// any NaN result is 0x7FC00000; -0 + -0 = -0 and x - x = +0. Combinational (latency 0).
module otpu_fp_add
  import otpu_fp_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic        sub_i,
  output logic [31:0] y_o
);

  assign y_o = fp_add(a_i, b_i, sub_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_add
