// A synchronous FIFO: push and pop in the same cycle are fine, the head is visible from the
// cycle after its push. Used for the sequencer's per-unit slot queues and the DMA's write
// queue. Pushing when full or popping when empty is the caller's bug (an assertion
// below states it; see there for when it is checked).
module otpu_fifo #(
  parameter int unsigned Width = 4,
  parameter int unsigned Depth = 16
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             clear_i,  // drop every entry
  input  logic             push_i,
  input  logic [Width-1:0] data_i,
  input  logic             pop_i,
  output logic [Width-1:0] data_o,   // the head, valid when !empty_o
  output logic             empty_o,
  output logic             full_o
);

  localparam int unsigned PtrW = Depth > 1 ? $clog2(Depth) : 1;
  localparam int unsigned CntW = $clog2(Depth + 1);

  logic [Width-1:0] mem_q[Depth];
  logic [PtrW-1:0]  rptr_q, wptr_q;
  logic [CntW-1:0]  cnt_q;

  function automatic logic [PtrW-1:0] next_ptr(logic [PtrW-1:0] p);
    return p == PtrW'(Depth - 1) ? '0 : p + PtrW'(1);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rptr_q <= '0;
      wptr_q <= '0;
      cnt_q  <= '0;
    end else begin
      if (clear_i) begin
        rptr_q <= '0;
        wptr_q <= '0;
        cnt_q  <= '0;
      end else begin
        if (push_i) begin
          wptr_q <= next_ptr(wptr_q);
        end
        if (pop_i) begin
          rptr_q <= next_ptr(rptr_q);
        end
        cnt_q <= cnt_q + CntW'(push_i) - CntW'(pop_i);
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i && !clear_i) begin
      mem_q[wptr_q] <= data_i;
    end
  end

  assign data_o  = mem_q[rptr_q];
  assign empty_o = cnt_q == '0;
  assign full_o  = cnt_q == CntW'(Depth);

  ////////////////
  // Assertions //
  ////////////////

  // The bounds (every model runs with `--assert`: docs/regress.md "Assertions"). Sensitive to
  // the reset like the registers (a synchronous use of rst_ni is SYNCASYNCNET).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && !clear_i) begin
      FifoNoPushWhenFull: assert (!(push_i && full_o && !pop_i))
        else $error("otpu_fifo: push when full");
      FifoNoPopWhenEmpty: assert (!(pop_i && empty_o))
        else $error("otpu_fifo: pop when empty");
      FifoCountInDepth: assert (cnt_q <= CntW'(Depth))
        else $error("otpu_fifo: %0d entries in a FIFO of %0d", cnt_q, Depth);
    end
  end

endmodule : otpu_fifo
