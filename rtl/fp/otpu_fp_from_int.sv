// int32 -> fp32: exact for |v_i| < 2^24 (the MXU's block sums), rounded to nearest even
// above that; 0 gives +0. Combinational (latency 0).
module otpu_fp_from_int
  import otpu_fp_pkg::*;
(
  input  logic [31:0] v_i,
  output logic [31:0] y_o
);

  logic        sign;
  logic [31:0] mag;
  assign sign = v_i[31];
  assign mag  = sign ? (32'd0 - v_i) : v_i;  // -2^31 gives 2^31, still right as unsigned

  logic [4:0]  lzc;
  logic        mag_zero;
  logic [31:0] norm;

  otpu_fp_lzc #(
    .Width(32)
  ) u_lzc (
    .x_i   (mag),
    .cnt_o (lzc),
    .norm_o(norm),
    .zero_o(mag_zero)
  );


  logic signed [9:0] exp;
  assign exp = 10'sd158 - $signed({5'd0, lzc});  // 127 + 31 - lzc

  always_comb begin
    y_o = fp_round_pack(sign, exp, norm[31:8], norm[7], |norm[6:0]);
    if (mag_zero) begin
      y_o = 32'd0;
    end
  end

endmodule : otpu_fp_from_int
