// The openTPU core (docs/rtl-core.md): the sequencer, the four units, TMEM and its arbiter,
// ACT RAM, IMEM, the DRAM port muxes with tag routing, and the event bundle the simulation
// harness and the trace unit read.
module otpu_core
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned     D          = 32,
  parameter int unsigned     MCOLS      = 8,
  parameter int unsigned     LANES      = 8,
  parameter int unsigned     CL         = 2,
  parameter int unsigned     WIN        = 16,
  parameter int unsigned     ACT_BLOCKS = 128,
  parameter int unsigned     ACT_ROWS   = 16,
  parameter int unsigned     TMEM_WORDS = 65536,
  parameter int unsigned     IMEM_WORDS = 4096,
  parameter int unsigned     FIFO_DEPTH = 128,
  parameter longint unsigned DRAM_BYTES = 64'd1 << 30,
  parameter int unsigned     DMA_ROB    = 64,
  localparam int unsigned    AW         = $clog2(TMEM_WORDS),
  localparam int unsigned    ImemAw     = $clog2(IMEM_WORDS),
  localparam int unsigned    ActRowW    = $clog2(ACT_ROWS),
  localparam int unsigned    ActBlkW    = $clog2(ACT_BLOCKS)
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // Control
  input  logic                             run_i,         // rising edge: run from pc 0
  input  logic [7:0][31:0]                 args_i,        // R8..R15
  input  logic [15:0]                      prog_n_i,      // program length, instructions
  input  logic [31:0]                      win_len_i,     // per-window counter window, cycles
  input  logic                             imem_we_i,     // ignored while running
  input  logic [ImemAw-1:0]                imem_addr_i,
  input  logic [INSTR_W-1:0]               imem_wdata_i,
  // Status
  output logic                             running_o,
  output logic                             halted_o,
  output logic                             error_o,
  output logic [15:0]                      error_pc_o,
  output err_e                             error_cause_o,
  output logic [31:0]                      cycle_o,       // current (last, once halted) cycle
  output logic [31:0]                      retired_o,     // instructions, HALT included
  output logic [31:0]                      version_o,     // D | MCOLS | LANES
  // Host access to TMEM (LANES words from host_tm_addr_i) and ACT RAM while not running:
  // reads in the same cycle (0 while running), writes (registered) at the second edge
  input  logic                             host_tm_we_i,
  input  logic [AW-1:0]                    host_tm_addr_i,  // a multiple of LANES
  input  logic [LANES-1:0][31:0]           host_tm_wdata_i,
  output logic [LANES-1:0][31:0]           host_tm_rdata_o,
  input  logic                             host_act_we_i,
  input  logic [ActRowW-1:0]               host_act_row_i,
  input  logic [ActBlkW-1:0]               host_act_block_i,
  input  logic [D*8-1:0]                   host_act_wdata_i,
  input  logic [31:0]                      host_act_wscale_i,
  output logic [D*8-1:0]                   host_act_data_o,
  output logic [31:0]                      host_act_scale_o,
  // DRAM port B: D-byte chunks
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
  // Events (docs/rtl-core.md "Events"), valid in the cycle they happen
  output logic                             ev_disp_o,
  output logic [3:0]                       ev_disp_slot_o,
  output logic [15:0]                      ev_disp_pc_o,
  output logic [INSTR_W-1:0]               ev_disp_instr_o,   // resolved
  output logic [NUM_UNITS-1:0]             ev_start_o,
  output logic [NUM_UNITS-1:0][3:0]        ev_start_slot_o,
  output logic [NUM_UNITS-1:0][31:0]       ev_start_rdy_o,    // its ready cycle
  output logic                             ev_rel_o,
  output logic [3:0]                       ev_rel_slot_o,
  output logic [NUM_UNITS-1:0]             ev_end_o,
  output logic [NUM_UNITS-1:0][3:0]        ev_end_slot_o,
  output logic [NUM_UNITS-1:0][3:0][31:0]  ev_end_cnt_o,
  output logic                             ev_halt_o,
  output logic [3:0][31:0]                 ev_halt_ports_o,   // bmxu bdma amxu aq
  output logic [NUM_UNITS-1:0][31:0]       ev_lose_o,         // TMEM refusals per unit
  output logic                             ev_win_o,
  output logic [31:0]                      ev_win_n_o,
  output logic [WC_NUM-1:0][31:0]          ev_win_cnt_o,
  output act_t                             ev_act_o
);

  // TMEM requesters in priority order: the host port, then the units by id.
  localparam int unsigned NReq = NUM_UNITS + 1;
  localparam int unsigned RHost = 0;

  logic running, start, halt;

  /////////////////////////////
  // Host inputs, registered //
  /////////////////////////////

  logic                   run_q, imem_we_q, host_tm_we_q, host_act_we_q;
  logic [7:0][31:0]       args_q;
  logic [15:0]            prog_n_q;
  logic [31:0]            win_len_q;
  logic [ImemAw-1:0]      imem_addr_q;
  logic [INSTR_W-1:0]     imem_wdata_q;
  logic [AW-1:0]          host_tm_addr_q;
  logic [LANES-1:0][31:0] host_tm_wdata_q;
  logic [ActRowW-1:0]     host_act_row_q;
  logic [ActBlkW-1:0]     host_act_block_q;
  logic [D*8-1:0]         host_act_wdata_q;
  logic [31:0]            host_act_wscale_q;

  otpu_core_ctl #(
    .D     (D),
    .LANES (LANES),
    .AW    (AW),
    .ImemAw(ImemAw),
    .RowW  (ActRowW),
    .BlkW  (ActBlkW)
  ) u_ctl (
    .clk_i,
    .rst_ni,
    .run_i,
    .args_i,
    .prog_n_i,
    .win_len_i,
    .imem_we_i,
    .imem_addr_i,
    .imem_wdata_i,
    .tm_we_i     (host_tm_we_i),
    .tm_addr_i   (host_tm_addr_i),
    .tm_wdata_i  (host_tm_wdata_i),
    .act_we_i    (host_act_we_i),
    .act_row_i   (host_act_row_i),
    .act_block_i (host_act_block_i),
    .act_wdata_i (host_act_wdata_i),
    .act_wscale_i(host_act_wscale_i),
    .run_o       (run_q),
    .args_o      (args_q),
    .prog_n_o    (prog_n_q),
    .win_len_o   (win_len_q),
    .imem_we_o   (imem_we_q),
    .imem_addr_o (imem_addr_q),
    .imem_wdata_o(imem_wdata_q),
    .tm_we_o     (host_tm_we_q),
    .tm_addr_o   (host_tm_addr_q),
    .tm_wdata_o  (host_tm_wdata_q),
    .act_we_o    (host_act_we_q),
    .act_row_o   (host_act_row_q),
    .act_block_o (host_act_block_q),
    .act_wdata_o (host_act_wdata_q),
    .act_wscale_o(host_act_wscale_q)
  );

  //////////////////
  // Unit signals //
  //////////////////

  logic [NUM_UNITS-1:0]                   issue_valid, issue_ready, done;
  logic [NUM_UNITS-1:0][3:0]              issue_slot, done_slot;
  logic [NUM_UNITS-1:0][INSTR_W-1:0]      issue_instr;
  logic [NUM_UNITS-1:0][31:0]             issue_rdy_cyc;
  logic [NUM_UNITS-1:0][3:0][31:0]        done_cnt;
  logic                                   release_q, release_ack;
  logic [3:0]                             release_slot;

  logic [NReq-1:0]                        tm_req, tm_we, tm_gnt, tm_deny;
  logic [NReq-1:0][LANES-1:0]             tm_mask;
  logic [NReq-1:0][LANES-1:0][AW-1:0]     tm_addr;
  logic [NReq-1:0][LANES-1:0][31:0]       tm_wdata;
  logic [LANES-1:0][31:0]                 tm_rdata;
  logic [NReq-1:0][31:0]                  tm_lose;

  // Port B per requester (DMA, MXU) and port A per requester (MXU, QUANT).
  logic             dma_rd_valid, dma_rd_ready, mxu_rd_valid, mxu_rd_ready;
  logic [31:0]      dma_rd_addr, mxu_rd_addr;
  logic [TAG_W-1:0] dma_rd_tag, mxu_rd_tag;
  logic             dma_rsp_valid, mxu_rsp_valid;
  logic             ma_valid, ma_ready, ma_we, qa_valid, qa_ready, qa_we;
  logic [31:0]      ma_addr, ma_wdata, qa_addr, qa_wdata;
  logic [3:0]       ma_be, qa_be;
  logic [TAG_W-1:0] ma_tag, qa_tag;
  logic             ma_rsp_valid;
  logic [TAG_W-1:0] b_rsp_tag, a_rsp_tag;   // the top bit (the requester) cleared

  logic                              mxu_busy, mxu_starve, mxu_bp;
  logic [15:0]                       mxu_fifo_level;
  logic [MCOLS-1:0]                  act_rd_en;
  logic [ActRowW-1:0]                act_rd_row;
  logic [ActBlkW-1:0]                act_rd_block;
  logic [MCOLS-1:0][1:0][D*8-1:0]    act_rd_data;
  logic [MCOLS-1:0][1:0][31:0]       act_rd_scale;
  logic                              act_we;
  logic [ActRowW-1:0]                act_row;
  logic [ActBlkW-1:0]                act_block;
  logic [D*8-1:0]                    act_data;
  logic [31:0]                       act_scale;

  ///////////////
  // Sequencer //
  ///////////////

  logic [ImemAw-1:0]  imem_raddr;
  logic [INSTR_W-1:0] imem_rdata;

  otpu_imem #(
    .IMEM_WORDS(IMEM_WORDS)
  ) u_imem (
    .clk_i,
    .we_i   (imem_we_q && !running && !run_q),
    .waddr_i(imem_addr_q),
    .wdata_i(imem_wdata_q),
    .raddr_i(imem_raddr),
    .rdata_o(imem_rdata)
  );

  otpu_seq #(
    .D         (D),
    .WIN       (WIN),
    .ACT_BLOCKS(ACT_BLOCKS),
    .ACT_ROWS  (ACT_ROWS),
    .TMEM_WORDS(TMEM_WORDS),
    .IMEM_WORDS(IMEM_WORDS),
    .DRAM_BYTES(DRAM_BYTES)
  ) u_seq (
    .clk_i,
    .rst_ni,
    .run_i          (run_q),
    .args_i         (args_q),
    .prog_n_i       (prog_n_q),
    .start_o        (start),
    .running_o      (running),
    .halted_o,
    .error_o,
    .error_pc_o,
    .error_cause_o,
    .cycle_o,
    .retired_o,
    .imem_raddr_o   (imem_raddr),
    .imem_rdata_i   (imem_rdata),
    .issue_valid_o  (issue_valid),
    .issue_ready_i  (issue_ready),
    .issue_slot_o   (issue_slot),
    .issue_instr_o  (issue_instr),
    .issue_rdy_cyc_o(issue_rdy_cyc),
    .done_i         (done),
    .done_slot_i    (done_slot),
    .release_o      (release_q),
    .release_slot_o (release_slot),
    .release_ack_i  (release_ack),
    .ev_disp_o,
    .ev_disp_slot_o,
    .ev_disp_pc_o,
    .ev_disp_instr_o,
    .ev_halt_o      (halt)
  );

  assign running_o = running;
  assign version_o = {16'(D), 8'(MCOLS), 8'(LANES)};

  //////////////
  // Memories //
  //////////////

  // The host port writes LANES consecutive words, lane l = word l (the base is LANES-aligned).
  // The lane addresses only while it writes (0 otherwise: lanes are meaningful only with the
  // request), or they would be rebuilt every cycle (docs/rtl.md "Simulation speed").
  logic [LANES-1:0][AW-1:0] host_lane_addr;
  // Coverage off: otpu_board ties the host write ports to 0 (docs/regress.md "Code coverage").
  /* verilator coverage_off */
  always_comb begin
    host_lane_addr = '0;
    if (host_tm_we_q) begin
      for (int l = 0; l < int'(LANES); l++) host_lane_addr[l] = host_tm_addr_q | AW'(l);
    end
  end
  /* verilator coverage_on */
  assign tm_req[RHost]   = host_tm_we_q && !running;
  assign tm_we[RHost]    = 1'b1;
  assign tm_mask[RHost]  = '1;
  assign tm_addr[RHost]  = host_lane_addr;
  assign tm_wdata[RHost] = host_tm_wdata_q;

  otpu_tmem #(
    .LANES     (LANES),
    .TMEM_WORDS(TMEM_WORDS),
    .NREQ      (NReq)
  ) u_tmem (
    .clk_i,
    .rst_ni,
    .clear_i(start),
    .req_i  (tm_req),
    .we_i   (tm_we),
    .mask_i (tm_mask),
    .addr_i (tm_addr),
    .wdata_i(tm_wdata),
    .gnt_o  (tm_gnt),
    .rdata_o(tm_rdata),
    .host_ren_i  (!running),
    .host_raddr_i(host_tm_addr_i),
    .host_rdata_o(host_tm_rdata_o),
    .deny_o (tm_deny),
    .lose_o (tm_lose)
  );

  otpu_act_ram #(
    .D         (D),
    .MCOLS     (MCOLS),
    .ACT_ROWS  (ACT_ROWS),
    .ACT_BLOCKS(ACT_BLOCKS)
  ) u_act_ram (
    .clk_i,
    .we_i         (running && act_we),
    .wr_row_i     (act_row),
    .wr_block_i   (act_block),
    .wr_data_i    (act_data),
    .wr_scale_i   (act_scale),
    .host_we_i    (!running && host_act_we_q),
    .host_wrow_i  (host_act_row_q),
    .host_wblock_i(host_act_block_q),
    .host_wdata_i (host_act_wdata_q),
    .host_wscale_i(host_act_wscale_q),
    .rd_en_i     (act_rd_en),
    .rd_row_i    (act_rd_row),
    .rd_block_i  (act_rd_block),
    .rd_data_o   (act_rd_data),
    .rd_scale_o  (act_rd_scale),
    .host_en_i   (!running),
    .host_row_i  (host_act_row_i),
    .host_block_i(host_act_block_i),
    .host_data_o (host_act_data_o),
    .host_scale_o(host_act_scale_o)
  );

  ///////////
  // Units //
  ///////////

  otpu_dma #(
    .D         (D),
    .LANES     (LANES),
    .TMEM_WORDS(TMEM_WORDS),
    .ROB       (DMA_ROB)
  ) u_dma (
    .clk_i,
    .rst_ni,
    .issue_valid_i(issue_valid[U_DMA]),
    .issue_ready_o(issue_ready[U_DMA]),
    .issue_slot_i (issue_slot[U_DMA]),
    .issue_instr_i(issue_instr[U_DMA]),
    .done_o       (done[U_DMA]),
    .done_slot_o  (done_slot[U_DMA]),
    .done_cnt_o   (done_cnt[U_DMA]),
    .tm_req_o     (tm_req[U_DMA + 1]),
    .tm_we_o      (tm_we[U_DMA + 1]),
    .tm_mask_o    (tm_mask[U_DMA + 1]),
    .tm_addr_o    (tm_addr[U_DMA + 1]),
    .tm_wdata_o   (tm_wdata[U_DMA + 1]),
    .tm_gnt_i     (tm_gnt[U_DMA + 1]),
    .tm_rdata_i   (tm_rdata),
    .b_rd_valid_o (dma_rd_valid),
    .b_rd_ready_i (dma_rd_ready),
    .b_rd_addr_o  (dma_rd_addr),
    .b_rd_tag_o   (dma_rd_tag),
    .b_rsp_valid_i(dma_rsp_valid),
    .b_rsp_tag_i  (b_rsp_tag),
    .b_rsp_data_i,
    .b_wr_valid_o,
    .b_wr_ready_i,
    .b_wr_addr_o,
    .b_wr_data_o,
    .b_wr_be_o
  );

  otpu_mxu #(
    .D         (D),
    .MCOLS     (MCOLS),
    .LANES     (LANES),
    .ACT_ROWS  (ACT_ROWS),
    .ACT_BLOCKS(ACT_BLOCKS),
    .TMEM_WORDS(TMEM_WORDS),
    .FIFO_DEPTH(FIFO_DEPTH)
  ) u_mxu (
    .clk_i,
    .rst_ni,
    .issue_valid_i (issue_valid[U_MXU]),
    .issue_ready_o (issue_ready[U_MXU]),
    .issue_slot_i  (issue_slot[U_MXU]),
    .issue_instr_i (issue_instr[U_MXU]),
    .release_i     (release_q),
    .release_ack_o (release_ack),
    .busy_o        (mxu_busy),
    .done_o        (done[U_MXU]),
    .done_slot_o   (done_slot[U_MXU]),
    .done_cnt_o    (done_cnt[U_MXU]),
    .tm_req_o      (tm_req[U_MXU + 1]),
    .tm_we_o       (tm_we[U_MXU + 1]),
    .tm_mask_o     (tm_mask[U_MXU + 1]),
    .tm_addr_o     (tm_addr[U_MXU + 1]),
    .tm_wdata_o    (tm_wdata[U_MXU + 1]),
    .tm_gnt_i      (tm_gnt[U_MXU + 1]),
    .tm_rdata_i    (tm_rdata),
    .b_rd_valid_o  (mxu_rd_valid),
    .b_rd_ready_i  (mxu_rd_ready),
    .b_rd_addr_o   (mxu_rd_addr),
    .b_rd_tag_o    (mxu_rd_tag),
    .b_rsp_valid_i (mxu_rsp_valid),
    .b_rsp_tag_i   (b_rsp_tag),
    .b_rsp_data_i,
    .a_valid_o     (ma_valid),
    .a_ready_i     (ma_ready),
    .a_we_o        (ma_we),
    .a_addr_o      (ma_addr),
    .a_wdata_o     (ma_wdata),
    .a_be_o        (ma_be),
    .a_tag_o       (ma_tag),
    .a_rsp_valid_i (ma_rsp_valid),
    .a_rsp_tag_i   (a_rsp_tag),
    .a_rsp_data_i,
    .act_rd_en_o   (act_rd_en),
    .act_rd_row_o  (act_rd_row),
    .act_rd_block_o(act_rd_block),
    .act_rd_data_i (act_rd_data),
    .act_rd_scale_i(act_rd_scale),
    .ev_starve_o   (mxu_starve),
    .ev_bp_o       (mxu_bp),
    .fifo_level_o  (mxu_fifo_level)
  );

  otpu_quant #(
    .D         (D),
    .LANES     (LANES),
    .ACT_ROWS  (ACT_ROWS),
    .ACT_BLOCKS(ACT_BLOCKS),
    .TMEM_WORDS(TMEM_WORDS)
  ) u_quant (
    .clk_i,
    .rst_ni,
    .issue_valid_i(issue_valid[U_QUANT]),
    .issue_ready_o(issue_ready[U_QUANT]),
    .issue_slot_i (issue_slot[U_QUANT]),
    .issue_instr_i(issue_instr[U_QUANT]),
    .done_o       (done[U_QUANT]),
    .done_slot_o  (done_slot[U_QUANT]),
    .done_cnt_o   (done_cnt[U_QUANT]),
    .tm_req_o     (tm_req[U_QUANT + 1]),
    .tm_we_o      (tm_we[U_QUANT + 1]),
    .tm_mask_o    (tm_mask[U_QUANT + 1]),
    .tm_addr_o    (tm_addr[U_QUANT + 1]),
    .tm_wdata_o   (tm_wdata[U_QUANT + 1]),
    .tm_gnt_i     (tm_gnt[U_QUANT + 1]),
    .tm_rdata_i   (tm_rdata),
    .a_valid_o    (qa_valid),
    .a_ready_i    (qa_ready),
    .a_we_o       (qa_we),
    .a_addr_o     (qa_addr),
    .a_wdata_o    (qa_wdata),
    .a_be_o       (qa_be),
    .a_tag_o      (qa_tag),
    .act_we_o     (act_we),
    .act_row_o    (act_row),
    .act_block_o  (act_block),
    .act_data_o   (act_data),
    .act_scale_o  (act_scale)
  );

  otpu_vpu #(
    .LANES     (LANES),
    .CL        (CL),
    .TMEM_WORDS(TMEM_WORDS)
  ) u_vpu (
    .clk_i,
    .rst_ni,
    .issue_valid_i(issue_valid[U_VPU]),
    .issue_ready_o(issue_ready[U_VPU]),
    .issue_slot_i (issue_slot[U_VPU]),
    .issue_instr_i(issue_instr[U_VPU]),
    .done_o       (done[U_VPU]),
    .done_slot_o  (done_slot[U_VPU]),
    .done_cnt_o   (done_cnt[U_VPU]),
    .tm_req_o     (tm_req[U_VPU + 1]),
    .tm_we_o      (tm_we[U_VPU + 1]),
    .tm_mask_o    (tm_mask[U_VPU + 1]),
    .tm_addr_o    (tm_addr[U_VPU + 1]),
    .tm_wdata_o   (tm_wdata[U_VPU + 1]),
    .tm_gnt_i     (tm_gnt[U_VPU + 1]),
    .tm_rdata_i   (tm_rdata)
  );

  ////////////////
  // Port muxes //
  ////////////////

  // Port B reads: DMA first. The tag's top bit names the requester (0 DMA, 1 MXU).
  assign b_rd_valid_o  = dma_rd_valid || mxu_rd_valid;
  assign b_rd_addr_o   = dma_rd_valid ? dma_rd_addr : mxu_rd_addr;
  assign b_rd_tag_o    = dma_rd_valid ? {1'b0, dma_rd_tag[TAG_W-2:0]}
                                      : {1'b1, mxu_rd_tag[TAG_W-2:0]};
  assign dma_rd_ready  = b_rd_ready_i;
  assign mxu_rd_ready  = b_rd_ready_i && !dma_rd_valid;
  assign b_rsp_tag     = {1'b0, b_rsp_tag_i[TAG_W-2:0]};
  assign dma_rsp_valid = b_rsp_valid_i && !b_rsp_tag_i[TAG_W-1];
  assign mxu_rsp_valid = b_rsp_valid_i && b_rsp_tag_i[TAG_W-1];

  // Port A: MXU first (tag top bit 0 MXU, 1 QUANT).
  assign a_valid_o    = ma_valid || qa_valid;
  assign a_we_o       = ma_valid ? ma_we : qa_we;
  assign a_addr_o     = ma_valid ? ma_addr : qa_addr;
  assign a_wdata_o    = ma_valid ? ma_wdata : qa_wdata;
  assign a_be_o       = ma_valid ? ma_be : qa_be;
  assign a_tag_o      = ma_valid ? {1'b0, ma_tag[TAG_W-2:0]} : {1'b1, qa_tag[TAG_W-2:0]};
  assign ma_ready     = a_ready_i;
  assign qa_ready     = a_ready_i && !ma_valid;
  assign a_rsp_tag    = {1'b0, a_rsp_tag_i[TAG_W-2:0]};
  assign ma_rsp_valid = a_rsp_valid_i && !a_rsp_tag_i[TAG_W-1];  // QUANT only writes

  logic [1:0] unused_tag_tops;
  assign unused_tag_tops = {dma_rd_tag[TAG_W-1] ^ mxu_rd_tag[TAG_W-1],
                            ma_tag[TAG_W-1] ^ qa_tag[TAG_W-1]};

  ////////////
  // Events //
  ////////////

  otpu_core_events #(
    .NREQ(NReq)
  ) u_events (
    .clk_i,
    .rst_ni,
    .start_i        (start),
    .running_i      (running),
    .halt_i         (halt),
    .win_len_i      (win_len_q),
    .issue_valid_i  (issue_valid),
    .issue_ready_i  (issue_ready),
    .issue_slot_i   (issue_slot),
    .issue_rdy_cyc_i(issue_rdy_cyc),
    .done_i         (done),
    .done_slot_i    (done_slot),
    .done_cnt_i     (done_cnt),
    .release_i      (release_q),
    .release_ack_i  (release_ack),
    .release_slot_i (release_slot),
    .tm_deny_i      (tm_deny),
    .tm_lose_i      (tm_lose),
    .b_rd_valid_i   (b_rd_valid_o),
    .b_rd_ready_i,
    .b_rd_dma_i     (dma_rd_valid),
    .b_wr_valid_i   (b_wr_valid_o),
    .b_wr_ready_i,
    .a_valid_i      (a_valid_o),
    .a_ready_i,
    .a_mxu_i        (ma_valid),
    .mxu_starve_i   (mxu_starve),
    .mxu_bp_i       (mxu_bp),
    .mxu_fifo_level_i(mxu_fifo_level),
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

  logic unused_mxu_busy;
  assign unused_mxu_busy = mxu_busy;

endmodule : otpu_core
