// The sequencer (docs/rtl-core.md "Sequencer"): fetches one instruction a cycle from IMEM,
// runs NOP, LI, ADDI and LOOP itself, resolves register + immediate operands, checks a unit
// instruction's legality and places it in the dispatch window, which issues it to its unit.
// HALT (or an illegal instruction: ERROR) stops fetch; the core halts when the window is
// empty.
module otpu_seq
  import otpu_pkg::*;
  import otpu_core_pkg::*;
#(
  parameter int unsigned     D          = 32,
  parameter int unsigned     WIN        = 16,
  parameter int unsigned     ACT_BLOCKS = 128,
  parameter int unsigned     ACT_ROWS   = 16,
  parameter int unsigned     TMEM_WORDS = 65536,
  parameter int unsigned     IMEM_WORDS = 4096,
  parameter longint unsigned DRAM_BYTES = 64'd1 << 30,
  localparam int unsigned    ImemAw     = $clog2(IMEM_WORDS)
) (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  // Control and status
  input  logic                              run_i,          // a rising edge starts a run
  input  logic [7:0][31:0]                  args_i,         // R8..R15 at run start
  input  logic [15:0]                       prog_n_i,       // program length, instructions
  output logic                              start_o,        // the run starts at this edge
  output logic                              running_o,
  output logic                              halted_o,
  output logic                              error_o,
  output logic [15:0]                       error_pc_o,
  output err_e                              error_cause_o,
  output logic [31:0]                       cycle_o,        // cycles since the run started
  output logic [31:0]                       retired_o,      // instructions, HALT included
  // IMEM: registered read, the data of raddr arrives the next cycle
  output logic [ImemAw-1:0]                 imem_raddr_o,
  input  logic [INSTR_W-1:0]                imem_rdata_i,
  // Units
  output logic [NUM_UNITS-1:0]              issue_valid_o,
  input  logic [NUM_UNITS-1:0]              issue_ready_i,
  output logic [NUM_UNITS-1:0][3:0]         issue_slot_o,
  output logic [NUM_UNITS-1:0][INSTR_W-1:0] issue_instr_o,
  output logic [NUM_UNITS-1:0][31:0]        issue_rdy_cyc_o,
  input  logic [NUM_UNITS-1:0]              done_i,
  input  logic [NUM_UNITS-1:0][3:0]         done_slot_i,
  output logic                              release_o,
  output logic [3:0]                        release_slot_o,
  input  logic                              release_ack_i,
  // Events
  output logic                              ev_disp_o,      // a unit instruction dispatched
  output logic [3:0]                        ev_disp_slot_o,
  output logic [15:0]                       ev_disp_pc_o,
  output logic [INSTR_W-1:0]                ev_disp_instr_o,  // resolved
  output logic                              ev_halt_o       // the run's last cycle
);

  localparam int unsigned Depth = 4;  // LOOP nesting

  typedef enum logic [1:0] {
    ST_IDLE,
    ST_RUN,
    ST_DRAIN
  } state_e;

  // Only state and pc have a combinational next value (IMEM is addressed with it); the rest is
  // written in the always_ff, once a cycle (docs/rtl.md "Simulation speed").
  state_e      state_d, state_q;
  logic        run_q;
  logic [15:0] pc_d, pc_q;
  logic [15:0][31:0] regs_q;
  logic [31:0] cycle_q, retired_q;
  logic        halted_q, error_q;
  logic [15:0] error_pc_q;
  err_e        cause_q;

  // LOOP stack: frame i runs [start, end) `rem` more times (the current pass included).
  // Packed registers, not memories: a simulator sets up a delayed write for each place a
  // memory is written at every cycle, where it copies these few words.
  logic [Depth-1:0][15:0] lp_start_q, lp_end_q;
  logic [Depth-1:0][31:0] lp_rem_q;
  logic [2:0]  depth_q;

  ////////////
  // Decode //
  ////////////

  logic [31:0] w[8];
  for (genvar i = 0; i < 8; i++) begin : gen_words
    assign w[i] = imem_rdata_i[32*i +: 32];
  end

  logic [7:0] opcode;
  logic [3:0] ra, rb, rc, rd;
  assign opcode = w[0][7:0];
  assign ra     = w[0][11:8];
  assign rb     = w[0][15:12];
  assign rc     = w[0][19:16];
  assign rd     = w[0][23:20];

  // The instruction as dispatched: e1..e3 in w1..w3, ra/rb/rc cleared.
  logic [INSTR_W-1:0] resolved;
  always_comb begin
    resolved           = imem_rdata_i;
    resolved[19:8]     = 12'd0;
    resolved[63:32]    = regs_q[ra] + w[1];
    resolved[95:64]    = regs_q[rb] + w[2];
    resolved[127:96]   = regs_q[rc] + w[3];
  end

  logic is_unit_op;
  logic [1:0] unit;
  always_comb begin
    is_unit_op = 1'b1;
    unit       = 2'(UNIT_DMA);
    case (opcode)
      OP_LD, OP_ST:     unit = 2'(UNIT_DMA);
      OP_MM:            unit = 2'(UNIT_MXU);
      OP_QACT, OP_QST:  unit = 2'(UNIT_QUANT);
      OP_VOP:           unit = 2'(UNIT_VPU);
      default:          is_unit_op = 1'b0;
    endcase
  end

  // The legality check runs in the first cycle the sequencer holds an instruction (after a
  // step, or the run's start); while the instruction waits for a window slot it keeps that
  // answer: its words and registers cannot change before the next step.
  logic    chk_fresh_q, chk_err;
  err_e    chk_cause, chk_cause_q, chk_now;
  fprint_t fp;

  otpu_seq_check #(
    .D         (D),
    .ACT_BLOCKS(ACT_BLOCKS),
    .ACT_ROWS  (ACT_ROWS),
    .TMEM_WORDS(TMEM_WORDS),
    .DRAM_BYTES(DRAM_BYTES)
  ) u_check (
    .en_i   (chk_fresh_q),
    .instr_i(resolved),
    .cause_o(chk_cause)
  );
  assign chk_now = chk_fresh_q ? chk_cause : chk_cause_q;
  assign chk_err = chk_now != ERR_NONE;

  otpu_seq_fprint #(
    .D(D)
  ) u_fprint (
    .en_i   (disp_valid && disp_ready),  // the window uses it only on a dispatch
    .instr_i(resolved),
    .fp_o   (fp)
  );

  ////////////
  // Window //
  ////////////

  logic disp_valid, disp_ready, win_empty;
  logic [3:0] disp_slot;

  otpu_seq_window #(
    .WIN(WIN)
  ) u_window (
    .clk_i,
    .rst_ni,
    .clear_i        (start_o),
    .cycle_i        (cycle_q),
    .disp_valid_i   (disp_valid),
    .disp_ready_o   (disp_ready),
    .disp_slot_o    (disp_slot),
    .disp_unit_i    (unit),
    .disp_fp_i      (fp),
    .disp_instr_i   (resolved),
    .issue_valid_o,
    .issue_ready_i,
    .issue_slot_o,
    .issue_instr_o,
    .issue_rdy_cyc_o,
    .done_i,
    .done_slot_i,
    .release_o,
    .release_slot_o,
    .release_ack_i,
    .empty_o        (win_empty)
  );

  /////////////////
  // Fetch, LOOP //
  /////////////////

  // LOOP: count e1, body w4, body end pc + 1 + w4 (33 bits: w4 is a full word).
  logic [32:0] loop_end;
  logic [31:0] loop_count;
  assign loop_end   = 33'(pc_q) + 33'd1 + 33'(w[4]);
  assign loop_count = resolved[63:32];

  err_e loop_cause;
  always_comb begin
    loop_cause = ERR_NONE;
    if (w[4] == '0) begin
      loop_cause = ERR_LOOP_BODY;
    end else if (depth_q == 3'(Depth)) begin
      loop_cause = ERR_LOOP_DEPTH;
    end else if (depth_q != '0 && loop_end > 33'(lp_end_q[2'(depth_q - 3'd1)])) begin
      loop_cause = ERR_LOOP_NEST;
    end else if (loop_end > 33'(prog_n_i)) begin
      loop_cause = ERR_LOOP_END;
    end
  end

  // What the instruction at pc does this cycle.
  logic step, halt_instr;
  err_e fault;
  always_comb begin
    step       = 1'b0;   // it retires this cycle: move to the next pc (else it waits)
    halt_instr = 1'b0;
    fault      = ERR_NONE;
    disp_valid = 1'b0;
    if (state_q == ST_RUN) begin
      if (pc_q >= prog_n_i) begin
        fault = ERR_PAST_END;
      end else if (is_unit_op) begin
        if (chk_err) begin
          fault = chk_now;
        end else begin
          disp_valid = 1'b1;
          step       = disp_ready;
        end
      end else begin
        case (opcode)
          OP_NOP, OP_LI, OP_ADDI: step = 1'b1;
          OP_HALT:                halt_instr = 1'b1;
          OP_LOOP: begin
            fault = loop_cause;
            step  = loop_cause == ERR_NONE;
          end
          default:                fault = ERR_OPCODE;
        endcase
      end
    end
  end

  // The next pc after a retiring instruction: a LOOP with count 0 skips its body, then every
  // body that ends there either repeats or is left (possibly several at once).
  logic        push;
  logic [15:0] next_pc;
  logic [2:0]  close_depth;
  logic [Depth-1:0] rem_dec;
  always_comb begin
    logic       stop;
    logic [1:0] top;
    push        = step && opcode == OP_LOOP && loop_count != '0;
    next_pc     = (step && opcode == OP_LOOP && loop_count == '0) ? loop_end[15:0]
                                                                : pc_q + 16'd1;
    close_depth = depth_q;
    rem_dec     = '0;
    stop        = push;  // a new body ends past pc + 1
    for (int i = 0; i < Depth; i++) begin
      top = 2'(close_depth - 3'd1);
      if (!stop && close_depth != '0 && next_pc == lp_end_q[top]) begin
        if (lp_rem_q[top] > 32'd1) begin
          rem_dec[top] = 1'b1;
          next_pc      = lp_start_q[top];
          stop         = 1'b1;
        end else begin
          close_depth = close_depth - 3'd1;
        end
      end else begin
        stop = 1'b1;
      end
    end
  end

  ///////////
  // State //
  ///////////

  logic run_start, halt_now;
  assign run_start = state_q == ST_IDLE && run_i && !run_q;
  assign halt_now  = (state_q == ST_DRAIN || (state_q == ST_RUN &&
                      (halt_instr || fault != ERR_NONE))) && win_empty;

  always_comb begin
    state_d = state_q;
    pc_d    = pc_q;
    if (run_start) begin
      state_d = ST_RUN;
      pc_d    = '0;
    end else if (state_q != ST_IDLE) begin
      if (fault != ERR_NONE || halt_instr) begin
        state_d = ST_DRAIN;
      end else if (step) begin
        pc_d = next_pc;
      end
      if (halt_now) begin
        state_d = ST_IDLE;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= ST_IDLE;
      run_q      <= 1'b0;
      pc_q       <= '0;
      regs_q     <= '0;
      cycle_q    <= '0;
      retired_q  <= '0;
      halted_q   <= 1'b0;
      error_q    <= 1'b0;
      error_pc_q <= '0;
      cause_q    <= ERR_NONE;
      lp_start_q <= '0;
      lp_end_q   <= '0;
      lp_rem_q   <= '0;
      depth_q    <= '0;
      chk_fresh_q <= 1'b0;
      chk_cause_q <= ERR_NONE;
    end else begin
      state_q     <= state_d;
      run_q       <= run_i;
      pc_q        <= pc_d;
      chk_fresh_q <= run_start || (state_q == ST_RUN && step);
      chk_cause_q <= chk_now;
      if (run_start) begin
        cycle_q   <= '0;
        retired_q <= '0;
        halted_q  <= 1'b0;
        error_q   <= 1'b0;
        cause_q   <= ERR_NONE;
        depth_q   <= '0;
        for (int i = 0; i < 16; i++) begin
          regs_q[i] <= i >= 8 ? args_i[i - 8] : 32'd0;
        end
      end else if (state_q != ST_IDLE) begin
        cycle_q <= cycle_q + 32'd1;
        if (fault != ERR_NONE) begin
          error_q    <= 1'b1;
          error_pc_q <= pc_q;
          cause_q    <= fault;
        end else if (halt_instr) begin
          retired_q <= retired_q + 32'd1;
        end else if (step) begin
          retired_q <= retired_q + 32'd1;
          if ((opcode == OP_LI || opcode == OP_ADDI) && rd != '0) begin
            regs_q[rd] <= opcode == OP_LI ? w[1] : resolved[63:32];
          end
          depth_q <= close_depth;
          for (int i = 0; i < Depth; i++) begin
            if (rem_dec[i]) begin
              lp_rem_q[i] <= lp_rem_q[i] - 32'd1;
            end
          end
          if (push) begin
            lp_start_q[depth_q[1:0]] <= pc_q + 16'd1;
            lp_end_q[depth_q[1:0]]   <= loop_end[15:0];
            lp_rem_q[depth_q[1:0]]   <= loop_count;
            depth_q                  <= depth_q + 3'd1;
          end
        end
        if (halt_now) begin
          halted_q <= 1'b1;
        end
      end
    end
  end

  /////////////
  // Outputs //
  /////////////

  // IMEM is read a cycle ahead: the address is the next cycle's pc (0 while idle, so pc 0 is
  // ready when a run starts).
  assign imem_raddr_o = state_d == ST_RUN ? pc_d[ImemAw-1:0] : '0;

  logic [15-ImemAw:0] unused_pc_hi;
  assign unused_pc_hi = pc_d[15:ImemAw];

  assign start_o       = run_start;
  assign running_o     = state_q != ST_IDLE;
  assign halted_o      = halted_q;
  assign error_o       = error_q;
  assign error_pc_o    = error_pc_q;
  assign error_cause_o = cause_q;
  assign cycle_o       = cycle_q;
  assign retired_o     = retired_q;

  assign ev_disp_o       = disp_valid && disp_ready;
  assign ev_disp_slot_o  = disp_slot;
  assign ev_disp_pc_o    = pc_q;
  assign ev_disp_instr_o = resolved;
  assign ev_halt_o       = halt_now;

endmodule : otpu_seq
