// One element of the block quantizer (docs/isa.md "Numerics"): q_o = clamp(rne(mul(x_i, inv_i)),
// -127, 127) as a two's-complement int8, rounding half to even; a NaN product gives 0 and
// ±inf saturates. Combinational (latency 0).
module otpu_fp_quant
  import otpu_fp_pkg::*;
(
  input  logic [31:0] x_i,
  input  logic [31:0] inv_i,
  output logic [7:0]  q_o
);

  assign q_o = fp_quant(x_i, inv_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_quant
