// fp32 adder: y_o = a_i + b_i, or a_i - b_i when sub_i is set (b's sign flipped first).
// docs/isa.md "Numerics": inputs flushed to zero, round to nearest even, a result whose
// exact magnitude is below 2^-126 is a zero of the exact result's sign, overflow gives ±inf,
// any NaN result is 0x7FC00000; -0 + -0 = -0 and x - x = +0. Combinational (latency 0).
module otpu_fp_add
  import otpu_fp_pkg::*;
(
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic        sub_i,
  output logic [31:0] y_o
);

  ////////////
  // Unpack //
  ////////////

  fp32_t a, b;
  assign a = fp_ftz(a_i);
  assign b = fp_ftz({b_i[31] ^ sub_i, b_i[30:0]});

  logic a_zero, b_zero, a_inf, b_inf, any_nan;
  assign a_zero  = (a.exp == 8'd0);
  assign b_zero  = (b.exp == 8'd0);
  assign a_inf   = fp_is_inf(a[30:0]);
  assign b_inf   = fp_is_inf(b[30:0]);
  assign any_nan = fp_is_nan(a[30:0]) || fp_is_nan(b[30:0]);

  ///////////
  // Align //
  ///////////

  // larger has the larger magnitude, so the difference of significands is never negative and
  // carries the exact result's sign.
  logic  swap;
  fp32_t larger, smaller;
  assign swap    = ({b.exp, b.man} > {a.exp, a.man});
  assign larger  = swap ? b : a;
  assign smaller = swap ? a : b;

  logic [7:0] exp_diff;
  logic [4:0] shift;
  assign exp_diff = larger.exp - smaller.exp;
  assign shift    = (exp_diff > 8'd27) ? 5'd27 : exp_diff[4:0];

  // Significands carry three bits below the lsb: guard, round and sticky. With them the
  // rounded result equals the rounded exact sum (the classic G/R/S argument).
  logic [26:0] sig_larger, sig_smaller;
  logic [53:0] smaller_shifted;
  assign sig_larger      = {1'b1, larger.man, 3'b000};
  assign smaller_shifted = {1'b1, smaller.man, 3'b000, 27'd0} >> shift;
  assign sig_smaller     = {smaller_shifted[53:28],
                            smaller_shifted[27] | (|smaller_shifted[26:0])};

  /////////
  // Add //
  /////////

  logic        eff_sub;
  logic [27:0] sum;
  assign eff_sub = larger.sign ^ smaller.sign;
  assign sum = eff_sub ? ({1'b0, sig_larger} - {1'b0, sig_smaller})
                       : ({1'b0, sig_larger} + {1'b0, sig_smaller});

  ///////////////
  // Normalise //
  ///////////////

  logic [4:0]        lzc;
  logic              sum_zero;
  logic [27:0]       norm;
  logic signed [9:0] norm_exp;

  otpu_fp_lzc #(
    .Width(28)
  ) u_lzc (
    .x_i   (sum),
    .cnt_o (lzc),
    .norm_o(norm),
    .zero_o(sum_zero)
  );

  assign norm_exp = $signed({2'b00, larger.exp}) + 10'sd1 - $signed({5'd0, lzc});

  ////////////
  // Result //
  ////////////

  always_comb begin
    y_o = fp_round_pack(larger.sign, norm_exp, norm[27:4], norm[3], |norm[2:0]);
    if (any_nan || (a_inf && b_inf && (a.sign != b.sign))) begin
      y_o = FP_QNAN;
    end else if (a_inf) begin
      y_o = a;
    end else if (b_inf) begin
      y_o = b;
    end else if (a_zero && b_zero) begin
      y_o = {a.sign & b.sign, 31'd0};
    end else if (b_zero) begin
      y_o = a;
    end else if (a_zero) begin
      y_o = b;
    end else if (sum_zero) begin
      y_o = 32'd0;
    end
  end

endmodule : otpu_fp_add
