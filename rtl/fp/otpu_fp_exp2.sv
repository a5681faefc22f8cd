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

  // The polynomial, EXP2_C[i] = c_i of docs/isa.md (c0 = 1.0).
  localparam logic [6:0][31:0] EXP2_C = {
    32'h3965_4785, 32'h3AA2_6A69, 32'h3C1E_AA6C, 32'h3D63_3FA8,
    32'h3E75_FEF9, 32'h3F31_7214, 32'h3F80_0000
  };

  //////////////////
  // Range, floor //
  //////////////////

  fp32_t x;
  assign x = fp_ftz(x_i);

  // |x| as an 8.23 fixed-point number, valid for |x| < 2^7 (x.exp < 134).
  logic [30:0] mag_fix;
  logic [7:0]  int_part;
  logic        frac_nz;
  always_comb begin
    mag_fix = 31'd0;
    if (x.exp >= 8'd127 && x.exp < 8'd134) begin
      mag_fix = {7'd0, 1'b1, x.man} << (x.exp - 8'd127);
    end
  end
  assign int_part = mag_fix[30:23];
  // Below 1.0 every nonzero x is all fraction.
  assign frac_nz  = (x.exp < 8'd127) ? (x.exp != 8'd0) : (|mag_fix[22:0]);

  logic too_big, too_small;
  assign too_big   = ~x.sign && (x.exp >= 8'd134);
  assign too_small = x.sign && ((x.exp >= 8'd134) ||
                                (int_part > 8'd126) || (int_part == 8'd126 && frac_nz));

  // n = floor(x), in [-126, 127] when in range.
  logic signed [9:0] n;
  assign n = x.sign ? -$signed({2'b00, int_part} + {9'd0, frac_nz}) : $signed({2'b00, int_part});

  //////////////////
  // f = x - n    //
  //////////////////

  logic [31:0] n_fp, f;

  otpu_fp_from_int u_n_to_fp (
    .v_i({{22{n[9]}}, n}),
    .y_o(n_fp)
  );

  otpu_fp_add u_frac (
    .a_i  (x),
    .b_i  (n_fp),
    .sub_i(1'b1),
    .y_o  (f)
  );

  ////////////
  // Horner //
  ////////////

  // p[6] = c6; p[i] = add(mul(p[i+1], f), c_i).
  logic [6:0][31:0] p;
  assign p[6] = EXP2_C[6];

  for (genvar i = 0; i < 6; i++) begin : gen_horner
    logic [31:0] pf;

    otpu_fp_mul u_mul (
      .a_i(p[i+1]),
      .b_i(f),
      .y_o(pf)
    );

    otpu_fp_add u_add (
      .a_i  (pf),
      .b_i  (EXP2_C[i]),
      .sub_i(1'b0),
      .y_o  (p[i])
    );
  end

  ///////////
  // Scale //
  ///////////

  // p lies in [1, 2] (f >= 0, every c_i > 0), so the scaled exponent is at least 1.
  fp32_t             poly;
  logic signed [9:0] exp_r;
  assign poly  = p[0];
  assign exp_r = $signed({2'b00, poly.exp}) + n;

  logic unused_poly_sign;
  assign unused_poly_sign = poly.sign;

  always_comb begin
    y_o = {1'b0, exp_r[7:0], poly.man};
    if (fp_is_nan(x[30:0])) begin
      y_o = FP_QNAN;
    end else if (too_big) begin
      y_o = FP_POS_INF;
    end else if (too_small) begin
      y_o = 32'd0;
    end else if (exp_r >= 10'sd255) begin
      y_o = FP_POS_INF;
    end else if (exp_r < 10'sd1) begin  // unreachable (p >= 1, n >= -126); keeps y_o defined
      y_o = 32'd0;
    end
  end

endmodule : otpu_fp_exp2
