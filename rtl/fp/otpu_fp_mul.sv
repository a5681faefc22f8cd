// fp32 multiplier: y_o = a_i * b_i. docs/isa.md "Numerics": inputs flushed to zero, round to
// nearest even, a product whose exact magnitude is below 2^-126 is a zero of the product's
// sign (even where IEEE rounding would give 2^-126), overflow gives ±inf, 0 * inf and any NaN
// input give 0x7FC00000. Combinational (latency 0).
module otpu_fp_mul
  import otpu_fp_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  output logic [31:0] y_o
);

  ////////////
  // Unpack //
  ////////////

  fp32_t a, b;
  logic  a_zero, b_zero, a_inf, b_inf, any_nan, sign;
  assign a       = fp_ftz(a_i);
  assign b       = fp_ftz(b_i);
  assign a_zero  = (a.exp == 8'd0);
  assign b_zero  = (b.exp == 8'd0);
  assign a_inf   = fp_is_inf(a[30:0]);
  assign b_inf   = fp_is_inf(b[30:0]);
  assign any_nan = fp_is_nan(a[30:0]) || fp_is_nan(b[30:0]);
  assign sign    = a.sign ^ b.sign;

  //////////////
  // Multiply //
  //////////////

  // The exact product of two 24-bit significands lies in [2^46, 2^48).
  logic [47:0] prod;
  logic        prod_hi;
  assign prod    = {24'd0, 1'b1, a.man} * {24'd0, 1'b1, b.man};
  assign prod_hi = prod[47];

  logic signed [9:0] exp;
  logic [23:0]       sig;
  logic              guard, sticky;
  assign exp    = $signed({2'b00, a.exp}) + $signed({2'b00, b.exp}) - 10'sd127
                + $signed({9'd0, prod_hi});
  assign sig    = prod_hi ? prod[47:24] : prod[46:23];
  assign guard  = prod_hi ? prod[23] : prod[22];
  assign sticky = prod_hi ? (|prod[22:0]) : (|prod[21:0]);

  ////////////
  // Result //
  ////////////

  always_comb begin
    y_o = fp_round_pack(sign, exp, sig, guard, sticky);
    if (any_nan || (a_inf && b_zero) || (a_zero && b_inf)) begin
      y_o = FP_QNAN;
    end else if (a_inf || b_inf) begin
      y_o = {sign, FP_POS_INF[30:0]};
    end else if (a_zero || b_zero) begin
      y_o = {sign, 31'd0};
    end
  end

endmodule : otpu_fp_mul
