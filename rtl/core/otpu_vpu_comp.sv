// One composite VPU lane (docs/isa.md VOP EXP2 RECIP RSQRT): the function selected by fn_i
// on the operand x_i = mul(add(A, -B), C) that an otpu_vpu_lane formed. Combinational; only
// CL of these exist, so a group of LANES elements takes ceil(LANES / CL) steps. Only the
// selected function is computed, and only while en_i (y_o is 0 otherwise): docs/rtl.md
// "Simulation speed".
module otpu_vpu_comp
  import otpu_pkg::*;
  import otpu_fp_pkg::*;
(
  input  logic        en_i,
  input  logic [7:0]  fn_i,
  input  logic [31:0] x_i,
  output logic [31:0] y_o
);

  always_comb begin
    y_o = 32'd0;
    if (en_i) begin
      case (fn_i)
        VOP_EXP2:  y_o = fp_exp2(x_i);
        VOP_RECIP: y_o = fp_recip(x_i);
        default:   y_o = fp_rsqrt(x_i);  // RSQRT
      endcase
    end
  end

endmodule : otpu_vpu_comp
