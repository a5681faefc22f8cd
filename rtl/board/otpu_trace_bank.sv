// One bank of the trace buffer (records whose index mod 8 is BANK): a RAM with one write port
// and two registered read ports (TRACE_LO/HI readout and the DMA window), the shape of a block
// RAM. The write port takes the cycle's lines (lane k is record widx_i + k) and stores the one
// that falls in this bank; a read port reads only when enabled, its output holds otherwise.
// Everything happens at the edge, under its enable, so an idle bank costs a simulator three
// bit tests a cycle (docs/rtl.md "Simulation speed").
module otpu_trace_bank #(
  parameter int unsigned  Words = 8192,
  parameter int unsigned  BANK  = 0,      // 0..7
  localparam int unsigned AddrW = Words > 1 ? $clog2(Words) : 1
) (
  input  logic                 clk_i,
  input  logic                 we_i,       // the cycle's line (BANK - widx_i) mod 8 lands here
  input  logic                 clear_i,    // ... unless the unit is cleared in this cycle
  input  logic [AddrW+2:0]     widx_i,     // the record index of lane 0 (mod 8 Words)
  input  logic [7:0][63:0]     lanes_i,    // the cycle's lines, oldest first
  input  logic                 rd_a_en_i,
  input  logic [AddrW-1:0]     raddr_a_i,
  output logic [63:0]          rdata_a_o,
  input  logic                 rd_b_en_i,
  input  logic [AddrW-1:0]     raddr_b_i,
  output logic [63:0]          rdata_b_o
);
  logic [63:0] mem_q[Words];

  // The reads come first and the write is blocking: a read of the entry written at the same
  // edge returns the old record, as with a non-blocking write, and mem_q is this process's
  // own, so no delayed-write copy is set up at every edge.
  always_ff @(posedge clk_i) begin
    logic [2:0] k;
    if (rd_a_en_i) rdata_a_o <= mem_q[raddr_a_i];
    if (rd_b_en_i) rdata_b_o <= mem_q[raddr_b_i];
    if (we_i && !clear_i) begin
      // Lane k is record widx_i + k: the next row when it wraps past bank 7.
      k = 3'(BANK) - widx_i[2:0];
      mem_q[widx_i[AddrW+2:3] + AddrW'({1'b0, widx_i[2:0]} + {1'b0, k} >= 4'd8)] = lanes_i[k];
    end
  end

endmodule
