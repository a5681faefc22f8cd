// The core's event bundle (docs/rtl-core.md "Events"): start, release and end of every unit
// instruction, the halt with the run's port totals, the per-window counters and the per-cycle
// activity. Dispatch comes straight from the sequencer. Everything is valid in the cycle it
// happens, before any queue: the simulation harness and the trace unit read the same wires.
module otpu_core_events
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned NREQ = 5    // TMEM requesters: the host port, then the units
) (
  input  logic                             clk_i,
  input  logic                             rst_ni,
  input  logic                             start_i,     // the run starts at this edge
  input  logic                             running_i,
  input  logic                             halt_i,      // the run's last cycle
  input  logic [31:0]                      win_len_i,
  // Sequencer and units
  input  logic [NUM_UNITS-1:0]             issue_valid_i,
  input  logic [NUM_UNITS-1:0]             issue_ready_i,
  input  logic [NUM_UNITS-1:0][3:0]        issue_slot_i,
  input  logic [NUM_UNITS-1:0][31:0]       issue_rdy_cyc_i,
  input  logic [NUM_UNITS-1:0]             done_i,
  input  logic [NUM_UNITS-1:0][3:0]        done_slot_i,
  input  logic [NUM_UNITS-1:0][3:0][31:0]  done_cnt_i,
  input  logic                             release_i,
  input  logic                             release_ack_i,
  input  logic [3:0]                       release_slot_i,
  input  logic [NREQ-1:0]                  tm_deny_i,
  input  logic [NREQ-1:0][31:0]            tm_lose_i,
  // DRAM ports
  input  logic                             b_rd_valid_i,
  input  logic                             b_rd_ready_i,
  input  logic                             b_rd_dma_i,   // the read request is the DMA's
  input  logic                             b_wr_valid_i,
  input  logic                             b_wr_ready_i,
  input  logic                             a_valid_i,
  input  logic                             a_ready_i,
  input  logic                             a_mxu_i,      // the port-A request is the MXU's
  input  logic                             mxu_starve_i,
  input  logic                             mxu_bp_i,
  input  logic [15:0]                      mxu_fifo_level_i,
  // Events
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

  ///////////////////////////
  // Instruction lifecycle //
  ///////////////////////////

  assign ev_start_o      = issue_valid_i & issue_ready_i;
  assign ev_start_slot_o = issue_slot_i;
  assign ev_start_rdy_o  = issue_rdy_cyc_i;
  assign ev_rel_o        = release_i && release_ack_i;
  assign ev_rel_slot_o   = release_slot_i;
  assign ev_end_o        = done_i;
  assign ev_end_slot_o   = done_slot_i;
  assign ev_end_cnt_o    = done_cnt_i;
  assign ev_halt_o       = halt_i;

  // Instructions each unit has started and not finished, and whether that is any (a register
  // of its own: the activity word is rebuilt at every settle of the inputs).
  logic [NUM_UNITS-1:0][4:0] inflight_q;
  logic [NUM_UNITS-1:0]      inflight_any_q;

  //////////////
  // Activity //
  //////////////

  // One assignment of the whole word: the simulator builds a struct assigned field by field
  // with a masked insert per field, on every settle of the inputs.
  logic [NUM_UNITS-1:0] busy;
  assign busy = inflight_any_q | ev_start_o;
  for (genvar u = 0; u < NUM_UNITS; u++) begin : gen_lose
    assign ev_lose_o[u] = tm_lose_i[u + 1];
  end

  // In two parts, each with the other's fields 0: what the units' state decides, and the DRAM
  // port bits, which follow the memory's ready inputs. Kept apart (the window counters read
  // both), only the port part is rebuilt at every settle of the inputs.
  act_t act, act_units, act_ports;
  assign act_units = '{
    busy:       busy,
    deny:       tm_deny_i[NUM_UNITS:1],
    mxu_starve: mxu_starve_i,
    mxu_bp:     mxu_bp_i,
    fifo_level: mxu_fifo_level_i,
    default:    '0
  };
  assign act_ports = '{
    b_rd_mxu: b_rd_valid_i && b_rd_ready_i && !b_rd_dma_i,
    b_rd_dma: b_rd_valid_i && b_rd_ready_i && b_rd_dma_i,
    b_wr_dma: b_wr_valid_i && b_wr_ready_i,
    a_mxu:    a_valid_i && a_ready_i && a_mxu_i,
    a_quant:  a_valid_i && a_ready_i && !a_mxu_i,
    b_wait:   (b_rd_valid_i && !b_rd_ready_i) || (b_wr_valid_i && !b_wr_ready_i),
    a_wait:   a_valid_i && !a_ready_i,
    default:  '0
  };
  assign act      = act_units | act_ports;
  assign ev_act_o = act;

  ///////////////////////
  // Run totals (halt) //
  ///////////////////////

  // Port transfers of the run so far; with this cycle's, at the halt only (0 before).
  logic [3:0][31:0] ports_q;
  // Port i's transfers (otpu_core_pkg::act_port) are counted at the edge and added in the halt
  // cycle, not followed as a signal through every settle of the memory's ready inputs.
  always_comb begin
    ev_halt_ports_o = '0;
    if (halt_i) begin
      for (int i = 0; i < 4; i++) ev_halt_ports_o[i] = ports_q[i] + 32'(act_port(act_ports, i));
    end
  end

  // Registered state in always_ff only: the simulator runs it once a cycle, where
  // combinational next-state logic also runs on every settle of the inputs.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inflight_q     <= '0;
      inflight_any_q <= '0;
      ports_q        <= '0;
    end else if (start_i) begin
      inflight_q     <= '0;
      inflight_any_q <= '0;
      ports_q        <= '0;
    end else begin
      // Each only in the cycles that change it: most cycles start and end nothing, and many
      // move nothing on the DRAM ports.
      if ((ev_start_o | done_i) != '0) begin
        for (int u = 0; u < NUM_UNITS; u++) begin
          inflight_q[u]     <= inflight_q[u] + 5'(ev_start_o[u]) - 5'(done_i[u]);
          inflight_any_q[u] <= inflight_q[u] + 5'(ev_start_o[u]) - 5'(done_i[u]) != '0;
        end
      end
      if (act_ports.b_rd_mxu || act_ports.b_rd_dma || act_ports.b_wr_dma || act_ports.a_mxu ||
          act_ports.a_quant) begin
        for (int i = 0; i < 4; i++) ports_q[i] <= ports_q[i] + 32'(act_port(act_ports, i));
      end
    end
  end

  /////////////
  // Windows //
  /////////////

  otpu_evwin u_evwin (
    .clk_i,
    .rst_ni,
    .start_i  (start_i),
    .running_i(running_i),
    .last_i   (halt_i),
    .win_len_i,
    .units_i  (act_units),
    .ports_i  (act_ports),
    .win_o    (ev_win_o),
    .win_n_o  (ev_win_n_o),
    .win_cnt_o(ev_win_cnt_o)
  );

  logic unused_host;
  assign unused_host = ^{tm_deny_i[0], tm_lose_i[0]};

endmodule : otpu_core_events
