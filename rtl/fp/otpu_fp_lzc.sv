// Leading-zero count and normalising shift of a Width-bit vector, as a log2(Width)-stage
// shifter: stage i tests whether the top 2^(k-1-i) bits are zero and, if so, shifts them out.
// cnt_o = zeros above the most significant one, norm_o = x_i << cnt_o (its msb set);
// zero_o when x_i is all zeros (cnt_o and norm_o are then 2^k - 1 and 0). Combinational.
module otpu_fp_lzc #(
  parameter int unsigned Width = 32
) (
  input  logic [Width-1:0]         x_i,
  output logic [$clog2(Width)-1:0] cnt_o,
  output logic [Width-1:0]         norm_o,
  output logic                     zero_o
);

  localparam int unsigned Stages = $clog2(Width);
  localparam int unsigned PadWidth = 1 << Stages;

  // Zeros pad Width up to a power of two at the bottom; they never reach the top Width bits
  // of a nonzero input's result.
  logic [PadWidth-1:0] padded;
  if (PadWidth > Width) begin : gen_pad
    assign padded = {x_i, {(PadWidth - Width){1'b0}}};
  end else begin : gen_no_pad
    assign padded = x_i;
  end

  // Stage i consumes gen_stage[i-1].shifted (or padded) and decides count bit Stages-1-i.
  for (genvar i = 0; i < Stages; i++) begin : gen_stage
    localparam int unsigned Span = 1 << (Stages - 1 - i);
    logic [PadWidth-1:0] in, shifted;
    logic                top_zero;
    if (i == 0) begin : gen_first
      assign in = padded;
    end else begin : gen_next
      assign in = gen_stage[i-1].shifted;
    end
    assign top_zero = ~|in[PadWidth-1 -: Span];
    assign shifted  = top_zero ? (in << Span) : in;
    assign cnt_o[Stages-1-i] = top_zero;
  end

  logic [PadWidth-1:0] last;
  assign last   = gen_stage[Stages-1].shifted;
  assign norm_o = last[PadWidth-1 -: Width];
  assign zero_o = ~|x_i;

  if (PadWidth > Width) begin : gen_unused_pad
    logic [PadWidth-Width-1:0] unused_pad;
    assign unused_pad = last[PadWidth-Width-1:0];
  end

endmodule : otpu_fp_lzc
