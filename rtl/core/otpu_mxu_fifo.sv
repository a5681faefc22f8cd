// A tagged reorder FIFO of the MXU (docs/rtl-core.md "MXU"): a slot is allocated when its DRAM
// request is accepted (the slot index is the request's tag) and filled when the response with
// that tag arrives, in any order; the consumer pops filled slots in allocation order, up to
// two a cycle (head_o and head2_o are the oldest two). DEPTH is a power of two.
module otpu_mxu_fifo #(
  parameter int unsigned WIDTH = 256,
  parameter int unsigned DEPTH = 128
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // allocation (a request accepted this cycle)
  input  logic                     alloc_i,
  output logic [$clog2(DEPTH)-1:0] alloc_tag_o,
  output logic                     full_o,
  // fill (a response)
  input  logic                     fill_i,
  input  logic [$clog2(DEPTH)-1:0] fill_tag_i,
  input  logic [WIDTH-1:0]         fill_data_i,
  // the oldest two slots
  output logic                     head_valid_o,
  output logic [WIDTH-1:0]         head_o,
  output logic                     head2_valid_o,
  output logic [WIDTH-1:0]         head2_o,
  input  logic [1:0]               pop_i,         // 0, 1 or 2 (only filled slots)
  output logic [$clog2(DEPTH):0]   count_o        // allocated, not popped
);

  localparam int unsigned PW = $clog2(DEPTH);

  logic [WIDTH-1:0] mem_q [DEPTH];
  logic [DEPTH-1:0] filled_q;
  logic [PW-1:0]    wr_q, rd_q, rd2;
  logic [PW:0]      count_q;

  // Next state inside the always_ff (once a cycle), not as _d signals that the simulator
  // settles on every evaluation of the inputs (docs/rtl.md "Simulation speed").
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      filled_q <= '0;
      wr_q     <= '0;
      rd_q     <= '0;
      count_q  <= '0;
    end else begin
      if (fill_i) begin
        filled_q[fill_tag_i] <= 1'b1;
      end
      if (pop_i != 2'd0) begin
        filled_q[rd_q] <= 1'b0;
      end
      if (pop_i == 2'd2) begin
        filled_q[rd2] <= 1'b0;
      end
      if (alloc_i) begin
        wr_q <= wr_q + 1'b1;
      end
      rd_q    <= rd_q + PW'(pop_i);
      count_q <= count_q + (PW + 1)'(alloc_i) - (PW + 1)'(pop_i);
    end
  end

  always_ff @(posedge clk_i) begin
    if (fill_i) begin
      mem_q[fill_tag_i] <= fill_data_i;
    end
  end

  assign rd2           = rd_q + 1'b1;
  assign alloc_tag_o   = wr_q;
  assign full_o        = (count_q == (PW + 1)'(DEPTH));
  assign head_valid_o  = (count_q != '0) && filled_q[rd_q];
  assign head_o        = mem_q[rd_q];
  assign head2_valid_o = (count_q > (PW + 1)'(1)) && filled_q[rd2];
  assign head2_o       = mem_q[rd2];
  assign count_o       = count_q;

endmodule : otpu_mxu_fifo
