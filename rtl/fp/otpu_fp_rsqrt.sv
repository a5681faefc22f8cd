// fp32 reciprocal square root, the fixed sequence of docs/isa.md "Numerics": NaN and x < 0
// (not -0) -> NaN, ±0 -> +inf, +inf -> +0. Otherwise x = m' * 2^e' with e' even and m' in
// [1, 4): h = mul(0.5, m'), the seed y = bits(0x5F3759DF - (bits(m') >> 1)) and three Newton
// steps y = mul(y, add(1.5, -mul(h, mul(y, y)))) on m', then y * 2^(-e'/2) by adding -e'/2
// to y's exponent field. Combinational (latency 0).
module otpu_fp_rsqrt
  import otpu_fp_pkg::*;
(
  input  logic [31:0] x_i,
  output logic [31:0] y_o
);

  assign y_o = fp_rsqrt(x_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_rsqrt
