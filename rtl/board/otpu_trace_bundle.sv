// One core cycle's event bundle (docs/trace.md "Bundles"): every record the cycle can produce
// has a fixed position, in trace order, with a valid bit; the valid ones are packed to the
// front. This module counts the valid records, from the events' valid bits and
// ready cycles only (0 unless en_i and some event is valid). The records themselves are built
// by otpu_trace at the clock edge, and only in a cycle whose bundle is captured, straight into
// the queue entries they go to: most cycles have no event, and a simulator evaluates a
// combinational bundle of 47 records and its packing at every settle of its inputs, the
// window sums and halt totals following the memory's ready inputs (docs/rtl.md "Simulation
// speed"). Matches TraceUnitModel::Bundle (sim/rtl/trace).
module otpu_trace_bundle
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  localparam int unsigned NB = 47,  // the most lines one cycle can produce
  localparam int unsigned NW = $clog2(NB + 1)
) (
  input  logic                        en_i,      // capture on
  input  logic [31:0]                 cycle_i,
  input  logic                        ev_disp_i,
  input  logic [NUM_UNITS-1:0]        ev_start_i,
  input  logic [NUM_UNITS-1:0][31:0]  ev_start_rdy_i,
  input  logic                        ev_rel_i,
  input  logic [NUM_UNITS-1:0]        ev_end_i,
  input  logic                        ev_halt_i,
  input  logic                        ev_win_i,
  output logic [NW-1:0]               n_o        // the bundle's valid records
);
  // Fixed positions: D O O | S R per unit | G | E (DMA) | E U V×4 (MXU) | E U V (QUANT) |
  // E U V (VPU) | P V×9 Q V×6 | H V×4 (otpu_trace builds the records in this order).
  localparam int unsigned PosD = 0, PosS = 3, PosG = 11, PosE = 12, PosP = 25, PosH = 42;
  localparam int unsigned WinP = 9, WinQ = 6;   // value records after P and Q
  localparam logic [15:0] SatDelay = 16'hFFFF;  // S: cycle - ready did not fit

  logic [NB-1:0] valid;

  logic any_ev;
  assign any_ev = en_i && (ev_disp_i || ev_start_i != '0 || ev_rel_i || ev_end_i != '0 ||
                           ev_win_i || ev_halt_i);

  always_comb begin
    valid = '0;
    n_o   = '0;
    if (any_ev) begin
      valid[PosD +: 3] = {3{ev_disp_i}};
      for (int unsigned u = 0; u < NUM_UNITS; u++) begin
        valid[PosS + 2 * u]     = ev_start_i[u];
        valid[PosS + 2 * u + 1] = ev_start_i[u] && cycle_i - ev_start_rdy_i[u] >= 32'(SatDelay);
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

endmodule
