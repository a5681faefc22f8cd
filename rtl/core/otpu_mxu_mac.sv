// One weight byte of an MXU column (docs/isa.md MM): an int8 weight times its activation, or
// a byte of two 4-bit weights (element 2i in the low nibble) times their two activations.
// int4 nibbles are two's complement, fp4 (E2M1) nibbles are twice their value with bit 3 the
// sign. The product is exact. Combinational.
module otpu_mxu_mac (
  input  logic [7:0]         w_i,
  input  logic [7:0]         a_lo_i,      // the activation of w (int8) or of the low nibble
  input  logic [7:0]         a_hi_i,      // the activation of the high nibble (4-bit)
  input  logic               four_bit_i,
  input  logic               fp4_i,
  output logic signed [15:0] p_o
);

  // A 4-bit weight as a signed value: int4 -8..7, fp4 {0,1,2,3,4,6,8,12} with a sign.
  function automatic logic signed [4:0] nibble(logic [3:0] nib, logic fp4);
    logic [3:0] mag;
    if (!fp4) begin
      return {nib[3], nib};
    end
    unique case (nib[2:0])
      3'd5:    mag = 4'd6;
      3'd6:    mag = 4'd8;
      3'd7:    mag = 4'd12;
      default: mag = {1'b0, nib[2:0]};
    endcase
    return nib[3] ? -$signed({1'b0, mag}) : $signed({1'b0, mag});
  endfunction

  // Every operand sign-extended to the product's 16 bits, so no step can overflow.
  logic signed [15:0] a_lo, a_hi, w8, w_lo, w_hi, p8, p4;
  assign a_lo = 16'($signed(a_lo_i));
  assign a_hi = 16'($signed(a_hi_i));
  assign w8   = 16'($signed(w_i));
  assign w_lo = 16'(nibble(w_i[3:0], fp4_i));
  assign w_hi = 16'(nibble(w_i[7:4], fp4_i));
  assign p8   = a_lo * w8;
  assign p4   = a_lo * w_lo + a_hi * w_hi;
  assign p_o  = four_bit_i ? p4 : p8;

endmodule : otpu_mxu_mac
