// The hardware trace unit (SPEC 5, docs/trace.md): one bundle of 64-bit records per core cycle
// that has events, a capture queue of QD lines (one record a line) that moves up to DRAIN
// lines a cycle into a buffer of DEPTH records in 8 banks, TRACE_COUNT / TRACE_DROP,
// keep-first, ring and streaming modes, and two read ports: one record for TRACE_LO/HI and one
// 64-byte beat (8 records) for the DMA window.
// Streaming (stream_i): the buffer is a ring the host drains while the core runs; a record is
// written only when fewer than DEPTH written records are unread (widx_o - rptr_i < DEPTH), so
// a host that falls behind fills the capture queue and whole bundles are lost (drop_o). The
// unit never holds the core back.
// It must match sim/rtl/trace/trace_unit_model.{h,cc} record for record.
module otpu_trace
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned QD    = 64,     // capture-queue lines
  parameter int unsigned DRAIN = 2,      // lines the queue moves into the buffer a cycle (1..8)
  parameter int unsigned DEPTH = 65536,  // buffer records (a power of two, >= 16)
  localparam int unsigned DepthW = $clog2(DEPTH)
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  // TRACE_CTRL
  input  logic                             clear_i,            // one-cycle pulse: empty, COUNT = DROP = 0
  input  logic                             enable_i,           // capture bundles
  input  logic                             stop_when_full_i,   // keep first (else ring)
  input  logic                             stream_i,           // TRACE_CTRL.STREAM (wins over stop_when_full_i)
  input  logic [31:0]                      rptr_i,             // TRACE_RPTR: records the host has read
  // The core's cycle number for this cycle's events (0 = first cycle after RUN rose)
  input  logic [31:0]                      cycle_i,
  // The core's event bundle (otpu_core ev_* outputs, same meaning)
  input  logic                             ev_disp_i,
  input  logic [3:0]                       ev_disp_slot_i,
  input  logic [15:0]                      ev_disp_pc_i,
  input  logic [INSTR_W-1:0]               ev_disp_instr_i,
  input  logic [NUM_UNITS-1:0]             ev_start_i,
  input  logic [NUM_UNITS-1:0][3:0]        ev_start_slot_i,
  input  logic [NUM_UNITS-1:0][31:0]       ev_start_rdy_i,
  input  logic                             ev_rel_i,
  input  logic [3:0]                       ev_rel_slot_i,
  input  logic [NUM_UNITS-1:0]             ev_end_i,
  input  logic [NUM_UNITS-1:0][3:0]        ev_end_slot_i,
  input  logic [NUM_UNITS-1:0][3:0][31:0]  ev_end_cnt_i,
  input  logic                             ev_halt_i,
  input  logic [3:0][31:0]                 ev_halt_ports_i,
  input  logic                             ev_win_i,
  input  logic [31:0]                      ev_win_n_i,
  input  logic [WC_NUM-1:0][31:0]          ev_win_cnt_i,
  // TRACE_COUNT, TRACE_DROP, TRACE_CTRL.BUSY (records still queued or a held bundle)
  output logic [31:0]                      count_o,
  output logic [31:0]                      drop_o,
  output logic                             busy_o,
  output logic [31:0]                      widx_o,             // TRACE_WIDX: records written since CLEAR (mod 2^32)
  // Register readout: record at buffer index rd_addr_i, valid the cycle after a cycle with
  // rd_en_i (held otherwise)
  input  logic                             rd_en_i,
  input  logic [DepthW-1:0]                rd_addr_i,
  output logic [63:0]                      rd_data_o,
  // DMA window: records [8*win_beat_i, 8*win_beat_i + 8), valid the cycle after a cycle with
  // win_rd_i (held otherwise)
  input  logic                             win_rd_i,
  input  logic [DepthW-4:0]                win_beat_i,
  output logic [7:0][63:0]                 win_data_o
);
  localparam int unsigned NB = 47;                     // otpu_trace_bundle's lines
  localparam int unsigned NW = $clog2(NB + 1);
  localparam int unsigned PtrW = QD > 1 ? $clog2(QD) : 1;
  localparam int unsigned LvlW = $clog2(QD + NB + 1);  // a level plus a bundle
  localparam int unsigned Banks = 8;
  localparam int unsigned DrW = $clog2(DRAIN + 1);     // 0..DRAIN lines a cycle

  if (QD < 1) begin : g_bad_qd
    $error("otpu_trace: QD must be at least 1");
  end
  if (DRAIN < 1 || DRAIN > Banks || DRAIN > QD) begin : g_bad_drain
    $error("otpu_trace: DRAIN must be 1..8 and at most QD");
  end
  if (DEPTH < 2 * Banks || (DEPTH & (DEPTH - 1)) != 0) begin : g_bad_depth
    $error("otpu_trace: DEPTH must be a power of two, at least 16");
  end

  // ---- This cycle's bundle: how many records it has (the records are built at the edge,
  // below, only when the bundle is captured) ----
  logic [NW-1:0]       live_n;
  otpu_trace_bundle u_bundle (
    .en_i    (enable_i),
    .cycle_i, .ev_disp_i, .ev_start_i, .ev_start_rdy_i, .ev_rel_i, .ev_end_i, .ev_halt_i,
    .ev_win_i,
    .n_o     (live_n)
  );

  // ---- Capture control: drain up to DRAIN lines, then take one bundle whole (or hold / lose
  // it) ----
  logic [LvlW-1:0]     level_q;            // queued lines
  logic [PtrW-1:0]     head_q, tail_q;     // oldest line, next free line
  logic                held_q;             // the halt bundle waits for room
  logic [NW-1:0]       held_n_q;
  logic [31:0]         count_q, drop_q;

  logic [DrW-1:0]      pop_n;              // lines leaving the queue this cycle
  logic [LvlW-1:0]     level_left;         // after the drain
  logic [NW-1:0]       cap_n;              // this cycle's captured lines (0 when disabled)
  logic [NW-1:0]       src_n;
  logic                fits, push, hold, lose;
  logic [NW-1:0]       lost_n;

  logic [DrW-1:0]      room;               // records the buffer may take this cycle
  logic [31:0]         wr_q;               // records written since CLEAR (below)
  // In one block, each part only when it has work (an empty queue drains nothing, no bundle
  // and none held pushes nothing): most cycles have neither (docs/rtl.md "Simulation speed").
  always_comb begin
    logic [31:0] unread;  // streaming: written records the host has not read
    logic [31:0] space;   // streaming: records the ring may take before an unread one
    unread     = '0;
    space      = '0;
    room       = '0;
    pop_n      = '0;
    level_left = level_q;
    cap_n      = enable_i ? live_n : '0;
    src_n      = '0;
    fits       = 1'b1;
    push       = 1'b0;
    hold       = 1'b0;
    lose       = 1'b0;
    lost_n     = '0;
    if (level_q != '0) begin
      unread     = wr_q - rptr_i;
      space      = unread < 32'(DEPTH) ? 32'(DEPTH) - unread : '0;
      room       = !stream_i ? DrW'(DRAIN) : space < 32'(DRAIN) ? DrW'(space) : DrW'(DRAIN);
      pop_n      = LvlW'(room) < level_q ? room : DrW'(level_q);
      level_left = level_q - LvlW'(pop_n);
    end
    if (cap_n != '0 || held_q) begin
      src_n = held_q ? held_n_q : cap_n;
      fits  = level_left + LvlW'(src_n) <= LvlW'(QD);
      push  = src_n != '0 && fits;
      // Only the halt's bundle is held, and only one that can ever fit; a bundle that comes
      // while one is held is lost (a core has none after HALT).
      hold   = !held_q && cap_n != '0 && !fits && ev_halt_i && LvlW'(cap_n) <= LvlW'(QD);
      lose   = held_q ? cap_n != '0 : cap_n != '0 && !fits && !hold;
      lost_n = lose ? cap_n : '0;
    end
  end

  function automatic logic [PtrW-1:0] wrap_add(logic [PtrW-1:0] p, logic [LvlW-1:0] n);
    logic [LvlW:0] sum;
    sum = (LvlW + 1)'(p) + (LvlW + 1)'(n);
    return PtrW'(sum >= (LvlW + 1)'(QD) ? sum - (LvlW + 1)'(QD) : sum);
  endfunction

  function automatic logic [31:0] sat_add(logic [31:0] a, logic [LvlW-1:0] b);
    logic [32:0] sum;
    sum = {1'b0, a} + 33'(b);
    return sum[32] ? 32'hFFFF_FFFF : sum[31:0];
  endfunction

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      level_q  <= '0;
      head_q   <= '0;
      tail_q   <= '0;
      held_q   <= 1'b0;
      held_n_q <= '0;
      count_q  <= '0;
      drop_q   <= '0;
    end else if (clear_i) begin
      level_q  <= '0;
      head_q   <= '0;
      tail_q   <= '0;
      held_q   <= 1'b0;
      held_n_q <= '0;
      count_q  <= '0;
      drop_q   <= '0;
    end else if (pop_n != '0 || src_n != '0) begin  // else nothing moves
      level_q <= level_left + (push ? LvlW'(src_n) : '0);
      head_q  <= wrap_add(head_q, LvlW'(pop_n));
      if (push) tail_q <= wrap_add(tail_q, LvlW'(src_n));
      if (held_q && fits) held_q <= 1'b0;
      if (hold) begin
        held_q   <= 1'b1;
        held_n_q <= cap_n;
      end
      count_q <= sat_add(count_q, LvlW'(pop_n));
      drop_q  <= sat_add(drop_q, LvlW'(lost_n));
    end
  end

  // ---- The capture queue and the held bundle ----
  // The records of a captured bundle, built here at the edge (and only then), packed to the
  // front in trace order (otpu_trace_bundle's positions): D O O | S R per unit | G | E (DMA) |
  // E U V×4 (MXU) | E U V (QUANT) | E U V (VPU) | P V×9 Q V×6 | H V×4. Line k goes to queue
  // entry tail + k (mod QD), or to line k of the held bundle.
  localparam logic [15:0] SatDelay = 16'hFFFF;  // S: cycle - ready did not fit
  localparam logic [23:0] MaxWinN  = 24'hFFFFFF;
  localparam int unsigned WinP = 9, WinQ = 6;   // value records after P and Q

  function automatic logic [63:0] head(record_e t);
    return {t, 60'b0};
  endfunction
  function automatic logic [63:0] value(logic [3:0] idx, logic [31:0] v);
    return {REC_VALUE, idx, 24'b0, v};
  endfunction
  function automatic logic [63:0] slot_cycle(record_e t, logic [3:0] slot);
    return head(t) | {8'b0, slot, 20'b0, cycle_i};
  endfunction
  function automatic logic [63:0] unit_cycle(logic [3:0] unit);
    return head(REC_UNIT) | {12'b0, unit, 16'b0, cycle_i};
  endfunction

  // The queue and the held bundle are this process's own storage: nothing else reads them
  // (the buffer takes its lines from lane_q), so they are written with blocking assignments
  // and a line written at this edge is seen by the lane reads that follow. A simulator then
  // sets up no delayed write per entry at every edge, and does nothing in a cycle that
  // neither captures nor drains (docs/rtl.md "Simulation speed").
  logic [63:0]            queue_q[QD];
  logic [63:0]            held_lines_q[NB];
  logic [DRAIN-1:0][63:0] lane_q;       // entries head .. head + DRAIN - 1 of this cycle
  logic                   unused_instr;  // registers, flags, w4..w7: from the program at pc
  assign unused_instr = ^{ev_disp_instr_i[INSTR_W-1:128], ev_disp_instr_i[31:8]};

  always_ff @(posedge clk_i) begin
    logic [NW-1:0]   n;                     // lines of the bundle built so far
    logic [PtrW-1:0] h;                     // the next cycle's head
    logic [31:0]     delay;
    logic [23:0]     win_n;
    // Line n of the captured bundle is r.
    `define OTPU_TRACE_PUT(r) \
      begin \
        if (hold) held_lines_q[n] = (r); \
        else queue_q[wrap_add(tail_q, LvlW'(n))] = (r); \
        n = n + NW'(1); \
      end
    if (!clear_i && held_q && push) begin
      for (int unsigned k = 0; k < NB; k++) begin
        if (NW'(k) < held_n_q) queue_q[wrap_add(tail_q, LvlW'(k))] = held_lines_q[k];
      end
    end else if (!clear_i && (push || hold)) begin
      n = '0;
      if (ev_disp_i) begin
        `OTPU_TRACE_PUT(head(REC_DISPATCH) | {8'b0, ev_disp_slot_i, 4'b0, ev_disp_pc_i, cycle_i})
        // {op, w3, w2, w1} as two 52-bit halves: low = w2[19:0] w1, high = op w3 w2[31:20]
        // (the rest of the instruction comes from the program at pc).
        `OTPU_TRACE_PUT({REC_OPERANDS, 7'b0, 1'b0, ev_disp_instr_i[83:64], ev_disp_instr_i[63:32]})
        `OTPU_TRACE_PUT({REC_OPERANDS, 7'b0, 1'b1, ev_disp_instr_i[7:0], ev_disp_instr_i[127:96],
                         ev_disp_instr_i[95:84]})
      end
      for (int unsigned u = 0; u < NUM_UNITS; u++) begin
        if (ev_start_i[u]) begin
          delay = cycle_i - ev_start_rdy_i[u];
          `OTPU_TRACE_PUT(head(REC_START) | {8'b0, ev_start_slot_i[u], 4'(u),
                          delay >= 32'(SatDelay) ? SatDelay : delay[15:0], cycle_i})
          if (delay >= 32'(SatDelay)) begin
            `OTPU_TRACE_PUT(head(REC_READY) | {32'b0, ev_start_rdy_i[u]})
          end
        end
      end
      if (ev_rel_i) `OTPU_TRACE_PUT(slot_cycle(REC_RELEASE, ev_rel_slot_i))
      if (ev_end_i[U_DMA]) `OTPU_TRACE_PUT(slot_cycle(REC_END, ev_end_slot_i[U_DMA]))
      if (ev_end_i[U_MXU]) begin
        `OTPU_TRACE_PUT(slot_cycle(REC_END, ev_end_slot_i[U_MXU]))
        `OTPU_TRACE_PUT(unit_cycle(4'(U_MXU)))
        for (int unsigned c = 0; c < 4; c++) `OTPU_TRACE_PUT(value(4'(c), ev_end_cnt_i[U_MXU][c]))
      end
      if (ev_end_i[U_QUANT]) begin
        `OTPU_TRACE_PUT(slot_cycle(REC_END, ev_end_slot_i[U_QUANT]))
        `OTPU_TRACE_PUT(unit_cycle(4'(U_QUANT)))
        `OTPU_TRACE_PUT(value(4'd0, ev_end_cnt_i[U_QUANT][0]))
      end
      if (ev_end_i[U_VPU]) begin
        `OTPU_TRACE_PUT(slot_cycle(REC_END, ev_end_slot_i[U_VPU]))
        `OTPU_TRACE_PUT(unit_cycle(4'(U_VPU)))
        `OTPU_TRACE_PUT(value(4'd0, ev_end_cnt_i[U_VPU][0]))
      end
      if (ev_win_i) begin
        win_n = ev_win_n_i > 32'(MaxWinN) ? MaxWinN : ev_win_n_i[23:0];
        `OTPU_TRACE_PUT(head(REC_WINDOW_P) | {8'b0, win_n, cycle_i})
        for (int unsigned i = 0; i < WinP; i++) `OTPU_TRACE_PUT(value(4'(i), ev_win_cnt_i[i]))
        `OTPU_TRACE_PUT(head(REC_WINDOW_Q) | {8'b0, win_n, cycle_i})
        for (int unsigned i = 0; i < WinQ; i++) begin
          `OTPU_TRACE_PUT(value(4'(i), ev_win_cnt_i[WinP + i]))
        end
      end
      if (ev_halt_i) begin
        `OTPU_TRACE_PUT(slot_cycle(REC_HALT, 4'd0))
        for (int unsigned i = 0; i < 4; i++) `OTPU_TRACE_PUT(value(4'(i), ev_halt_ports_i[i]))
      end
    end
    `undef OTPU_TRACE_PUT
    // The next cycle's lanes, read after this edge's writes: a line captured now may be at the
    // head then. Nothing moves in a cycle that neither captures nor drains.
    if (clear_i || push || pop_n != '0) begin
      h = clear_i ? '0 : wrap_add(head_q, LvlW'(pop_n));
      for (int unsigned k = 0; k < DRAIN; k++) lane_q[k] <= queue_q[wrap_add(h, LvlW'(k))];
    end
  end

  // ---- The buffer: DEPTH records in 8 banks by index mod 8 ----
  // The lines leaving the queue this cycle are records widx .. widx + pop_n - 1: consecutive
  // indices, so (DRAIN <= 8) each lands in a bank of its own, bank b taking line
  // (b - widx) mod 8 of the cycle's lines.
  // wr_q: records written since CLEAR (COUNT without saturation, mod 2^32)
  logic [DepthW-1:0] widx;     // the next record's index: COUNT mod DEPTH
  logic              full_q;   // DEPTH records have been written
  assign widx   = wr_q[DepthW-1:0];

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wr_q   <= '0;
      full_q <= 1'b0;
    end else if (clear_i) begin
      wr_q   <= '0;
      full_q <= 1'b0;
    end else if (pop_n != '0) begin
      wr_q <= wr_q + 32'(pop_n);
      if ((DepthW + 1)'(widx) + (DepthW + 1)'(pop_n) >= (DepthW + 1)'(DEPTH)) full_q <= 1'b1;
    end
  end

  // The cycle's lines, oldest first (lanes past DRAIN unused); bank b takes line
  // (b - widx) mod 8 when there is one. Keep first stores only the first DEPTH records (COUNT
  // still counts the rest); the ring and streaming store every line that leaves the queue.
  logic [Banks-1:0][63:0] lane;
  for (genvar k = 0; k < Banks; k++) begin : g_lane
    if (k < DRAIN) begin : g_used
      assign lane[k] = lane_q[k];
    end else begin : g_unused
      assign lane[k] = '0;
    end
  end

  // A CLEAR's cycle writes nothing: each bank tests clear_i at its edge, so this mask reads
  // only registers (clear_i follows the register bus inputs: a simulator would rebuild the
  // mask at every settle of them, docs/rtl.md "Simulation speed").
  logic [Banks-1:0] bank_we;
  always_comb begin
    logic [DepthW:0] at;
    at      = '0;
    bank_we = '0;
    if (pop_n != '0) begin
      for (int unsigned k = 0; k < DRAIN; k++) begin
        at = (DepthW + 1)'(widx) + (DepthW + 1)'(k);
        if (DrW'(k) < pop_n &&
            (stream_i || !stop_when_full_i || !(full_q || at >= (DepthW + 1)'(DEPTH)))) begin
          bank_we[3'(widx[2:0] + 3'(k))] = 1'b1;
        end
      end
    end
  end

  logic [2:0]                rd_bank_q;
  logic [Banks-1:0][63:0]    rd_bank_data;
  always_ff @(posedge clk_i) if (rd_en_i) rd_bank_q <= rd_addr_i[2:0];

  for (genvar b = 0; b < Banks; b++) begin : g_bank
    otpu_trace_bank #(.Words(DEPTH / Banks), .BANK(b)) u_bank (
      .clk_i,
      .we_i      (bank_we[b]),
      .clear_i,
      .widx_i    (widx),
      .lanes_i   (lane),
      .rd_a_en_i (rd_en_i),
      .raddr_a_i (rd_addr_i[DepthW-1:3]),
      .rdata_a_o (rd_bank_data[b]),
      .rd_b_en_i (win_rd_i),
      .raddr_b_i (win_beat_i),
      .rdata_b_o (win_data_o[b])
    );
  end

  assign rd_data_o = rd_bank_data[rd_bank_q];
  assign count_o   = count_q;
  assign drop_o    = drop_q;
  assign busy_o    = level_q != '0 || held_q;
  assign widx_o    = wr_q;

endmodule
