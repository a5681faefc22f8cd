// The row reductions of VOP (docs/isa.md RSUM RMAX RSSQ): LANES partial sums, element j
// going to partial j mod LANES, then the pairwise fold tree and the final mul by C.
// Combinational: p_o is the partials after adding one group of elements (a_i, lanes where
// mask_i is set; lane e holds element j0 + e of a group starting at a multiple of LANES),
// y_o = mul(fold(p_i), c_i) is the row's result once every group is in.
module otpu_vpu_red
  import otpu_pkg::*;
#(
  parameter int unsigned LANES = 8
) (
  input  logic [7:0]             fn_i,
  input  logic [LANES-1:0][31:0] p_i,
  input  logic [LANES-1:0][31:0] a_i,
  input  logic [LANES-1:0]       mask_i,
  input  logic [31:0]            c_i,
  output logic [LANES-1:0][31:0] p_o,
  output logic [31:0]            y_o
);

  localparam int unsigned Levels = $clog2(LANES);
  localparam int unsigned Nodes  = 2 * LANES - 1;

  logic is_max;
  assign is_max = (fn_i == VOP_RMAX);

  ///////////////////////
  // Partial update    //
  ///////////////////////

  for (genvar e = 0; e < LANES; e++) begin : gen_partial
    logic [31:0] sq, term, sum, mx;

    otpu_fp_mul u_sq (
      .a_i(a_i[e]),
      .b_i(a_i[e]),
      .y_o(sq)
    );

    assign term = (fn_i == VOP_RSSQ) ? sq : a_i[e];

    otpu_fp_add u_sum (
      .a_i  (p_i[e]),
      .b_i  (term),
      .sub_i(1'b0),
      .y_o  (sum)
    );

    otpu_fp_minmax u_max (
      .a_i  (p_i[e]),
      .b_i  (a_i[e]),
      .max_i(1'b1),
      .y_o  (mx)
    );

    assign p_o[e] = !mask_i[e] ? p_i[e] : (is_max ? mx : sum);
  end

  ///////////////
  // Fold tree //
  ///////////////

  // node[] holds level 0 (the partials) at 0..LANES-1, then each level after the previous:
  // level l (1..Levels) has LANES >> l nodes from offset 2*LANES - (LANES >> (l-1)), and
  // node i of level l = op(node i, node i + h of level l-1) with h = LANES >> l.
  logic [Nodes-1:0][31:0] node;
  assign node[LANES-1:0] = p_i;

  for (genvar l = 1; l <= Levels; l++) begin : gen_level
    localparam int unsigned H    = LANES >> l;
    localparam int unsigned Prev = (l == 1) ? 0 : 2 * LANES - (LANES >> (l - 2));
    localparam int unsigned Base = 2 * LANES - (LANES >> (l - 1));
    for (genvar i = 0; i < H; i++) begin : gen_node
      logic [31:0] sum, mx;

      otpu_fp_add u_add (
        .a_i  (node[Prev + i]),
        .b_i  (node[Prev + i + H]),
        .sub_i(1'b0),
        .y_o  (sum)
      );

      otpu_fp_minmax u_max (
        .a_i  (node[Prev + i]),
        .b_i  (node[Prev + i + H]),
        .max_i(1'b1),
        .y_o  (mx)
      );

      assign node[Base + i] = is_max ? mx : sum;
    end
  end

  otpu_fp_mul u_scale (
    .a_i(node[Nodes-1]),
    .b_i(c_i),
    .y_o(y_o)
  );

endmodule : otpu_vpu_red
