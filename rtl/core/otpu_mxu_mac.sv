// One weight byte of an MXU column (docs/isa.md MM): an int8 weight times its activation, or
// a byte of two 4-bit weights (element 2i in the low nibble) times their two activations.
// int4 nibbles are two's complement, fp4 (E2M1) nibbles are twice their value with bit 3 the
// sign. The product is exact. Combinational: one call of otpu_core_pkg::mxu_mac, which
// otpu_mxu_col calls directly inside its enabled always_comb (docs/rtl.md "Simulation speed").
module otpu_mxu_mac
  import otpu_core_pkg::*;
(
  input  logic [7:0]         w_i,
  input  logic [7:0]         a_lo_i,      // the activation of w (int8) or of the low nibble
  input  logic [7:0]         a_hi_i,      // the activation of the high nibble (4-bit)
  input  logic               four_bit_i,
  input  logic               fp4_i,
  output logic signed [15:0] p_o
);

  assign p_o = mxu_mac(w_i, a_lo_i, a_hi_i, four_bit_i, fp4_i);

endmodule : otpu_mxu_mac
