// The board (SPEC 4, docs/registers.md): the core, the register block, the program loader,
// the counters and the trace unit. Outside are the register bus, the DRAM ports (the core's,
// with the loader's reads muxed onto port B while it loads), the trace window read port
// (for DMA reads at 0x1_0000_0000 + 8 i), an AXI error input and the core's events (the
// lossless `rtl` tap of SPEC 5).
//
// The map version is a strap (regmap_v1_i) so that one Verilated model serves both maps; a
// synthesis top ties it to its build option.
module otpu_board
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  // The core (otpu_core, docs/rtl-core.md)
  parameter int unsigned     D           = 32,
  parameter int unsigned     MCOLS       = 8,
  parameter int unsigned     LANES       = 8,
  parameter int unsigned     CL          = 2,
  parameter int unsigned     WIN         = 16,
  parameter int unsigned     ACT_BLOCKS  = 128,
  parameter int unsigned     ACT_ROWS    = 16,
  parameter int unsigned     TMEM_WORDS  = 65536,
  parameter int unsigned     IMEM_WORDS  = 4096,
  parameter int unsigned     FIFO_DEPTH  = 128,
  parameter longint unsigned DRAM_BYTES  = 64'd1 << 30,
  parameter int unsigned     DMA_ROB     = 64,
  // The board
  parameter int unsigned     TRACE_QD    = 64,      // trace capture-queue lines
  parameter int unsigned     TRACE_DRAIN = 2,       // trace queue lines into the buffer a cycle
  parameter int unsigned     TRACE_DEPTH = 65536,   // trace buffer records (a power of two)
  parameter int unsigned     WIN_LOG2    = 6,       // per-window counter window = 1 << WIN_LOG2
  parameter int unsigned     CORE_KHZ    = 100000,
  parameter int unsigned     BUILD_ID    = 0,
  localparam int unsigned    DepthW      = $clog2(TRACE_DEPTH),
  localparam int unsigned    ImemAw      = $clog2(IMEM_WORDS)
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             regmap_v1_i,   // strap: register map version 1
  // The core's reset, looped back outside the board: core_rst_no is rst_ni held low during an
  // abort (below); whoever instantiates the board wires it straight back to core_rst_ni (the
  // Verilated model's C++ does, sim/board/verilated_board_model.h). A reset derived inside
  // the model would be a scheduling domain of its own for Verilator; the board's registers
  // reset synchronously for the same reason (docs/board.md "Simulation speed").
  output logic                             core_rst_no,
  input  logic                             core_rst_ni,
  // Register bus (otpu_regs): one request a cycle, a read's data the next cycle
  input  logic                             reg_valid_i,
  input  logic                             reg_we_i,
  input  logic [11:0]                      reg_addr_i,
  input  logic [31:0]                      reg_wdata_i,
  output logic                             reg_rvalid_o,
  output logic [31:0]                      reg_rdata_o,
  // Trace DMA window: records [8 win_beat, 8 win_beat + 8), valid the cycle after
  input  logic [DepthW-4:0]                trace_win_beat_i,
  input  logic                             trace_win_rd_i,  // the host reads the beat (read, checked)
  output logic [7:0][63:0]                 trace_win_data_o,
  // The DRAM reports an access error (a one-cycle pulse is enough: STATUS.AXI_ERR is sticky)
  input  logic                             axi_err_i,
  output logic                             running_o,
  // The core's error pc and cause (otpu_core_pkg::err_e) after an illegal instruction, for the
  // models (the regression's random-illegal cells): the register map has only STATUS.ERROR.
  output logic [15:0]                      error_pc_o,
  output err_e                             error_cause_o,
  // DRAM port B: D-byte chunks (the core's port, or the loader's reads)
  output logic                             b_rd_valid_o,
  input  logic                             b_rd_ready_i,
  output logic [31:0]                      b_rd_addr_o,
  output logic [TAG_W-1:0]                 b_rd_tag_o,
  input  logic                             b_rsp_valid_i,
  input  logic [TAG_W-1:0]                 b_rsp_tag_i,
  input  logic [D*8-1:0]                   b_rsp_data_i,
  output logic                             b_wr_valid_o,
  input  logic                             b_wr_ready_i,
  output logic [31:0]                      b_wr_addr_o,
  output logic [D*8-1:0]                   b_wr_data_o,
  output logic [D-1:0]                     b_wr_be_o,
  // DRAM port A: 32-bit words
  output logic                             a_valid_o,
  input  logic                             a_ready_i,
  output logic                             a_we_o,
  output logic [31:0]                      a_addr_o,
  output logic [31:0]                      a_wdata_o,
  output logic [3:0]                       a_be_o,
  output logic [TAG_W-1:0]                 a_tag_o,
  input  logic                             a_rsp_valid_i,
  input  logic [TAG_W-1:0]                 a_rsp_tag_i,
  input  logic [31:0]                      a_rsp_data_i,
  // The core's events, as otpu_core brings them out
  output logic                             ev_disp_o,
  output logic [3:0]                       ev_disp_slot_o,
  output logic [15:0]                      ev_disp_pc_o,
  output logic [INSTR_W-1:0]               ev_disp_instr_o,
  output logic [NUM_UNITS-1:0]             ev_start_o,
  output logic [NUM_UNITS-1:0][3:0]        ev_start_slot_o,
  output logic [NUM_UNITS-1:0][31:0]       ev_start_rdy_o,
  output logic                             ev_rel_o,
  output logic [3:0]                       ev_rel_slot_o,
  output logic [NUM_UNITS-1:0]             ev_end_o,
  output logic [NUM_UNITS-1:0][3:0]        ev_end_slot_o,
  output logic [NUM_UNITS-1:0][3:0][31:0]  ev_end_cnt_o,
  output logic                             ev_halt_o,
  output logic [3:0][31:0]                 ev_halt_ports_o,
  output logic [NUM_UNITS-1:0][31:0]       ev_lose_o,
  output logic                             ev_win_o,
  output logic [31:0]                      ev_win_n_o,
  output logic [WC_NUM-1:0][31:0]          ev_win_cnt_o,
  output act_t                             ev_act_o
);

  localparam logic [31:0] Caps = CAPS_TRACE | CAPS_TRACE_DMA | CAPS_TRACE_STREAM | CAPS_4BIT |
                                 (32'(DepthW) << CAPS_DEPTH_SHIFT) |
                                 (32'(WIN_LOG2) << CAPS_WINDOW_SHIFT);

  logic             run, load, clear, loading, running, halted, error;
  logic             ld_range_err;  // the loader refused a range outside DRAM (AXI_ERR)
  logic [31:0]      prog_addr, version, cycle, retired;
  logic [15:0]      prog_n;
  logic [7:0][31:0] args;

  ////////////////////
  // Register block //
  ////////////////////

  logic [63:0]                   cycles;
  logic [5:0][31:0]              run_cnt;
  logic [$clog2(NUM_COUNTERS)-1:0] free_sel;
  logic [63:0]                   free_cnt, tmem_deny;
  logic                          tr_clear, tr_enable, tr_stop, tr_stream, tr_busy, tr_rd;
  logic [31:0]                   tr_count, tr_drop, tr_rptr, tr_widx;
  logic [DepthW-1:0]             tr_addr;
  logic [63:0]                   tr_data;
  logic                          wr_idle;

  // No write waits at a DRAM port (the model's writes complete when accepted).
  assign wr_idle = !b_wr_valid_o && !(a_valid_o && a_we_o);

  otpu_regs #(
    .CAPS    (Caps),
    .CORE_KHZ(32'(CORE_KHZ)),
    .BUILD_ID(32'(BUILD_ID)),
    .ChunkW  ($clog2(D)),
    .DepthW  (DepthW)
  ) u_regs (
    .clk_i,
    .rst_ni,
    .regmap_v1_i,
    .req_valid_i   (reg_valid_i),
    .req_we_i      (reg_we_i),
    .req_addr_i    (reg_addr_i),
    .req_wdata_i   (reg_wdata_i),
    .rsp_valid_o   (reg_rvalid_o),
    .rsp_rdata_o   (reg_rdata_o),
    .version_i     (version),
    .running_i     (running),
    .halted_i      (halted),
    .error_i       (error),
    .loading_i     (loading),
    .wr_idle_i     (wr_idle),
    .axi_err_i     (axi_err_i || ld_range_err),
    .run_o         (run),
    .load_o        (load),
    .clear_o       (clear),
    .prog_addr_o   (prog_addr),
    .prog_n_o      (prog_n),
    .args_o        (args),
    .cycles_i      (cycles),
    .run_cnt_i     (run_cnt),
    .free_sel_o    (free_sel),
    .free_cnt_i    (free_cnt),
    .trace_clear_o (tr_clear),
    .trace_enable_o(tr_enable),
    .trace_stop_o  (tr_stop),
    .trace_stream_o(tr_stream),
    .trace_rptr_o  (tr_rptr),
    .trace_widx_i  (tr_widx),
    .trace_busy_i  (tr_busy),
    .trace_count_i (tr_count),
    .trace_drop_i  (tr_drop),
    .trace_addr_o  (tr_addr),
    .trace_rd_o    (tr_rd),
    .trace_data_i  (tr_data)
  );

  ////////////
  // Loader //
  ////////////

  logic                ld_rd_valid, ld_imem_we;
  logic [31:0]         ld_rd_addr;
  logic [TAG_W-1:0]    ld_rd_tag;
  logic [ImemAw-1:0]   ld_imem_addr;
  logic [INSTR_W-1:0]  ld_imem_wdata;

  otpu_loader #(
    .D         (D),
    .IMEM_WORDS(IMEM_WORDS),
    .DRAM_BYTES(DRAM_BYTES)
  ) u_loader (
    .clk_i,
    .rst_ni,
    .start_i     (load && !running),
    .prog_addr_i (prog_addr),
    .prog_n_i    (prog_n),
    .busy_o      (loading),
    .range_err_o (ld_range_err),
    .rd_valid_o  (ld_rd_valid),
    .rd_ready_i  (b_rd_ready_i),
    .rd_addr_o   (ld_rd_addr),
    .rd_tag_o    (ld_rd_tag),
    // Read only while it waits for its chunk (busy): no `&& loading`, which a simulator
    // would evaluate at every settle of the input.
    .rsp_valid_i (b_rsp_valid_i),
    .rsp_data_i  (b_rsp_data_i),
    .imem_we_o   (ld_imem_we),
    .imem_addr_o (ld_imem_addr),
    .imem_wdata_o(ld_imem_wdata)
  );

  //////////
  // Core //
  //////////

  // While the loader runs it owns port B's reads; the core is idle and waits for it (a RUN
  // written meanwhile starts the run when the load is done).
  logic             core_b_rd_valid;
  logic [31:0]      core_b_rd_addr;
  logic [TAG_W-1:0] core_b_rd_tag;

  // RUN written 0 while the core runs aborts the run (SPEC 4: RUN is a level). The core is
  // held in reset (its memories keep their contents) until every DRAM read it had in flight
  // has answered, so no stale response reaches the restarted core: core_rst_no falls at the
  // edge that sets abort_q, and the core's asynchronous reset follows it through core_rst_ni.
  logic        abort_q;
  logic [15:0] b_reads_q, a_reads_q;   // core reads accepted and not yet answered, per port

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      abort_q   <= 1'b0;
      b_reads_q <= '0;
      a_reads_q <= '0;
    end else begin
      b_reads_q <= b_reads_q + 16'(core_b_rd_valid && b_rd_ready_i && !loading)
                             - 16'(b_rsp_valid_i && !loading);
      a_reads_q <= a_reads_q + 16'(a_valid_o && a_ready_i && !a_we_o) - 16'(a_rsp_valid_i);
      if (running && !run) abort_q <= 1'b1;
      else if (abort_q && b_reads_q == '0 && a_reads_q == '0) abort_q <= 1'b0;
    end
  end
  assign core_rst_no = rst_ni && !abort_q;

  assign b_rd_valid_o = loading ? ld_rd_valid : core_b_rd_valid;
  assign b_rd_addr_o  = loading ? ld_rd_addr : core_b_rd_addr;
  assign b_rd_tag_o   = loading ? ld_rd_tag : core_b_rd_tag;
  assign running_o    = running;

  // The board has no host path into TMEM or ACT RAM: everything arrives through DRAM.
  logic [LANES-1:0][31:0] unused_tm_rdata;
  logic [D*8-1:0]         unused_act_data;
  logic [31:0]            unused_act_scale;

  otpu_core #(
    .D         (D),
    .MCOLS     (MCOLS),
    .LANES     (LANES),
    .CL        (CL),
    .WIN       (WIN),
    .ACT_BLOCKS(ACT_BLOCKS),
    .ACT_ROWS  (ACT_ROWS),
    .TMEM_WORDS(TMEM_WORDS),
    .IMEM_WORDS(IMEM_WORDS),
    .FIFO_DEPTH(FIFO_DEPTH),
    .DRAM_BYTES(DRAM_BYTES),
    .DMA_ROB   (DMA_ROB)
  ) u_core (
    .clk_i,
    .rst_ni           (core_rst_ni),
    .run_i            (run && !loading),
    .args_i           (args),
    .prog_n_i         (prog_n),
    .win_len_i        (32'd1 << WIN_LOG2),
    .imem_we_i        (ld_imem_we),
    .imem_addr_i      (ld_imem_addr),
    .imem_wdata_i     (ld_imem_wdata),
    .running_o        (running),
    .halted_o         (halted),
    .error_o          (error),
    .error_pc_o,
    .error_cause_o,
    .cycle_o          (cycle),
    .retired_o        (retired),
    .version_o        (version),
    .host_tm_we_i     (1'b0),
    .host_tm_addr_i   ('0),
    .host_tm_wdata_i  ('0),
    .host_tm_rdata_o  (unused_tm_rdata),
    .host_act_we_i    (1'b0),
    .host_act_row_i   ('0),
    .host_act_block_i ('0),
    .host_act_wdata_i ('0),
    .host_act_wscale_i(32'd0),
    .host_act_data_o  (unused_act_data),
    .host_act_scale_o (unused_act_scale),
    .b_rd_valid_o     (core_b_rd_valid),
    .b_rd_ready_i     (b_rd_ready_i && !loading),
    .b_rd_addr_o      (core_b_rd_addr),
    .b_rd_tag_o       (core_b_rd_tag),
    .b_rsp_valid_i    (b_rsp_valid_i && !loading),
    .b_rsp_tag_i,
    .b_rsp_data_i,
    .b_wr_valid_o,
    .b_wr_ready_i,
    .b_wr_addr_o,
    .b_wr_data_o,
    .b_wr_be_o,
    .a_valid_o,
    .a_ready_i,
    .a_we_o,
    .a_addr_o,
    .a_wdata_o,
    .a_be_o,
    .a_tag_o,
    .a_rsp_valid_i,
    .a_rsp_tag_i,
    .a_rsp_data_i,
    .ev_disp_o,
    .ev_disp_slot_o,
    .ev_disp_pc_o,
    .ev_disp_instr_o,
    .ev_start_o,
    .ev_start_slot_o,
    .ev_start_rdy_o,
    .ev_rel_o,
    .ev_rel_slot_o,
    .ev_end_o,
    .ev_end_slot_o,
    .ev_end_cnt_o,
    .ev_halt_o,
    .ev_halt_ports_o,
    .ev_lose_o,
    .ev_win_o,
    .ev_win_n_o,
    .ev_win_cnt_o,
    .ev_act_o
  );

  //////////////
  // Counters //
  //////////////

  otpu_counters u_counters (
    .clk_i,
    .rst_ni,
    .clear_i   (clear),
    .running_i (running),
    .retired_i (retired),
    .act_i     (ev_act_o),
    .cycles_o  (cycles),
    .run_cnt_o (run_cnt),
    .free_sel_i (free_sel),
    .free_cnt_o (free_cnt),
    .tmem_deny_o(tmem_deny)
  );

  // Counters that must add up (docs/regress.md "Assertions"): at the halt, the core's TMEM
  // losses per unit (zeroed when the run starts) sum to what the free-running TMEM_DENY grew
  // by since the run started. Sensitive to the reset like the registers (SYNCASYNCNET).
  //
  // And the assertion path's self-test: run with the plusarg +otpu_assert_selftest=N (set
  // through OTPU_RTL_PLUSARGS, sim/board/verilated_board_model.h), BoardAssertSelfTest fails at
  // run cycle N, so a test can show a failure becoming a verdict. Without it, it never fails.
  logic        selftest_on;
  logic [31:0] selftest_cycle;
  initial begin
    selftest_cycle = '0;
    selftest_on    = $value$plusargs("otpu_assert_selftest=%d", selftest_cycle) != 0;
  end

  logic        was_running_q;
  logic [63:0] deny_at_start_q;
  // The units' losses summed in the halt's cycle only (a signal would be summed at every
  // settle: the losses follow the TMEM grants).
  function automatic logic [63:0] run_losses();
    return 64'(ev_lose_o[0]) + 64'(ev_lose_o[1]) + 64'(ev_lose_o[2]) + 64'(ev_lose_o[3]);
  endfunction
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      was_running_q   <= 1'b0;
      deny_at_start_q <= '0;
    end else begin
      was_running_q <= running;
      if (running && !was_running_q) begin
        deny_at_start_q <= tmem_deny;
      end
      if (ev_halt_o) begin
        BoardLossesAddUpToTmemDeny: assert (run_losses() == tmem_deny - deny_at_start_q)
          else $error("otpu_board: the units lost %0d TMEM cycles, TMEM_DENY grew by %0d",
                      run_losses(), tmem_deny - deny_at_start_q);
      end
      if (selftest_on && running) begin
        BoardAssertSelfTest: assert (cycle != selftest_cycle)
          else $error("otpu_board: the assertion self-test fails at run cycle %0d", cycle);
      end
    end
  end

  //////////////////////////////////////////
  // Reserved fields are zero (assertions) //
  //////////////////////////////////////////

  // What the board hands the host: register reads (docs/registers.md: bits a register does
  // not list read 0) and trace records (docs/trace.md "Records": bits not listed are 0). The
  // instructions' unused bits are the program's to keep 0: the ISA ignores them (docs/isa.md
  // "Encoding"), so the sequencer neither checks nor flags them.
  // A self-test sets a reserved bit in what the checks see, not in what the host reads:
  // +otpu_reserved_selftest=1 STATUS bit 8, =2 bit 56 of each D record read through the window.
  logic rsvd_selftest_reg, rsvd_selftest_win;
  initial begin
    logic [31:0] v;
    v = '0;
    if ($value$plusargs("otpu_reserved_selftest=%d", v) == 0) v = '0;
    rsvd_selftest_reg = v == 32'd1;
    rsvd_selftest_win = v == 32'd2;
  end

  // The bits of a register read the map defines (v1 boards read UNMAPPED above 0x038).
  function automatic logic [31:0] reg_defined(logic [11:0] a);
    logic [31:0] m;
    m = '1;
    case (a)
      REG_CTRL:       m = 32'h0000_0001;
      REG_STATUS:     m = STATUS_HALTED | STATUS_ERROR | STATUS_LOADING | STATUS_WR_IDLE |
                          STATUS_AXI_ERR | STATUS_RUNNING;
      REG_PROG_ADDR:  m = ~32'(D - 1);
      REG_PROG_N:     m = 32'h0000_FFFF;
      REG_CAPS:       m = regmap_v1_i ? '1 : 32'h00FF_FF17;
      REG_TRACE_CTRL: m = regmap_v1_i ? '1 : 32'h0000_001D;
      REG_TRACE_ADDR: m = regmap_v1_i ? '1 : 32'((64'd1 << DepthW) - 64'd1);
      default:        m = '1;
    endcase
    return m;
  endfunction

  // The bits of a trace record its type defines (workloads/isa/trace_records.h DefinedBits);
  // none for type 0 (a buffer entry never written reads 0) or an undefined type.
  function automatic logic [63:0] record_defined(logic [3:0] t);
    logic [63:0] m;
    case (t)
      REC_DISPATCH:              m = 64'hF0F0_FFFF_FFFF_FFFF;
      REC_OPERANDS:              m = 64'hF01F_FFFF_FFFF_FFFF;
      REC_START:                 m = 64'hF0FF_FFFF_FFFF_FFFF;
      REC_READY, REC_HALT:       m = 64'hF000_0000_FFFF_FFFF;
      REC_RELEASE, REC_END:      m = 64'hF0F0_0000_FFFF_FFFF;
      REC_UNIT:                  m = 64'hF00F_0000_FFFF_FFFF;
      REC_WINDOW_P, REC_WINDOW_Q: m = 64'hF0FF_FFFF_FFFF_FFFF;
      REC_VALUE:                 m = 64'hFF00_0000_FFFF_FFFF;
      default:                   m = 64'h0;
    endcase
    return m;
  endfunction

  // Entry k of the window beat on trace_win_data_o as the check sees it, and its reserved bits.
  function automatic logic [63:0] win_seen(int k);
    logic [63:0] r;
    r = trace_win_data_o[k];
    return r | (rsvd_selftest_win && r[63:60] == REC_DISPATCH ? 64'd1 << 56 : 64'd0);
  endfunction
  function automatic logic [63:0] win_reserved(int k);
    logic [63:0] r;
    r = win_seen(k);
    return r & ~record_defined(r[63:60]);
  endfunction

  logic [11:0] rd_addr_q;
  logic        win_rd_q;
  // The answer as the check sees it (a function: read only in an answer's cycle).
  function automatic logic [31:0] rd_seen();
    return reg_rdata_o | (rsvd_selftest_reg && rd_addr_q == REG_STATUS ? 32'h100 : 32'h0);
  endfunction
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_addr_q <= '0;
      win_rd_q  <= 1'b0;
    end else begin
      if (reg_valid_i && !reg_we_i) rd_addr_q <= reg_addr_i;
      win_rd_q <= trace_win_rd_i;
      if (reg_rvalid_o) begin
        RegReservedBitsZero: assert ((rd_seen() & ~reg_defined(rd_addr_q)) == '0)
          else $error("otpu_board: register 0x%03x read 0x%08x, reserved bits 0x%08x set",
                      rd_addr_q, rd_seen(), rd_seen() & ~reg_defined(rd_addr_q));
        if (!regmap_v1_i && rd_addr_q == REG_TRACE_HI) begin
          TraceRecordReservedBitsZero: assert ((tr_data & ~record_defined(tr_data[63:60])) == '0)
            else $error("otpu_board: trace record 0x%016x (TRACE_LO/HI) has reserved bits 0x%016x set",
                        tr_data, tr_data & ~record_defined(tr_data[63:60]));
        end
      end
      // The beat read in the previous cycle is on trace_win_data_o.
      if (win_rd_q) begin
        for (int k = 0; k < 8; k++) begin
          TraceWindowReservedBitsZero: assert (win_reserved(k) == '0)
            else $error("otpu_board: trace record 0x%016x (window beat, entry %0d) has reserved bits 0x%016x set",
                        win_seen(k), k, win_reserved(k));
        end
      end
    end
  end

  ////////////////
  // Trace unit //
  ////////////////

  otpu_trace #(
    .QD   (TRACE_QD),
    .DRAIN(TRACE_DRAIN),
    .DEPTH(TRACE_DEPTH)
  ) u_trace (
    .clk_i,
    .rst_ni,
    .clear_i         (tr_clear),
    .enable_i        (tr_enable),
    .stop_when_full_i(tr_stop),
    .stream_i        (tr_stream),
    .rptr_i          (tr_rptr),
    .cycle_i         (cycle),
    .ev_disp_i       (ev_disp_o),
    .ev_disp_slot_i  (ev_disp_slot_o),
    .ev_disp_pc_i    (ev_disp_pc_o),
    .ev_disp_instr_i (ev_disp_instr_o),
    .ev_start_i      (ev_start_o),
    .ev_start_slot_i (ev_start_slot_o),
    .ev_start_rdy_i  (ev_start_rdy_o),
    .ev_rel_i        (ev_rel_o),
    .ev_rel_slot_i   (ev_rel_slot_o),
    .ev_end_i        (ev_end_o),
    .ev_end_slot_i   (ev_end_slot_o),
    .ev_end_cnt_i    (ev_end_cnt_o),
    .ev_halt_i       (ev_halt_o),
    .ev_halt_ports_i (ev_halt_ports_o),
    .ev_win_i        (ev_win_o),
    .ev_win_n_i      (ev_win_n_o),
    .ev_win_cnt_i    (ev_win_cnt_o),
    .count_o         (tr_count),
    .drop_o          (tr_drop),
    .busy_o          (tr_busy),
    .widx_o          (tr_widx),
    // The register readout reads in a mapped register read's cycle (TRACE_LO/HI answer the
    // cycle after: the decoder's strobe, not an expression of the bus inputs of its own, which
    // a simulator would evaluate at every settle); the window in a cycle the host reads it.
    .rd_en_i         (tr_rd),
    .rd_addr_i       (tr_addr),
    .rd_data_o       (tr_data),
    .win_rd_i        (trace_win_rd_i),
    .win_beat_i      (trace_win_beat_i),
    .win_data_o      (trace_win_data_o)
  );

endmodule : otpu_board
