// One bank of the trace buffer (records whose index mod 8 is this bank's): a RAM with one
// write port and two registered read ports (TRACE_LO/HI readout and the DMA window), the
// shape of a block RAM.
module otpu_trace_bank #(
  parameter int unsigned Words = 8192,
  localparam int unsigned AddrW = Words > 1 ? $clog2(Words) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [63:0]      wdata_i,
  input  logic [AddrW-1:0] raddr_a_i,
  output logic [63:0]      rdata_a_o,
  input  logic [AddrW-1:0] raddr_b_i,
  output logic [63:0]      rdata_b_o
);
  logic [63:0] mem_q[Words];

  always_ff @(posedge clk_i) begin
    if (we_i) begin
      mem_q[waddr_i] <= wdata_i;
    end
    rdata_a_o <= mem_q[raddr_a_i];
    rdata_b_o <= mem_q[raddr_b_i];
  end

endmodule
