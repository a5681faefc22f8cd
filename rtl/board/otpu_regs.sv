// The BAR0 register block (SPEC 4, docs/registers.md): the register bus, decoding for map
// version 2 or (strap regmap_v1_i) 1, the control registers and the read mux over the core's
// status, the counters and the trace unit.
//
// Bus: at most one request a cycle (req_valid_i, req_we_i, 12-bit byte offset, wdata); a read
// answers the next cycle (rsp_valid_o, rsp_rdata_o). Writes take effect at the request's edge.
// Offsets that are unmapped, misaligned or above the v1 map on a v1 board read UNMAPPED and
// ignore writes.
module otpu_regs
  import otpu_pkg::*;
#(
  parameter logic [31:0]  CAPS     = 32'd0,       // the CAPS register (built by otpu_board)
  parameter logic [31:0]  CORE_KHZ = 32'd100000,
  parameter logic [31:0]  BUILD_ID = 32'd0,
  parameter int unsigned  ChunkW   = 5,           // log2 D: PROG_ADDR drops these low bits
  parameter int unsigned  DepthW   = 14           // log2 trace DEPTH: TRACE_ADDR bits
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          regmap_v1_i,   // strap: map version 1
  // Register bus
  input  logic                          req_valid_i,
  input  logic                          req_we_i,
  input  logic [11:0]                   req_addr_i,
  input  logic [31:0]                   req_wdata_i,
  output logic                          rsp_valid_o,
  output logic [31:0]                   rsp_rdata_o,
  // Core and loader status
  input  logic [31:0]                   version_i,
  input  logic                          running_i,
  input  logic                          halted_i,
  input  logic                          error_i,
  input  logic                          loading_i,
  input  logic                          wr_idle_i,
  input  logic                          axi_err_i,     // a DRAM access error this cycle
  // Control
  output logic                          run_o,         // CTRL.RUN
  output logic                          load_o,        // CTRL.LOAD written with RUN = 0 (in the write's cycle)
  output logic                          clear_o,       // CTRL.CLEAR written (in the write's cycle)
  output logic [31:0]                   prog_addr_o,
  output logic [15:0]                   prog_n_o,
  output logic [7:0][31:0]              args_o,        // zero on a v1 board
  // Counters: CYCLES, then ICOUNT B_RD B_WR A_RD A_WR B_STALL; the free-running ones
  input  logic [63:0]                   cycles_i,
  input  logic [5:0][31:0]              run_cnt_i,
  // The free-running counters through otpu_counters' read port: the request's counter, and
  // its value in the same cycle
  output logic [$clog2(NUM_COUNTERS)-1:0] free_sel_o,
  input  logic [63:0]                   free_cnt_i,
  // Trace unit
  output logic                          trace_clear_o,   // TRACE_CTRL.CLEAR written (in the write's cycle)
  output logic                          trace_enable_o,
  output logic                          trace_stop_o,    // STOP_WHEN_FULL
  output logic                          trace_stream_o,  // STREAM
  output logic [31:0]                   trace_rptr_o,    // TRACE_RPTR
  input  logic [31:0]                   trace_widx_i,    // TRACE_WIDX
  input  logic                          trace_busy_i,
  input  logic [31:0]                   trace_count_i,
  input  logic [31:0]                   trace_drop_i,
  output logic [DepthW-1:0]             trace_addr_o,
  output logic                          trace_rd_o,      // a mapped read's cycle: the readout reads
  input  logic [63:0]                   trace_data_i     // record at trace_addr_o a cycle ago
);

  // What the registered read answer holds: a value, or a half of the trace record that the
  // trace unit delivers in the answer's cycle.
  typedef enum logic [1:0] {
    RSEL_VALUE   = 2'd0,
    RSEL_TRACE_L = 2'd1,
    RSEL_TRACE_H = 2'd2
  } rsel_e;

  localparam int unsigned FirstArg = 32'(REG_ARG0) >> 2;
  localparam int unsigned FirstCnt = 32'(REG_COUNTERS) >> 2;

  logic                          run_q, load_d, clear_d;
  logic                          axi_err_q;
  logic [31:0]                   prog_addr_q, scratch_q;
  logic [15:0]                   prog_n_q;
  logic [7:0][31:0]              args_q;
  logic                          tr_en_q, tr_stop_q, tr_stream_q, tr_clear_d;
  logic [31:0]                   tr_rptr_q;
  logic [DepthW-1:0]             tr_addr_q;
  logic [31:0]                   cycles_hi_q;
  logic [NUM_COUNTERS-1:0][31:0] cnt_hi_q;
  logic                          rsp_valid_q;
  logic [31:0]                   rdata_q, rdata_d;
  rsel_e                         rsel_q, rsel_d;

  // The request ports are the model's top-level inputs: a simulator evaluates what reads them
  // at every settle of any input, so the decoder and the read mux work only in a request's
  // cycle and the registers change in the always_ff (docs/rtl.md "Simulation speed").

  /////////////
  // Decoder //
  /////////////

  logic [9:0] word;    // the request's word index
  logic       mapped;  // an offset of this board's map
  logic       is_arg, is_cnt;
  logic [2:0] arg_idx;
  logic [4:0] cnt_idx;
  logic       cnt_hi;

  assign word    = req_addr_i[11:2];
  assign arg_idx = req_addr_i[4:2];
  assign cnt_idx = req_addr_i[7:3];
  // The counter array's index (a counter address is checked to lie in it before it is read).
  localparam int CntSelW = $clog2(NUM_COUNTERS);
  logic [CntSelW-1:0] cnt_sel;
  assign cnt_sel = cnt_idx[CntSelW-1:0];
  assign cnt_hi  = req_addr_i[2];
  assign free_sel_o = cnt_sel;

  always_comb begin
    mapped = 1'b0;
    is_arg = 1'b0;
    is_cnt = 1'b0;
    rd     = 1'b0;
    wr     = 1'b0;
    if (req_valid_i) begin
      is_arg = 32'(word) >= FirstArg && 32'(word) < FirstArg + 32'd8;
      is_cnt = 32'(word) >= FirstCnt && 32'(word) < FirstCnt + 2 * NUM_COUNTERS;
      case (req_addr_i)
        REG_ID, REG_VERSION, REG_CTRL, REG_STATUS, REG_PROG_ADDR, REG_PROG_N, REG_CYCLES_LO,
        REG_CYCLES_HI, REG_ICOUNT, REG_B_RD, REG_B_WR, REG_A_RD, REG_A_WR, REG_B_STALL,
        REG_SCRATCH:
          mapped = 1'b1;
        REG_REGMAP, REG_CAPS, REG_CORE_KHZ, REG_BUILD_ID, REG_TRACE_CTRL, REG_TRACE_COUNT,
        REG_TRACE_DROP, REG_TRACE_ADDR, REG_TRACE_LO, REG_TRACE_HI, REG_TRACE_WIDX,
        REG_TRACE_RPTR:
          mapped = !regmap_v1_i;
        default:
          mapped = !regmap_v1_i && req_addr_i[1:0] == 2'b00 && (is_arg || is_cnt);
      endcase
      rd = !req_we_i && mapped;
      wr = req_we_i && mapped;
    end
  end

  ///////////
  // Reads //
  ///////////

  logic [31:0] status;
  assign status = {24'd0, running_i, 2'b00, axi_err_q, wr_idle_i, loading_i, error_i,
                   halted_i};

  logic rd, wr;  // a mapped read, a mapped write (from the decoder)

  always_comb begin
    rdata_d = UNMAPPED;
    rsel_d  = RSEL_VALUE;
    if (rd) begin
      case (req_addr_i)
        REG_ID:          rdata_d = ID_VALUE;
        REG_VERSION:     rdata_d = version_i;
        REG_CTRL:        rdata_d = {31'd0, run_q};
        REG_STATUS:      rdata_d = status;
        REG_PROG_ADDR:   rdata_d = prog_addr_q;
        REG_PROG_N:      rdata_d = {16'd0, prog_n_q};
        REG_CYCLES_LO:   rdata_d = cycles_i[31:0];
        REG_CYCLES_HI:   rdata_d = cycles_hi_q;
        REG_ICOUNT:      rdata_d = run_cnt_i[0];
        REG_B_RD:        rdata_d = run_cnt_i[1];
        REG_B_WR:        rdata_d = run_cnt_i[2];
        REG_A_RD:        rdata_d = run_cnt_i[3];
        REG_A_WR:        rdata_d = run_cnt_i[4];
        REG_B_STALL:     rdata_d = run_cnt_i[5];
        REG_SCRATCH:     rdata_d = scratch_q;
        REG_REGMAP:      rdata_d = REGMAP_VERSION;
        REG_CAPS:        rdata_d = CAPS;
        REG_CORE_KHZ:    rdata_d = CORE_KHZ;
        REG_BUILD_ID:    rdata_d = BUILD_ID;
        REG_TRACE_CTRL:  rdata_d = {27'd0, tr_stream_q, trace_busy_i, tr_stop_q, 1'b0, tr_en_q};
        REG_TRACE_COUNT: rdata_d = trace_count_i;
        REG_TRACE_DROP:  rdata_d = trace_drop_i;
        REG_TRACE_ADDR:  rdata_d = 32'(tr_addr_q);
        REG_TRACE_WIDX:  rdata_d = trace_widx_i;
        REG_TRACE_RPTR:  rdata_d = tr_rptr_q;
        REG_TRACE_LO:    rsel_d  = RSEL_TRACE_L;
        REG_TRACE_HI:    rsel_d  = RSEL_TRACE_H;
        default: begin
          if (is_arg) begin
            rdata_d = args_q[arg_idx];
          end else if (cnt_hi) begin
            rdata_d = cnt_hi_q[cnt_idx];
          end else begin
            rdata_d = free_cnt_i[31:0];
          end
        end
      endcase
    end
  end

  always_comb begin
    case (rsel_q)
      RSEL_TRACE_L: rsp_rdata_o = trace_data_i[31:0];
      RSEL_TRACE_H: rsp_rdata_o = trace_data_i[63:32];
      default:      rsp_rdata_o = rdata_q;
    endcase
  end
  assign rsp_valid_o = rsp_valid_q;

  //////////////////////////////////
  // Writes and read side effects //
  //////////////////////////////////

  // CTRL.LOAD, CTRL.CLEAR and TRACE_CTRL.CLEAR are strobes in the write's cycle.
  always_comb begin
    load_d     = 1'b0;
    clear_d    = 1'b0;
    tr_clear_d = 1'b0;
    if (wr) begin
      load_d     = req_addr_i == REG_CTRL && req_wdata_i[1] && !req_wdata_i[0] && !run_q;
      clear_d    = req_addr_i == REG_CTRL && req_wdata_i[2];
      tr_clear_d = req_addr_i == REG_TRACE_CTRL && req_wdata_i[1];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      run_q       <= 1'b0;
      axi_err_q   <= 1'b0;
      prog_addr_q <= '0;
      prog_n_q    <= '0;
      scratch_q   <= '0;
      args_q      <= '0;
      tr_en_q     <= 1'b0;
      tr_stop_q   <= 1'b0;
      tr_stream_q <= 1'b0;
      tr_rptr_q   <= '0;
      tr_addr_q   <= '0;
      cycles_hi_q <= '0;
      cnt_hi_q    <= '0;
      rsp_valid_q <= 1'b0;
      rdata_q     <= '0;
      rsel_q      <= RSEL_VALUE;
    end else begin
      // AXI_ERR is sticky; CTRL.CLEAR clears it unless an error arrives in the same cycle.
      axi_err_q   <= axi_err_i || (axi_err_q && !clear_d);
      rsp_valid_q <= req_valid_i && !req_we_i;
      rdata_q     <= rdata_d;
      rsel_q      <= rsel_d;
      if (wr) begin
        case (req_addr_i)
          REG_CTRL:       run_q       <= req_wdata_i[0];
          REG_PROG_ADDR:  prog_addr_q <= {req_wdata_i[31:ChunkW], ChunkW'(0)};
          REG_PROG_N:     prog_n_q    <= req_wdata_i[15:0];
          REG_SCRATCH:    scratch_q   <= req_wdata_i;
          REG_TRACE_CTRL: begin
            tr_en_q     <= req_wdata_i[0];
            tr_stop_q   <= req_wdata_i[2];
            tr_stream_q <= req_wdata_i[4];
            // CLEAR empties the ring: nothing is left to read.
            if (req_wdata_i[1]) tr_rptr_q <= '0;
          end
          REG_TRACE_ADDR: tr_addr_q   <= req_wdata_i[DepthW-1:0];
          REG_TRACE_RPTR: tr_rptr_q   <= req_wdata_i;
          default: begin
            if (is_arg) begin
              args_q[arg_idx] <= req_wdata_i;
            end
          end
        endcase
      end
      // Reading a 64-bit value's low half snapshots its high half; reading TRACE_HI moves on.
      if (rd) begin
        case (req_addr_i)
          REG_CYCLES_LO: cycles_hi_q <= cycles_i[63:32];
          REG_TRACE_HI:  tr_addr_q   <= tr_addr_q + DepthW'(1);
          default: begin
            if (is_cnt && !cnt_hi) begin
              cnt_hi_q[cnt_idx] <= free_cnt_i[63:32];
            end
          end
        endcase
      end
    end
  end

  assign run_o          = run_q;
  // Commands act at the edge ending their write, so the next request sees their effect.
  assign load_o         = load_d;
  assign clear_o        = clear_d;
  assign prog_addr_o    = prog_addr_q;
  assign prog_n_o       = prog_n_q;
  // Zero on a v1 board without a mux: its ARG offsets are unmapped, so args_q keeps its reset
  // value (the mux was a 256-bit choice at every edge).
  assign args_o         = args_q;
  assign trace_clear_o  = tr_clear_d;
  assign trace_enable_o = tr_en_q;
  assign trace_stop_o   = tr_stop_q;
  assign trace_stream_o = tr_stream_q;
  assign trace_rptr_o   = tr_rptr_q;
  assign trace_addr_o   = tr_addr_q;
  // The decoder's read strobe, already built in a request's cycle: the trace readout reads
  // when the answer may be TRACE_LO/HI (an unmapped read answers UNMAPPED, not the record).
  assign trace_rd_o     = rd;

endmodule : otpu_regs
