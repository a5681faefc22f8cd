// ACT RAM (docs/rtl-core.md "ACT RAM"): ACT_ROWS rows of ACT_BLOCKS blocks, each block D int8
// values (element e in bits 8e +: 8) and one fp32 scale. QUANT writes one block and its scale
// a cycle. The MXU reads blocks b and b+1 (mod ACT_BLOCKS) of every row at once, in the same
// cycle: a 4-bit weight chunk covers two blocks. Even and odd blocks live in separate banks,
// so that is one read per bank. The host port reads one (row, block) for tests and debug.
module otpu_act_ram #(
  parameter int unsigned  D          = 32,
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
  // Read (MXU): blocks b and b+1 of every row
  input  logic [BlkW-1:0]                     rd_block_i,
  output logic [ACT_ROWS-1:0][1:0][D*8-1:0]   rd_data_o,
  output logic [ACT_ROWS-1:0][1:0][31:0]      rd_scale_o,
  // Host read
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

  logic [ACT_ROWS-1:0][1:0][D*8-1:0] bank_data;
  logic [ACT_ROWS-1:0][1:0][31:0]    bank_scale;
  logic [1:0][D*8-1:0]               host_data;
  logic [1:0][31:0]                  host_scale;

  // Bank k (0 even, 1 odd blocks): [row][block / 2].
  for (genvar k = 0; k < 2; k++) begin : gen_bank
    logic [D*8-1:0] data_q[ACT_ROWS][Half];
    logic [31:0]    scale_q[ACT_ROWS][Half];
    always_ff @(posedge clk_i) begin
      if (we_i && wr_block_i[0] == 1'(k)) begin
        data_q[wr_row_i][wr_block_i[BlkW-1:1]]  <= wr_data_i;
        scale_q[wr_row_i][wr_block_i[BlkW-1:1]] <= wr_scale_i;
      end
    end
    for (genvar r = 0; r < ACT_ROWS; r++) begin : gen_row
      assign bank_data[r][k]  = data_q[r][rd_idx[k]];
      assign bank_scale[r][k] = scale_q[r][rd_idx[k]];
    end
    assign host_data[k]  = data_q[host_row_i][host_block_i[BlkW-1:1]];
    assign host_scale[k] = scale_q[host_row_i][host_block_i[BlkW-1:1]];
  end

  // Block b comes from bank b mod 2, block b+1 from the other one.
  for (genvar r = 0; r < ACT_ROWS; r++) begin : gen_rd
    assign rd_data_o[r][0]  = bank_data[r][rd_block_i[0]];
    assign rd_data_o[r][1]  = bank_data[r][!rd_block_i[0]];
    assign rd_scale_o[r][0] = bank_scale[r][rd_block_i[0]];
    assign rd_scale_o[r][1] = bank_scale[r][!rd_block_i[0]];
  end

  assign host_data_o  = host_data[host_block_i[0]];
  assign host_scale_o = host_scale[host_block_i[0]];

  logic unused_rd_next;
  assign unused_rd_next = rd_next[0];

endmodule : otpu_act_ram
