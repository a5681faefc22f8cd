// A unit's TMEM lanes for a group of cnt_i consecutive words from base_i (docs/rtl-core.md
// "TMEM"): element e of the group lives in bank (base_i + e) mod LANES, which is its lane. The
// request's mask and addresses are computed only while req_i, and the banks' read data turned
// into element order only while rd_i (a granted read); all are 0 otherwise: as per-lane
// assigns they would run every cycle (docs/rtl.md "Simulation speed"). QUANT and the VPU
// request their groups through it.
module otpu_tm_lanes #(
  parameter int unsigned  LANES = 8,
  parameter int unsigned  AW    = 16,
  localparam int unsigned LB    = $clog2(LANES)
) (
  input  logic                     req_i,
  input  logic [AW-1:0]            base_i,
  input  logic [LB:0]              cnt_i,    // 1 .. LANES
  output logic [LANES-1:0]         mask_o,
  output logic [LANES-1:0][AW-1:0] addr_o,
  input  logic                     rd_i,
  input  logic [LANES-1:0][31:0]   rdata_i,  // bank l's word on lane l
  output logic [LANES-1:0][31:0]   elem_o    // element e of the group
);

  logic [LB-1:0] rot;
  assign rot = base_i[LB-1:0];

  always_comb begin
    logic [LB-1:0] e;
    e      = '0;
    mask_o = '0;
    addr_o = '0;
    if (req_i) begin
      for (int l = 0; l < int'(LANES); l++) begin
        e         = LB'(l) - rot;
        mask_o[l] = {1'b0, e} < cnt_i;
        addr_o[l] = base_i + AW'(e);
      end
    end
  end

  always_comb begin
    logic [LB-1:0] src;
    src    = '0;
    elem_o = '0;
    if (rd_i) begin
      for (int l = 0; l < int'(LANES); l++) begin
        src       = LB'(l) + rot;
        elem_o[l] = rdata_i[src];
      end
    end
  end

endmodule : otpu_tm_lanes
