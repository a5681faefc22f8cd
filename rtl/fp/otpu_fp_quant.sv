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

  fp32_t v;

  otpu_fp_mul u_mul (
    .a_i(x_i),
    .b_i(inv_i),
    .y_o(v)
  );

  // |v| as a 7.24 fixed-point number, exact for 0.5 <= |v| < 128 (v.exp in 126..133).
  logic [30:0] mag_fix;
  always_comb begin
    mag_fix = 31'd0;
    if (v.exp >= 8'd126 && v.exp < 8'd134) begin
      mag_fix = {7'd0, 1'b1, v.man} << (v.exp - 8'd126);
    end
  end

  // Round half to even; |v| < 0.5 has mag_fix = 0 and rounds to 0.
  logic [7:0] mag_rnd, mag;
  assign mag_rnd = {1'b0, mag_fix[30:24]}
                 + {7'd0, mag_fix[23] & ((|mag_fix[22:0]) | mag_fix[24])};
  assign mag     = (v.exp >= 8'd134 || mag_rnd > 8'd127) ? 8'd127 : mag_rnd;

  always_comb begin
    q_o = v.sign ? (8'd0 - mag) : mag;
    if (fp_is_nan(v[30:0])) begin
      q_o = 8'd0;
    end
  end

endmodule : otpu_fp_quant
