// The row reductions of VOP (docs/isa.md RSUM RMAX RSSQ): LANES partial sums, element j
// going to partial j mod LANES, then the pairwise fold tree and the final mul by C.
// Combinational: p_o is the partials after adding one group of elements (a_i, lanes where
// mask_i is set; lane e holds element j0 + e of a group starting at a multiple of LANES),
// y_o = mul(fold(p_i), c_i) is the row's result once every group is in. p_o is computed only
// while p_en_i (p_i otherwise) and y_o only while y_en_i (0 otherwise), with the fp32
// functions of otpu_fp_pkg, so the simulator folds nothing in the cycles that do not use it
// (docs/rtl.md "Simulation speed").
module otpu_vpu_red
  import otpu_pkg::*;
  import otpu_fp_pkg::*;
#(
  parameter int unsigned LANES = 8
) (
  input  logic                   p_en_i,
  input  logic                   y_en_i,
  input  logic [7:0]             fn_i,
  input  logic [LANES-1:0][31:0] p_i,
  input  logic [LANES-1:0][31:0] a_i,
  input  logic [LANES-1:0]       mask_i,
  input  logic [31:0]            c_i,
  output logic [LANES-1:0][31:0] p_o,
  output logic [31:0]            y_o
);

  localparam int unsigned Levels = $clog2(LANES);

  logic is_max;
  assign is_max = (fn_i == VOP_RMAX);

  // The partials: max, or add of the element (its square for RSSQ).
  always_comb begin
    p_o = p_i;
    if (p_en_i) begin
      for (int e = 0; e < int'(LANES); e++) begin
        if (mask_i[e]) begin
          if (is_max) begin
            p_o[e] = fp_minmax(p_i[e], a_i[e], 1'b1);
          end else if (fn_i == VOP_RSSQ) begin
            p_o[e] = fp_add(p_i[e], fp_mul(a_i[e], a_i[e]), 1'b0);
          end else begin
            p_o[e] = fp_add(p_i[e], a_i[e], 1'b0);
          end
        end
      end
    end
  end

  // The fold tree: level l (1..Levels) has h = LANES >> l nodes, node i = op(node i, node
  // i + h) of the level before (in place: node i + h is not yet overwritten).
  logic [LANES-1:0][31:0] node;
  always_comb begin
    node = p_i;
    y_o  = 32'd0;
    if (y_en_i) begin
      for (int l = 1; l <= int'(Levels); l++) begin
        for (int i = 0; i < int'(LANES >> l); i++) begin
          node[i] = is_max ? fp_minmax(node[i], node[i + int'(LANES >> l)], 1'b1)
                           : fp_add(node[i], node[i + int'(LANES >> l)], 1'b0);
        end
      end
      y_o = fp_mul(node[0], c_i);
    end
  end

endmodule : otpu_vpu_red
