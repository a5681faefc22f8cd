// One core cycle's event bundle as trace records (docs/trace.md "Bundles"): every record the
// cycle can produce sits at a fixed position with a valid bit, in trace order, and the valid
// ones are packed to the front. Matches TraceUnitModel::Bundle (sim/rtl/trace). Built only
// while en_i and some event is valid (otherwise n_o = 0 and lines_o = 0, as the packing of no
// valid record gives): most cycles have no event, and a simulator evaluates the 47 records
// and their packing every cycle unless told not to (docs/rtl.md "Simulation speed").
module otpu_trace_bundle
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  localparam int unsigned NB = 47,  // the most lines one cycle can produce
  localparam int unsigned NW = $clog2(NB + 1)
) (
  input  logic                             en_i,     // the lines are used (capture on)
  input  logic [31:0]                      cycle_i,
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
  output logic [NB-1:0][63:0]              lines_o,  // lines_o[0..n_o-1] in trace order
  output logic [NW-1:0]                    n_o
);
  // Fixed positions: D O O | S R per unit | G | E (DMA) | E U V×4 (MXU) | E U V (QUANT) |
  // E U V (VPU) | P V×9 | Q V×6 | H V×4.
  localparam int unsigned PosD = 0, PosS = 3, PosG = 11, PosE = 12, PosP = 25, PosQ = 35,
                          PosH = 42;
  localparam int unsigned WinP = 9, WinQ = 6;   // value records after P and Q
  localparam logic [15:0] SatDelay = 16'hFFFF;  // S: cycle - ready did not fit
  localparam logic [23:0] MaxWinN = 24'hFFFFFF;

  logic [NB-1:0][63:0] rec;
  logic [NB-1:0]       valid;

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

  // {op, w3, w2, w1} as two 52-bit halves: low = w2[19:0] w1, high = op w3 w2[31:20].
  logic [7:0]  op;
  logic [31:0] w1, w2, w3;
  assign op = ev_disp_instr_i[7:0];
  assign w1 = ev_disp_instr_i[63:32];
  assign w2 = ev_disp_instr_i[95:64];
  assign w3 = ev_disp_instr_i[127:96];
  // The rest of the instruction (registers, flags, w4..w7) comes from the program at pc.
  logic unused_instr;
  assign unused_instr = ^{ev_disp_instr_i[INSTR_W-1:128], ev_disp_instr_i[31:8]};

  logic [NUM_UNITS-1:0][31:0] delay;
  logic [NUM_UNITS-1:0]       saturated;
  logic [23:0]                win_n;
  assign win_n = ev_win_n_i > 32'(MaxWinN) ? MaxWinN : ev_win_n_i[23:0];

  logic any_ev;
  assign any_ev = en_i && (ev_disp_i || ev_start_i != '0 || ev_rel_i || ev_end_i != '0 ||
                           ev_win_i || ev_halt_i);

  // Which records are valid, and how many: from the events' valid bits and ready cycles only,
  // kept apart from the records, whose values (window sums, halt port totals) follow the
  // memory's ready inputs. So the count, and the capture control that uses it, are not
  // rebuilt at every settle of those inputs (docs/rtl.md "Simulation speed").
  always_comb begin
    valid     = '0;
    delay     = '0;
    saturated = '0;
    n_o       = '0;
    if (any_ev) begin
      valid[PosD +: 3] = {3{ev_disp_i}};
      for (int unsigned u = 0; u < NUM_UNITS; u++) begin
        delay[u]     = cycle_i - ev_start_rdy_i[u];
        saturated[u] = delay[u] >= 32'(SatDelay);
        valid[PosS + 2 * u]     = ev_start_i[u];
        valid[PosS + 2 * u + 1] = ev_start_i[u] && saturated[u];
      end
      valid[PosG]          = ev_rel_i;
      valid[PosE]          = ev_end_i[U_DMA];
      valid[PosE + 1 +: 6] = {6{ev_end_i[U_MXU]}};
      valid[PosE + 7 +: 3] = {3{ev_end_i[U_QUANT]}};
      valid[PosE + 10 +: 3] = {3{ev_end_i[U_VPU]}};
      valid[PosP +: 1 + WinP + 1 + WinQ] = {(2 + WinP + WinQ){ev_win_i}};
      valid[PosH +: 5] = {5{ev_halt_i}};
      for (int unsigned s = 0; s < NB; s++) n_o += NW'(valid[s]);
    end
  end

  always_comb begin
    rec = '0;
    if (any_ev) begin
      rec[PosD]     = head(REC_DISPATCH) | {8'b0, ev_disp_slot_i, 4'b0, ev_disp_pc_i, cycle_i};
      rec[PosD + 1] = {REC_OPERANDS, 7'b0, 1'b0, w2[19:0], w1};
      rec[PosD + 2] = {REC_OPERANDS, 7'b0, 1'b1, op, w3, w2[31:20]};
      for (int unsigned u = 0; u < NUM_UNITS; u++) begin
        rec[PosS + 2 * u] = head(REC_START) | {8'b0, ev_start_slot_i[u], 4'(u),
                                                saturated[u] ? SatDelay : delay[u][15:0], cycle_i};
        rec[PosS + 2 * u + 1] = head(REC_READY) | {32'b0, ev_start_rdy_i[u]};
      end
      rec[PosG] = slot_cycle(REC_RELEASE, ev_rel_slot_i);
      // E (DMA); E U V×4 (MXU); E U V (QUANT); E U V (VPU)
      rec[PosE]     = slot_cycle(REC_END, ev_end_slot_i[U_DMA]);
      rec[PosE + 1] = slot_cycle(REC_END, ev_end_slot_i[U_MXU]);
      rec[PosE + 2] = unit_cycle(4'(U_MXU));
      for (int unsigned c = 0; c < 4; c++) begin
        rec[PosE + 3 + c] = value(4'(c), ev_end_cnt_i[U_MXU][c]);
      end
      rec[PosE + 7]  = slot_cycle(REC_END, ev_end_slot_i[U_QUANT]);
      rec[PosE + 8]  = unit_cycle(4'(U_QUANT));
      rec[PosE + 9]  = value(4'd0, ev_end_cnt_i[U_QUANT][0]);
      rec[PosE + 10] = slot_cycle(REC_END, ev_end_slot_i[U_VPU]);
      rec[PosE + 11] = unit_cycle(4'(U_VPU));
      rec[PosE + 12] = value(4'd0, ev_end_cnt_i[U_VPU][0]);
      // P V×9 Q V×6
      rec[PosP] = head(REC_WINDOW_P) | {8'b0, win_n, cycle_i};
      rec[PosQ] = head(REC_WINDOW_Q) | {8'b0, win_n, cycle_i};
      for (int unsigned i = 0; i < WinP; i++) rec[PosP + 1 + i] = value(4'(i), ev_win_cnt_i[i]);
      for (int unsigned i = 0; i < WinQ; i++) begin
        rec[PosQ + 1 + i] = value(4'(i), ev_win_cnt_i[WinP + i]);
      end
      // H V×4
      rec[PosH] = slot_cycle(REC_HALT, 4'd0);
      for (int unsigned i = 0; i < 4; i++) rec[PosH + 1 + i] = value(4'(i), ev_halt_ports_i[i]);
    end
  end

  // Pack: a valid record goes to the number of valid records before it.
  always_comb begin
    logic [NW-1:0] at;
    at      = '0;
    lines_o = '0;
    if (any_ev) begin
      for (int unsigned s = 0; s < NB; s++) begin
        if (valid[s]) begin
          lines_o[at] = rec[s];
          at = at + NW'(1);
        end
      end
    end
  end

endmodule
