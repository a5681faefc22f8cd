// The program loader (SPEC 4 CTRL.LOAD, docs/registers.md "Loading a program"): copies
// min(PROG_N, IMEM_WORDS) instructions of 32 bytes from DRAM at PROG_ADDR into IMEM, reading
// D-byte chunks through DRAM port B (otpu_board gives it the port while it is busy) and
// writing D/32 instructions a chunk through the core's IMEM write port, one a cycle. One read
// is in flight at a time: a load costs about (read latency + D/32 + 2) cycles a chunk, once
// per program. A load whose bytes [PROG_ADDR, PROG_ADDR + 32 * count) do not lie inside
// DRAM_BYTES reads nothing and pulses range_err_o (STATUS.AXI_ERR), as the sequencer refuses a
// DRAM range past the end: with 4 GiB of DRAM (`board`) a 32-bit chunk address would
// otherwise wrap to address 0 instead of leaving DRAM.
module otpu_loader
  import otpu_core_pkg::*;
#(
  parameter int unsigned     D          = 32,
  parameter int unsigned     IMEM_WORDS = 4096,
  parameter longint unsigned DRAM_BYTES = 64'd1 << 30,
  localparam int unsigned ImemAw     = $clog2(IMEM_WORDS),
  localparam int unsigned Per        = D / 32,               // instructions a chunk
  localparam int unsigned PerW       = Per > 1 ? $clog2(Per) : 1
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               start_i,      // one-cycle pulse; ignored while busy
  input  logic [31:0]        prog_addr_i,  // chunk aligned
  input  logic [15:0]        prog_n_i,
  output logic               busy_o,       // STATUS.LOADING: until the last write has landed
  output logic               range_err_o,  // one cycle: a start refused, its range leaves DRAM
  // DRAM port B reads
  output logic               rd_valid_o,
  input  logic               rd_ready_i,
  output logic [31:0]        rd_addr_o,
  output logic [TAG_W-1:0]   rd_tag_o,
  input  logic               rsp_valid_i,
  input  logic [D*8-1:0]     rsp_data_i,
  // The core's IMEM write port
  output logic               imem_we_o,
  output logic [ImemAw-1:0]  imem_addr_o,
  output logic [INSTR_W-1:0] imem_wdata_o
);

  typedef enum logic [2:0] {
    ST_IDLE  = 3'd0,
    ST_REQ   = 3'd1,   // asking for the next chunk
    ST_WAIT  = 3'd2,   // for its response
    ST_WRITE = 3'd3,   // one instruction of the chunk a cycle into IMEM
    ST_FLUSH = 3'd4    // the core registers IMEM writes: the last lands now
  } state_e;

  state_e            state_q;
  logic [31:0]       addr_q;    // the next chunk's DRAM address
  logic [16:0]       left_q;    // instructions still to write
  logic [ImemAw-1:0] wa_q;      // the next IMEM address
  logic [PerW-1:0]   k_q;       // instruction of the chunk being written
  logic [D*8-1:0]    data_q;    // the chunk, next instruction in the low bits

  // min(PROG_N, IMEM_WORDS): the instructions a load copies.
  function automatic logic [16:0] count(logic [15:0] n);
    return 17'(n) > 17'(IMEM_WORDS) ? 17'(IMEM_WORDS) : 17'(n);
  endfunction

  // The load's end, exactly (no 32-bit wrap), against DRAM_BYTES.
  function automatic logic in_dram(logic [31:0] addr, logic [16:0] n);
    return 64'(addr) + (64'(n) << 5) <= 64'(DRAM_BYTES);
  endfunction

  logic range_err_q;

  // Next state in the always_ff: the response inputs are the model's top-level inputs, and a
  // simulator evaluates combinational next-state logic at every settle of them; the range
  // check only at a start (docs/rtl.md "Simulation speed"). A plain case: a unique case costs
  // a run-time check at every edge under --assert.
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      state_q     <= ST_IDLE;
      addr_q      <= '0;
      left_q      <= '0;
      wa_q        <= '0;
      k_q         <= '0;
      data_q      <= '0;
      range_err_q <= 1'b0;
    end else begin
      range_err_q <= 1'b0;
      case (state_q)
        ST_IDLE: begin
          if (start_i && count(prog_n_i) != '0) begin
            if (!in_dram(prog_addr_i, count(prog_n_i))) begin
              range_err_q <= 1'b1;
            end else begin
              state_q <= ST_REQ;
              addr_q  <= prog_addr_i;
              left_q  <= count(prog_n_i);
              wa_q    <= '0;
            end
          end
        end
        ST_REQ: begin
          if (rd_ready_i) begin
            state_q <= ST_WAIT;
            addr_q  <= addr_q + 32'(D);
          end
        end
        ST_WAIT: begin
          if (rsp_valid_i) begin
            state_q <= ST_WRITE;
            data_q  <= rsp_data_i;
            k_q     <= '0;
          end
        end
        ST_WRITE: begin
          data_q <= data_q >> INSTR_W;
          wa_q   <= wa_q + ImemAw'(1);
          left_q <= left_q - 17'd1;
          k_q    <= k_q + PerW'(1);
          if (left_q == 17'd1) begin
            state_q <= ST_FLUSH;
          end else if (32'(k_q) == Per - 1) begin
            state_q <= ST_REQ;
          end
        end
        default: state_q <= ST_IDLE;  // ST_FLUSH, and any other
      endcase
    end
  end

  assign busy_o       = state_q != ST_IDLE;
  assign range_err_o  = range_err_q;
  assign rd_valid_o   = state_q == ST_REQ;
  assign rd_addr_o    = addr_q;
  assign rd_tag_o     = '0;   // one read in flight: its response is the one awaited
  assign imem_we_o    = state_q == ST_WRITE;
  assign imem_addr_o  = wa_q;
  assign imem_wdata_o = data_q[INSTR_W-1:0];

endmodule : otpu_loader
