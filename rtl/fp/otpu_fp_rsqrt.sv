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

  localparam logic [31:0] RSQRT_MAGIC = 32'h5F37_59DF;
  localparam logic [31:0] FP_HALF     = 32'h3F00_0000;
  localparam logic [31:0] FP_ONE_5    = 32'h3FC0_0000;

  ////////////
  // Reduce //
  ////////////

  fp32_t       x;
  logic [31:0] m, h;
  assign x = fp_ftz(x_i);
  // The unbiased exponent x.exp - 127 is odd when x.exp is even: then m' = 2 * 1.man.
  assign m = {1'b0, x.exp[0] ? 8'd127 : 8'd128, x.man};

  otpu_fp_mul u_half (
    .a_i(FP_HALF),
    .b_i(m),
    .y_o(h)
  );

  ////////////
  // Newton //
  ////////////

  // y[0] is the seed, y[i+1] the result of Newton step i.
  logic [3:0][31:0] y;
  assign y[0] = RSQRT_MAGIC - {1'b0, m[31:1]};

  for (genvar i = 0; i < 3; i++) begin : gen_newton
    logic [31:0] yy, hyy, corr;

    otpu_fp_mul u_yy (
      .a_i(y[i]),
      .b_i(y[i]),
      .y_o(yy)
    );

    otpu_fp_mul u_hyy (
      .a_i(h),
      .b_i(yy),
      .y_o(hyy)
    );

    otpu_fp_add u_corr (
      .a_i  (FP_ONE_5),
      .b_i  (hyy),
      .sub_i(1'b1),
      .y_o  (corr)
    );

    otpu_fp_mul u_step (
      .a_i(y[i]),
      .b_i(corr),
      .y_o(y[i+1])
    );
  end

  ///////////
  // Scale //
  ///////////

  // -e'/2 = 64 - ((x.exp + 1) >> 1), in [-63, 63]; y lies in [0.5, 1) (y.exp = 126), so the
  // biased result exponent y.exp - e'/2 stays in [63, 189]: never a flush or an overflow.
  fp32_t       rsqrt_m;
  logic [8:0]  exp_p1;
  logic [7:0]  exp_r;
  assign rsqrt_m = y[3];
  assign exp_p1  = {1'b0, x.exp} + 9'd1;
  assign exp_r   = rsqrt_m.exp + 8'd64 - exp_p1[8:1];

  logic unused_rsqrt_bits;
  assign unused_rsqrt_bits = ^{rsqrt_m.sign, exp_p1[0]};

  always_comb begin
    y_o = {1'b0, exp_r, rsqrt_m.man};
    if (fp_is_nan(x[30:0]) || (x.sign && x.exp != 8'd0)) begin
      y_o = FP_QNAN;
    end else if (x.exp == 8'd0) begin
      y_o = FP_POS_INF;
    end else if (fp_is_inf(x[30:0])) begin
      y_o = 32'd0;
    end
  end

endmodule : otpu_fp_rsqrt
