// int32 -> fp32: exact for |v_i| < 2^24 (the MXU's block sums), rounded to nearest even
// above that; 0 gives +0. Combinational (latency 0).
module otpu_fp_from_int
  import otpu_fp_pkg::*;
(
  input  logic [31:0] v_i,
  output logic [31:0] y_o
);

  assign y_o = fp_from_int(v_i);  // otpu_fp_pkg: the arithmetic is there

endmodule : otpu_fp_from_int
