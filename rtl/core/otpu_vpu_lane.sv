// One VPU lane: the element-wise functions of VOP (docs/isa.md) on one element. y_o is the
// result of ADD SUB MUL MAX MIN COPY FILL SCALE; x_o = mul(add(a, -b), c) is the operand of the
// composite functions (EXP2 RECIP RSQRT), which run on the CL composite lanes
// (otpu_vpu_comp). Combinational.
module otpu_vpu_lane
  import otpu_pkg::*;
(
  input  logic [7:0]  fn_i,
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic [31:0] c_i,
  output logic [31:0] y_o,
  output logic [31:0] x_o
);

  // s = add(a, b) for ADD, add(a, -b) for everything else that uses it.
  logic [31:0] s;
  otpu_fp_add u_add (
    .a_i  (a_i),
    .b_i  (b_i),
    .sub_i(fn_i != VOP_ADD),
    .y_o  (s)
  );

  // MUL multiplies A and B; SCALE and the composite operand multiply s by C.
  logic        is_mul;
  logic [31:0] m;
  assign is_mul = (fn_i == VOP_MUL);
  otpu_fp_mul u_mul (
    .a_i(is_mul ? a_i : s),
    .b_i(is_mul ? b_i : c_i),
    .y_o(m)
  );

  logic [31:0] mm;
  otpu_fp_minmax u_minmax (
    .a_i  (a_i),
    .b_i  (b_i),
    .max_i(fn_i == VOP_MAX),
    .y_o  (mm)
  );

  always_comb begin
    unique case (fn_i)
      VOP_ADD, VOP_SUB: y_o = s;
      VOP_MAX, VOP_MIN: y_o = mm;
      VOP_COPY:         y_o = a_i;
      VOP_FILL:         y_o = b_i;
      default:          y_o = m;  // MUL, SCALE
    endcase
  end

  assign x_o = m;

endmodule : otpu_vpu_lane
