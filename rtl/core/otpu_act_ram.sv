// ACT RAM (docs/rtl-core.md "ACT RAM"): ACT_ROWS rows of ACT_BLOCKS blocks, each block D int8
// values (element e in bits 8e +: 8) and one fp32 scale. QUANT writes one block and its scale
// a cycle, the host one while the core is idle. The MXU reads blocks b and b+1 of every row
// at once, in the same cycle: a 4-bit weight chunk covers two blocks. Even and odd blocks
// live in separate banks, so that is one read per bank. The host port reads one (row, block)
// for tests and debug, while host_en_i (the core is not running).
// Only the rows the MXU's columns use are read: column c's from row rd_row_i + c (mod
// ACT_ROWS), and only while rd_en_i[c] (0 otherwise); copying every row every cycle is most of
// what a simulator spends here (docs/rtl.md "Simulation speed").
module otpu_act_ram #(
  parameter int unsigned  D          = 32,
  parameter int unsigned  MCOLS      = 8,
  parameter int unsigned  ACT_ROWS   = 16,
  parameter int unsigned  ACT_BLOCKS = 128,   // even
  localparam int unsigned RowW       = $clog2(ACT_ROWS),
  localparam int unsigned BlkW       = $clog2(ACT_BLOCKS)
) (
  input  logic                                clk_i,
  // Write (QUANT)
  input  logic                                we_i,
  input  logic [RowW-1:0]                     wr_row_i,
  input  logic [BlkW-1:0]                     wr_block_i,
  input  logic [D*8-1:0]                      wr_data_i,
  input  logic [31:0]                         wr_scale_i,
  // Host write (never in the same cycle as a QUANT write: the core is idle then). A port of
  // its own rather than a mux in front of the QUANT one: a simulator evaluates a port's
  // expression every cycle, and this one would copy a whole block.
  input  logic                                host_we_i,
  input  logic [RowW-1:0]                     host_wrow_i,
  input  logic [BlkW-1:0]                     host_wblock_i,
  input  logic [D*8-1:0]                      host_wdata_i,
  input  logic [31:0]                         host_wscale_i,
  // Read (MXU): blocks b and b+1 of rows rd_row_i + c, c = 0 .. MCOLS - 1 with rd_en_i[c]
  input  logic [MCOLS-1:0]                    rd_en_i,
  input  logic [RowW-1:0]                     rd_row_i,
  input  logic [BlkW-1:0]                     rd_block_i,
  output logic [MCOLS-1:0][1:0][D*8-1:0]      rd_data_o,
  output logic [MCOLS-1:0][1:0][31:0]         rd_scale_o,
  // Host read, while host_en_i (0 otherwise)
  input  logic                                host_en_i,
  input  logic [RowW-1:0]                     host_row_i,
  input  logic [BlkW-1:0]                     host_block_i,
  output logic [D*8-1:0]                      host_data_o,
  output logic [31:0]                         host_scale_o
);

  localparam int unsigned Half = ACT_BLOCKS / 2;

  // Bank k (0 even, 1 odd) holds block 2i + k at index i.
  logic [BlkW-2:0] rd_idx[2];
  logic [BlkW-1:0] rd_next;
  assign rd_next   = rd_block_i + BlkW'(1);
  assign rd_idx[0] = rd_block_i[0] ? rd_next[BlkW-1:1] : rd_block_i[BlkW-1:1];
  assign rd_idx[1] = rd_block_i[BlkW-1:1];

  // Bank k (0 even, 1 odd blocks): [row][block / 2].
  for (genvar k = 0; k < 2; k++) begin : gen_bank
    logic [D*8-1:0] data_q[ACT_ROWS][Half];
    logic [31:0]    scale_q[ACT_ROWS][Half];
    // One write of each memory, QUANT's or else the host's: a simulator sets up a delayed
    // write at every cycle for each place a memory is written.
    logic quant_we, host_we;
    assign quant_we = we_i && wr_block_i[0] == 1'(k);
    assign host_we  = host_we_i && host_wblock_i[0] == 1'(k);
    always_ff @(posedge clk_i) begin
      if (quant_we || host_we) begin
        data_q[quant_we ? wr_row_i : host_wrow_i]
              [quant_we ? wr_block_i[BlkW-1:1] : host_wblock_i[BlkW-1:1]] <=
            quant_we ? wr_data_i : host_wdata_i;
        scale_q[quant_we ? wr_row_i : host_wrow_i]
               [quant_we ? wr_block_i[BlkW-1:1] : host_wblock_i[BlkW-1:1]] <=
            quant_we ? wr_scale_i : host_wscale_i;
      end
    end
  end

  // Block b comes from bank b mod 2, block b+1 from the other one.
  logic [RowW-1:0] rd_row;
  always_comb begin
    rd_data_o  = '0;
    rd_scale_o = '0;
    rd_row     = '0;
    for (int c = 0; c < int'(MCOLS); c++) begin
      if (rd_en_i[c]) begin
        rd_row = rd_row_i + RowW'(c);
        if (rd_block_i[0]) begin
          rd_data_o[c][0]  = gen_bank[1].data_q[rd_row][rd_idx[1]];
          rd_scale_o[c][0] = gen_bank[1].scale_q[rd_row][rd_idx[1]];
          rd_data_o[c][1]  = gen_bank[0].data_q[rd_row][rd_idx[0]];
          rd_scale_o[c][1] = gen_bank[0].scale_q[rd_row][rd_idx[0]];
        end else begin
          rd_data_o[c][0]  = gen_bank[0].data_q[rd_row][rd_idx[0]];
          rd_scale_o[c][0] = gen_bank[0].scale_q[rd_row][rd_idx[0]];
          rd_data_o[c][1]  = gen_bank[1].data_q[rd_row][rd_idx[1]];
          rd_scale_o[c][1] = gen_bank[1].scale_q[rd_row][rd_idx[1]];
        end
      end
    end
  end

  // The host port's inputs are the model's top-level inputs: the simulator evaluates this at
  // every settle of any input, so it reads only while the host may (docs/rtl.md "Simulation
  // speed").
  always_comb begin
    host_data_o  = '0;
    host_scale_o = '0;
    if (host_en_i) begin
      if (host_block_i[0]) begin
        host_data_o  = gen_bank[1].data_q[host_row_i][host_block_i[BlkW-1:1]];
        host_scale_o = gen_bank[1].scale_q[host_row_i][host_block_i[BlkW-1:1]];
      end else begin
        host_data_o  = gen_bank[0].data_q[host_row_i][host_block_i[BlkW-1:1]];
        host_scale_o = gen_bank[0].scale_q[host_row_i][host_block_i[BlkW-1:1]];
      end
    end
  end

  logic unused_rd_next;
  assign unused_rd_next = rd_next[0];

endmodule : otpu_act_ram
