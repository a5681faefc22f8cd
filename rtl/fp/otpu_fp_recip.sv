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

  localparam logic [31:0] RECIP_MAGIC = 32'h7EF3_11C7;
  localparam logic [31:0] FP_TWO      = 32'h4000_0000;
  localparam logic [7:0]  EXP_BIAS    = 8'd127;

  ////////////
  // Reduce //
  ////////////

  fp32_t       x;
  logic [31:0] m;
  assign x = fp_ftz(x_i);
  // m = 1.man: x's mantissa with the exponent of 1.0, positive.
  assign m = {1'b0, EXP_BIAS, x.man};

  ////////////
  // Newton //
  ////////////

  // y[0] is the seed, y[i+1] the result of Newton step i.
  logic [3:0][31:0] y;
  assign y[0] = RECIP_MAGIC - m;

  for (genvar i = 0; i < 3; i++) begin : gen_newton
    logic [31:0] my, corr;

    otpu_fp_mul u_my (
      .a_i(m),
      .b_i(y[i]),
      .y_o(my)
    );

    otpu_fp_add u_corr (
      .a_i  (FP_TWO),
      .b_i  (my),
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

  // y lies in [0.5, 1) and e = x.exp - 127 in [-126, 127], so the biased result exponent
  // y.exp - e is at most 252 (no overflow); below 1 the result flushes to ±0.
  fp32_t             recip_m;
  logic signed [9:0] exp_r;
  assign recip_m = y[3];
  assign exp_r   = $signed({2'b00, recip_m.exp}) - $signed({2'b00, x.exp}) +
                   $signed({2'b00, EXP_BIAS});

  logic unused_recip_m_sign;
  assign unused_recip_m_sign = recip_m.sign;

  always_comb begin
    y_o = {x.sign, exp_r[7:0], recip_m.man};
    if (fp_is_nan(x[30:0])) begin
      y_o = FP_QNAN;
    end else if (x.exp == 8'd0) begin
      y_o = {x.sign, FP_POS_INF[30:0]};
    end else if (fp_is_inf(x[30:0]) || exp_r < 10'sd1) begin
      y_o = {x.sign, 31'd0};
    end
  end

endmodule : otpu_fp_recip
