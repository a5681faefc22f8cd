// One composite VPU lane (docs/isa.md VOP EXP2 RECIP RSQRT): the function selected by fn_i
// on the operand x_i = mul(add(A, -B), C) that an otpu_vpu_lane formed. Combinational; only
// CL of these exist, so a group of LANES elements takes ceil(LANES / CL) steps.
module otpu_vpu_comp
  import otpu_pkg::*;
(
  input  logic [7:0]  fn_i,
  input  logic [31:0] x_i,
  output logic [31:0] y_o
);

  logic [31:0] exp2_y, recip_y, rsqrt_y;

  otpu_fp_exp2 u_exp2 (
    .x_i(x_i),
    .y_o(exp2_y)
  );

  otpu_fp_recip u_recip (
    .x_i(x_i),
    .y_o(recip_y)
  );

  otpu_fp_rsqrt u_rsqrt (
    .x_i(x_i),
    .y_o(rsqrt_y)
  );

  always_comb begin
    unique case (fn_i)
      VOP_EXP2:  y_o = exp2_y;
      VOP_RECIP: y_o = recip_y;
      default:   y_o = rsqrt_y;  // RSQRT
    endcase
  end

endmodule : otpu_vpu_comp
