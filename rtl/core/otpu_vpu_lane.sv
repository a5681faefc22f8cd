// One VPU lane: the element-wise functions of VOP (docs/isa.md) on one element. y_o is the
// result of ADD SUB MUL MAX MIN COPY FILL SCALE; x_o = mul(add(a, -b), c) is the operand of the
// composite functions (EXP2 RECIP RSQRT), which run on the CL composite lanes
// (otpu_vpu_comp). Combinational, with the fp32 functions of otpu_fp_pkg: y_o is computed only
// while y_en_i and x_o only while x_en_i (0 otherwise), and only fn_i's operation, so the
// simulator does no arithmetic in the cycles that do not use it (docs/rtl.md "Simulation
// speed").
module otpu_vpu_lane
  import otpu_pkg::*;
  import otpu_fp_pkg::*;
(
  input  logic        y_en_i,
  input  logic        x_en_i,
  input  logic [7:0]  fn_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] y_o,
  output logic [31:0] x_o
);

  // m: MUL multiplies A and B; SCALE and the composite operand multiply s = add(a, -b) by C
  // (add(a, b) for ADD).
  function automatic logic [31:0] lane_m(logic [7:0] fn, logic [31:0] a, logic [31:0] b,
                                         logic [31:0] c);
    if (fn == VOP_MUL) begin
      return fp_mul(a, b);
    end
    return fp_mul(fp_add(a, b, fn != VOP_ADD), c);
  endfunction

  always_comb begin
    y_o = 32'd0;
    x_o = 32'd0;
    if (y_en_i) begin
      case (fn_i)
        VOP_ADD:          y_o = fp_add(a_i, b_i, 1'b0);
        VOP_SUB:          y_o = fp_add(a_i, b_i, 1'b1);
        VOP_MAX, VOP_MIN: y_o = fp_minmax(a_i, b_i, fn_i == VOP_MAX);
        VOP_COPY:         y_o = a_i;
        VOP_FILL:         y_o = b_i;
        default:          y_o = lane_m(fn_i, a_i, b_i, c_i);  // MUL, SCALE
      endcase
    end
    if (x_en_i) begin
      x_o = lane_m(fn_i, a_i, b_i, c_i);
    end
  end

endmodule : otpu_vpu_lane
