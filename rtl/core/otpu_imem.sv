// IMEM (docs/rtl-core.md "IMEM"): IMEM_WORDS instructions of 256 bits, one write port for
// loading, one registered read port for the sequencer's fetch.
module otpu_imem
  import otpu_core_pkg::*;
#(
  parameter int unsigned  IMEM_WORDS = 4096,
  localparam int unsigned Aw         = $clog2(IMEM_WORDS)
) (
  input  logic               clk_i,
  input  logic               we_i,
  input  logic [Aw-1:0]      waddr_i,
  input  logic [INSTR_W-1:0] wdata_i,
  input  logic [Aw-1:0]      raddr_i,
  output logic [INSTR_W-1:0] rdata_o
);

  logic [INSTR_W-1:0] mem_q[IMEM_WORDS];
  logic [INSTR_W-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_q[waddr_i] <= wdata_i;
    end
    rdata_q <= mem_q[raddr_i];
  end

  assign rdata_o = rdata_q;

endmodule : otpu_imem
