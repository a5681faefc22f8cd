// Test top for the Verilator check (tests/rtl/fp): every fp32 unit on the same two inputs,
// so one model and one eval per vector exercise them all. Not part of the accelerator.
module otpu_fp_testtop (
  input  logic [31:0] a_i,
  input  logic [31:0] b_i,
  input  logic        sub_i,     // otpu_fp_add: a - b instead of a + b
  output logic [31:0] add_o,     // a + b, or a - b with sub_i
  output logic [31:0] mul_o,     // a * b
  output logic [31:0] max_o,     // max(a, b)
  output logic [31:0] min_o,     // min(a, b)
  output logic [31:0] exp2_o,    // exp2(a)
  output logic [31:0] recip_o,   // recip(a)
  output logic [31:0] rsqrt_o,   // rsqrt(a)
  output logic [7:0]  quant_o,   // clamp(rne(a * b)) with b as the quantizer's inv
  output logic [31:0] from_int_o // a read as int32
);

  otpu_fp_add u_add (
    .a_i  (a_i),
    .b_i  (b_i),
    .sub_i(sub_i),
    .y_o  (add_o)
  );

  otpu_fp_mul u_mul (
    .a_i(a_i),
    .b_i(b_i),
    .y_o(mul_o)
  );

  otpu_fp_minmax u_max (
    .a_i  (a_i),
    .b_i  (b_i),
    .max_i(1'b1),
    .y_o  (max_o)
  );

  otpu_fp_minmax u_min (
    .a_i  (a_i),
    .b_i  (b_i),
    .max_i(1'b0),
    .y_o  (min_o)
  );

  otpu_fp_exp2 u_exp2 (
    .x_i(a_i),
    .y_o(exp2_o)
  );

  otpu_fp_recip u_recip (
    .x_i(a_i),
    .y_o(recip_o)
  );

  otpu_fp_rsqrt u_rsqrt (
    .x_i(a_i),
    .y_o(rsqrt_o)
  );

  otpu_fp_quant u_quant (
    .x_i  (a_i),
    .inv_i(b_i),
    .q_o  (quant_o)
  );

  otpu_fp_from_int u_from_int (
    .v_i(a_i),
    .y_o(from_int_o)
  );

endmodule : otpu_fp_testtop
