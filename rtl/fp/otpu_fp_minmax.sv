// fp32 max (max_i = 1) or min (max_i = 0). docs/isa.md "Numerics": inputs flushed to zero,
// NaN (0x7FC00000) if either input is NaN, and +0 counts as larger than -0.
// Combinational (latency 0).
module otpu_fp_minmax
  import otpu_fp_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic        max_i,
  output logic [31:0] y_o
);

  assign y_o = fp_minmax(a_i, b_i, max_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_minmax
