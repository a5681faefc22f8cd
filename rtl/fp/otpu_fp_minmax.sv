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

  fp32_t a, b;
  assign a = fp_ftz(a_i);
  assign b = fp_ftz(b_i);

  // Keys that order like the values as unsigned numbers: positive values above negative
  // ones, negative magnitudes reversed. -0 sorts just below +0.
  logic [31:0] key_a, key_b;
  logic        a_larger;
  assign key_a    = a.sign ? ~a : {1'b1, a[30:0]};
  assign key_b    = b.sign ? ~b : {1'b1, b[30:0]};
  assign a_larger = (key_a > key_b);

  always_comb begin
    y_o = (a_larger == max_i) ? a : b;
    if (fp_is_nan(a[30:0]) || fp_is_nan(b[30:0])) begin
      y_o = FP_QNAN;
    end
  end

endmodule : otpu_fp_minmax
