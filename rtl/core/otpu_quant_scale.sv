// The block quantizer's constants (docs/isa.md "Numerics", block quantizer) from a block's
// amax: inv = mul(127.0, recip(amax)) and scale = mul(amax, fp32(1/127)); amax = +0 gives
// scale +0 (and inv makes every value 0). Combinational; the same functions and order as
// sim/isa/fp32.cc. inv_o is computed only while inv_en_i, scale_o only while scale_en_i (0
// otherwise), so the simulator runs the recip chain only in the cycles that use it (docs/rtl.md
// "Simulation speed").
module otpu_quant_scale
  import otpu_fp_pkg::*;
(
  input  logic        inv_en_i,
  input  logic        scale_en_i,
  input  logic [31:0] amax_i,
  output logic [31:0] inv_o,
  output logic [31:0] scale_o
);

  localparam logic [31:0] FP_127     = 32'h42FE_0000;
  localparam logic [31:0] FP_INV_127 = 32'h3C01_0204;

  always_comb begin
    inv_o   = 32'd0;
    scale_o = 32'd0;
    if (inv_en_i) begin
      inv_o = fp_mul(FP_127, fp_recip(amax_i));
    end
    if (scale_en_i && amax_i != 32'd0) begin
      scale_o = fp_mul(amax_i, FP_INV_127);
    end
  end

endmodule : otpu_quant_scale
