// The dispatch window (docs/rtl-core.md "Window" and "Issue"): WIN slots, each holding a
// dispatched unit instruction, its footprint and its dependency masks. A new instruction
// depends on every older slot it conflicts with; each unit starts its oldest instruction once
// that instruction's dependencies have ended. The MXU is two-phase: its streamer starts an MM
// when the MM's DRAM dependencies have ended, its consumer takes it (release) when all have.
module otpu_seq_window
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned WIN = 16
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  logic                              clear_i,        // run start
  input  logic [31:0]                       cycle_i,        // for ready timestamps
  // Dispatch: a unit instruction takes the lowest free slot.
  input  logic                              disp_valid_i,
  output logic                              disp_ready_o,   // a slot is free
  output logic [3:0]                        disp_slot_o,
  input  logic [1:0]                        disp_unit_i,
  input  fprint_t                           disp_fp_i,
  input  logic [INSTR_W-1:0]                disp_instr_i,
  // Issue: each unit's oldest instruction, offered when its dependencies have ended.
  output logic [NUM_UNITS-1:0]              issue_valid_o,
  input  logic [NUM_UNITS-1:0]              issue_ready_i,
  output logic [NUM_UNITS-1:0][3:0]         issue_slot_o,
  output logic [NUM_UNITS-1:0][INSTR_W-1:0] issue_instr_o,
  output logic [NUM_UNITS-1:0][31:0]        issue_rdy_cyc_o, // first cycle it was ready
  // Completion: the slot's instruction has ended; it leaves the window at this edge.
  input  logic [NUM_UNITS-1:0]              done_i,
  input  logic [NUM_UNITS-1:0][3:0]         done_slot_i,
  // MXU release: the oldest started MM whose dependencies have all ended.
  output logic                              release_o,
  output logic [3:0]                        release_slot_o,
  input  logic                              release_ack_i,
  output logic                              empty_o
);

  localparam int unsigned UnitMxu = 1;

  logic [WIN-1:0]          valid_d, valid_q;
  logic [WIN-1:0][WIN-1:0] dep_q;             // dep_q[s][o]: s waits for o to end
  logic [WIN-1:0][WIN-1:0] drdep_q;           // the subset due to DRAM (MM streamer)
  logic [WIN-1:0]          is_mm_q;
  logic [WIN-1:0]          rdy_d, rdy_q;      // ready seen, at rdy_cyc_q
  logic [WIN-1:0][31:0]    rdy_cyc_q;
  fprint_t                 fp_q[WIN];
  logic [INSTR_W-1:0]      instr_q[WIN];

  ////////////////////////////
  // Slots leaving, joining //
  ////////////////////////////

  logic [WIN-1:0] ending;
  always_comb begin
    ending = '0;
    for (int u = 0; u < NUM_UNITS; u++) begin
      if (done_i[u]) begin
        ending[done_slot_i[u]] = 1'b1;
      end
    end
  end

  // The lowest set bit of free (0 if none), in four halving steps rather than a loop over the
  // slots (docs/rtl.md "Simulation speed").
  function automatic logic [3:0] lowest(logic [15:0] free);
    logic [15:0] x;
    x      = free;
    lowest = '0;
    if (x[7:0] == '0) begin
      lowest[3] = 1'b1;
      x         = x >> 8;
    end
    if (x[3:0] == '0) begin
      lowest[2] = 1'b1;
      x         = x >> 4;
    end
    if (x[1:0] == '0) begin
      lowest[1] = 1'b1;
      x         = x >> 2;
    end
    lowest[0] = !x[0];
    if (free == '0) lowest = '0;
  endfunction

  logic [3:0] free_slot;
  assign disp_ready_o = valid_q != '1;
  assign free_slot    = lowest(16'(~valid_q));
  assign disp_slot_o  = free_slot;

  logic dispatch;
  assign dispatch = disp_valid_i && disp_ready_o;

  // The new instruction's conflicts with every slot in the window (ending ones included: a
  // dependency ending this cycle still delays readiness to the next). Used only when it
  // dispatches, so only computed then, and only for occupied slots (docs/rtl.md "Simulation
  // speed").
  logic [WIN-1:0] conf, drconf;
  always_comb begin
    conf   = '0;
    drconf = '0;
    if (dispatch) begin
      for (int s = 0; s < WIN; s++) begin
        if (valid_q[s]) begin
          drconf[s] = fprint_conflict(disp_fp_i, fp_q[s], 1'b1);
          conf[s]   = drconf[s] || fprint_conflict(disp_fp_i, fp_q[s], 1'b0);
        end
      end
    end
  end

  logic disp_is_mm;
  assign disp_is_mm = disp_unit_i == 2'(UnitMxu);

  ////////////////////////
  // Readiness and deps //
  ////////////////////////

  // The dependencies that gate a slot's start have all ended: DRAM ones for an MM, all for the
  // others. A register, updated with the matrices (it is a function of them alone).
  logic [WIN-1:0] gate_clear;

  always_comb begin
    valid_d = valid_q & ~ending;
    rdy_d   = valid_d & (rdy_q | gate_clear);
    if (dispatch) begin
      valid_d[free_slot] = 1'b1;
      rdy_d[free_slot]   = (disp_is_mm ? drconf : conf) == '0;
    end
    if (clear_i) begin
      valid_d = '0;
      rdy_d   = '0;
    end
  end

  // The dependency matrices change only when a slot ends or one is taken: updated in the
  // always_ff under those events (docs/rtl.md "Simulation speed").
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_q    <= '0;
      dep_q      <= '0;
      drdep_q    <= '0;
      is_mm_q    <= '0;
      rdy_q      <= '0;
      gate_clear <= '1;
    end else begin
      valid_q <= valid_d;
      rdy_q   <= rdy_d;
      if (ending != '0) begin
        for (int s = 0; s < WIN; s++) begin
          dep_q[s]      <= dep_q[s] & ~ending;
          drdep_q[s]    <= drdep_q[s] & ~ending;
          gate_clear[s] <= ((is_mm_q[s] ? drdep_q[s] : dep_q[s]) & ~ending) == '0;
        end
      end
      if (dispatch) begin
        is_mm_q[free_slot]    <= disp_is_mm;
        dep_q[free_slot]      <= conf & ~ending;
        drdep_q[free_slot]    <= drconf & ~ending;
        gate_clear[free_slot] <= ((disp_is_mm ? drconf : conf) & ~ending) == '0;
      end
    end
  end

  // Per-slot storage, written when a slot is taken (and the ready cycle when it is seen).
  always_ff @(posedge clk_i) begin
    if (dispatch) begin
      fp_q[free_slot]    <= disp_fp_i;
      instr_q[free_slot] <= disp_instr_i;
    end
    if ((rdy_d & ~rdy_q) != '0) begin
      for (int s = 0; s < WIN; s++) begin
        if (rdy_d[s] && !rdy_q[s]) begin
          rdy_cyc_q[s] <= cycle_i;
        end
      end
    end
  end

  ///////////
  // Issue //
  ///////////

  logic [NUM_UNITS-1:0]      q_empty, q_push, q_pop;
  logic [NUM_UNITS-1:0][3:0] q_head;
  logic [NUM_UNITS-1:0]      unused_q_full;  // a queue holds at most WIN slots

  for (genvar u = 0; u < NUM_UNITS; u++) begin : gen_unit_queue
    otpu_fifo #(
      .Width(4),
      .Depth(WIN)
    ) u_queue (
      .clk_i,
      .rst_ni,
      .clear_i(clear_i),
      .push_i (q_push[u]),
      .data_i (free_slot),
      .pop_i  (q_pop[u]),
      .data_o (q_head[u]),
      .empty_o(q_empty[u]),
      .full_o (unused_q_full[u])
    );
    assign q_push[u]          = dispatch && disp_unit_i == 2'(u);
    assign issue_valid_o[u]   = !q_empty[u] && gate_clear[q_head[u]];
    assign q_pop[u]           = issue_valid_o[u] && issue_ready_i[u];
    assign issue_slot_o[u]    = q_head[u];
    assign issue_instr_o[u]   = instr_q[q_head[u]];
    // Ready this very cycle when the flag is not set yet.
    assign issue_rdy_cyc_o[u] = rdy_q[q_head[u]] ? rdy_cyc_q[q_head[u]] : cycle_i;
  end

  /////////////////
  // MXU release //
  /////////////////

  logic       rel_empty;
  logic [3:0] rel_head;
  logic       unused_rel_full;
  otpu_fifo #(
    .Width(4),
    .Depth(WIN)
  ) u_release_queue (
    .clk_i,
    .rst_ni,
    .clear_i(clear_i),
    .push_i (q_pop[UnitMxu]),
    .data_i (q_head[UnitMxu]),
    .pop_i  (release_o && release_ack_i),
    .data_o (rel_head),
    .empty_o(rel_empty),
    .full_o (unused_rel_full)
  );
  assign release_o      = !rel_empty && dep_q[rel_head] == '0;
  assign release_slot_o = rel_head;

  assign empty_o = valid_q == '0;

  ////////////////
  // Assertions //
  ////////////////

  // Every model runs with `--assert` (docs/regress.md "Assertions"). The hazard rule is checked
  // against a record of its own: older_q[s][o], slot o held an older instruction when s was
  // dispatched and has not left since, and a conflict test written apart from otpu_core_pkg's
  // ival_conflict, so that a bug in the dependency masks or in that function shows here.
  logic [WIN-1:0][WIN-1:0] older_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      older_q <= '0;
    end else begin
      if (ending != '0) begin
        for (int s = 0; s < WIN; s++) begin
          older_q[s] <= older_q[s] & ~ending;
        end
      end
      if (dispatch) begin
        older_q[free_slot] <= valid_q & ~ending;
      end
    end
  end

  // Two intervals share an address and not both are reads.
  function automatic logic clash(ival_t a, ival_t b);
    logic apart;
    apart = a.hi <= b.lo || b.hi <= a.lo;
    return a.v && b.v && !apart && (a.wr || b.wr);
  endfunction

  // The footprints clash in DRAM (dram_only) or in any space.
  function automatic logic fp_clash(fprint_t a, fprint_t b, logic dram_only);
    logic c;
    c = clash(a.dr[0], b.dr[0]) || clash(a.dr[0], b.dr[1]) || clash(a.dr[1], b.dr[0]) ||
        clash(a.dr[1], b.dr[1]);
    if (!dram_only) begin
      for (int i = 0; i < 3; i++) begin
        for (int j = 0; j < 3; j++) begin
          c = c || clash(a.tm[i], b.tm[j]);
        end
      end
      c = c || (clash(a.act_rows, b.act_rows) && clash(a.act_blocks, b.act_blocks));
    end
    return c;
  endfunction

  // The first older slot in flight whose footprint clashes with slot s's (WIN: none). A C++
  // function of its own (no_inline_task): inlined at its call sites, its and fp_clash's wide
  // locals were zeroed at the top of the clocked code every cycle, whether an instruction
  // issued or not (most of --assert's cost, docs/regress.md "Assertion cost").
  function automatic logic [4:0] clashing_older(logic [WIN-1:0] older, logic [WIN-1:0] valid,
                                                fprint_t fp[WIN], logic [3:0] s,
                                                logic dram_only);
    /* verilator no_inline_task */
    clashing_older = 5'(WIN);
    for (int o = WIN - 1; o >= 0; o--) begin
      if (older[o] && valid[o] && fp_clash(fp[o], fp[s], dram_only)) begin
        clashing_older = 5'(o);
      end
    end
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && !clear_i) begin
      WinDispatchToAFreeSlot: assert (!(dispatch && valid_q[free_slot]))
        else $error("otpu_seq_window: dispatch into slot %0d, which is taken", free_slot);
      for (int u = 0; u < NUM_UNITS; u++) begin
        if (q_pop[u]) begin
          WinIssueAfterItsDependencies: assert (
              ((is_mm_q[q_head[u]] ? drdep_q[q_head[u]] : dep_q[q_head[u]]) & valid_q) == '0)
            else $error("otpu_seq_window: unit %0d started slot %0d with dependencies %b", u,
                        q_head[u], is_mm_q[q_head[u]] ? drdep_q[q_head[u]] : dep_q[q_head[u]]);
          WinNoIssueWhileAConflictIsInFlight: assert (
              clashing_older(older_q[q_head[u]], valid_q, fp_q, q_head[u], is_mm_q[q_head[u]]) == 5'(WIN))
            else $error("otpu_seq_window: unit %0d started slot %0d while older slot %0d, which it conflicts with, is in flight",
                        u, q_head[u], clashing_older(older_q[q_head[u]], valid_q, fp_q,
                                                     q_head[u], is_mm_q[q_head[u]]));
        end
      end
      if (release_o && release_ack_i) begin
        WinNoReleaseWhileAConflictIsInFlight: assert (
            clashing_older(older_q[rel_head], valid_q, fp_q, rel_head, 1'b0) == 5'(WIN))
          else $error("otpu_seq_window: MM in slot %0d released while older slot %0d, which it conflicts with, is in flight",
                      rel_head, clashing_older(older_q[rel_head], valid_q, fp_q, rel_head, 1'b0));
      end
    end
  end

endmodule : otpu_seq_window
