// QST's port-A writer (docs/rtl-core.md "QUANT"): turns groups of quantized bytes into 32-bit
// word writes with byte enables, and writes the scale words. Contiguous bytes (stride 1) are
// gathered: a word is written once it is complete, and a partial word waits for the next group
// of the same row or for flush_i at the row's end, so a row costs the words it touches.
// Strided bytes are written one masked word each. One command at a time: load_i, flush_i and
// word_i are taken only while idle_o. Writes leave in the order the ISA lists them.
module otpu_quant_wr
  import otpu_core_pkg::*;
#(
  parameter int unsigned LANES = 8
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // commands
  input  logic                   load_i,        // write bytes_i[0 .. count_i)
  input  logic [LANES-1:0][7:0]  bytes_i,
  input  logic [$clog2(LANES):0] count_i,
  input  logic [31:0]            addr_i,        // byte address of bytes_i[0]
  input  logic [31:0]            stride_i,      // bytes between consecutive bytes (1: gather)
  input  logic                   flush_i,       // write the gathered partial word, if any
  input  logic                   word_i,        // write one whole word
  input  logic [31:0]            word_addr_i,
  input  logic [31:0]            word_data_i,
  output logic                   idle_o,
  // port A (writes only)
  output logic                   a_valid_o,
  input  logic                   a_ready_i,
  output logic                   a_we_o,
  output logic [31:0]            a_addr_o,
  output logic [31:0]            a_wdata_o,
  output logic [3:0]             a_be_o,
  output logic [TAG_W-1:0]       a_tag_o
);

  localparam int unsigned LB = $clog2(LANES);

  typedef enum logic [1:0] {
    WrIdle,
    WrBytes,
    WrFlush,
    WrWord
  } wr_state_e;

  wr_state_e              state_q;
  logic [LANES-1:0][7:0]  buf_q;
  logic [LB:0]            cnt_q;
  logic [31:0]            addr_q, stride_q;
  logic                   gather_q;
  // The gathered partial word: its word address, bytes and enables.
  logic                   acc_v_q;
  logic [29:0]            acc_word_q;
  logic [31:0]            acc_data_q;
  logic [3:0]             acc_be_q;
  logic [31:0]            word_addr_q, word_data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= WrIdle;
      buf_q       <= '0;
      cnt_q       <= '0;
      addr_q      <= '0;
      stride_q    <= '0;
      gather_q    <= 1'b0;
      acc_v_q     <= 1'b0;
      acc_word_q  <= '0;
      acc_data_q  <= '0;
      acc_be_q    <= '0;
      word_addr_q <= '0;
      word_data_q <= '0;
    end else begin
      case (state_q)
        WrIdle: begin
          if (load_i && count_i != '0) begin
            buf_q    <= bytes_i;
            cnt_q    <= count_i;
            addr_q   <= addr_i;
            stride_q <= stride_i;
            gather_q <= (stride_i == 32'd1);
            state_q  <= WrBytes;
          end else if (flush_i && acc_v_q) begin
            state_q <= WrFlush;
          end else if (word_i) begin
            word_addr_q <= word_addr_i;
            word_data_q <= word_data_i;
            state_q     <= WrWord;
          end
        end
        WrBytes: begin
          if (!complete || a_ready_i) begin
            // Consume `take` bytes; an incomplete word stays gathered for the next group.
            buf_q <= buf_q >> (8 * int'(take));
            cnt_q <= cnt_q - (LB + 1)'(take);
            if (gather_q) begin
              addr_q     <= addr_q + 32'(take);
              acc_v_q    <= !complete;
              acc_word_q <= addr_q[31:2];
              acc_data_q <= merged_data;
              acc_be_q   <= merged_be;
            end else begin
              addr_q <= addr_q + stride_q;
            end
            if (cnt_q == (LB + 1)'(take)) begin
              state_q <= WrIdle;
            end
          end
        end
        WrFlush: begin
          if (a_ready_i) begin
            acc_v_q <= 1'b0;
            state_q <= WrIdle;
          end
        end
        WrWord: begin
          if (a_ready_i) begin
            state_q <= WrIdle;
          end
        end
        default: begin
          state_q <= WrIdle;
        end
      endcase
    end
  end

  ///////////////////////////
  // The word of this step //
  ///////////////////////////

  // Gathering takes the bytes up to the end of the current word (take = 1..4); a strided step
  // takes one byte. merged_* is the word with those bytes added.
  logic [1:0]  off;
  logic [2:0]  room, take;
  logic [31:0] merged_data;
  logic [3:0]  merged_be;
  logic        complete;
  assign off  = addr_q[1:0];
  assign room = 3'd4 - {1'b0, off};

  always_comb begin
    take = 3'd1;
    if (gather_q) begin
      take = (int'(cnt_q) < int'(room)) ? 3'(cnt_q) : room;
    end
    merged_data = gather_q && acc_v_q ? acc_data_q : 32'd0;
    merged_be   = gather_q && acc_v_q ? acc_be_q : 4'd0;
    for (int i = 0; i < 4; i++) begin
      if (i >= int'(off) && i < int'(off) + int'(take)) begin
        merged_data[8*i +: 8] = buf_q[i - int'(off)];
        merged_be[i]          = 1'b1;
      end
    end
    complete = !gather_q || (int'(off) + int'(take) == 4);
  end

  /////////////
  // Port A  //
  /////////////

  always_comb begin
    a_valid_o = 1'b0;
    a_addr_o  = {addr_q[31:2], 2'b00};
    a_wdata_o = merged_data;
    a_be_o    = merged_be;
    case (state_q)
      WrBytes: a_valid_o = complete;
      WrFlush: begin
        a_valid_o = 1'b1;
        a_addr_o  = {acc_word_q, 2'b00};
        a_wdata_o = acc_data_q;
        a_be_o    = acc_be_q;
      end
      WrWord: begin
        a_valid_o = 1'b1;
        a_addr_o  = word_addr_q;
        a_wdata_o = word_data_q;
        a_be_o    = 4'hF;
      end
      default: ;
    endcase
  end
  assign a_we_o  = 1'b1;
  assign a_tag_o = '0;
  assign idle_o  = (state_q == WrIdle);

endmodule : otpu_quant_wr
