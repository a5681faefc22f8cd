// TMEM (docs/rtl-core.md "TMEM"): TMEM_WORDS fp32 words in LANES banks (bank = address mod
// LANES), one access per bank a cycle. Lane l of every request carries a word of bank l.
// Each requester asks for up to LANES words, all reads or all writes; in priority order
// (index 0 first) a requester is granted all of its lanes when none of their banks is taken
// yet, or nothing. Reads return in the granted cycle, writes land at the clock edge. A
// refused requester freezes; its loss counter grows.
module otpu_tmem #(
  parameter int unsigned  LANES      = 8,
  parameter int unsigned  TMEM_WORDS = 65536,
  parameter int unsigned  NREQ       = 5,
  localparam int unsigned AW         = $clog2(TMEM_WORDS)
) (
  input  logic                                clk_i,
  input  logic                                rst_ni,
  input  logic                                clear_i,   // zero the loss counters
  input  logic [NREQ-1:0]                     req_i,
  input  logic [NREQ-1:0]                     we_i,
  input  logic [NREQ-1:0][LANES-1:0]          mask_i,
  input  logic [NREQ-1:0][LANES-1:0][AW-1:0]  addr_i,
  input  logic [NREQ-1:0][LANES-1:0][31:0]    wdata_i,
  output logic [NREQ-1:0]                     gnt_o,
  output logic [LANES-1:0][31:0]              rdata_o,   // bank l's word, for lane l
  // Host read port: LANES words from a LANES-aligned address, combinational, outside the
  // arbitration (a second read port of every bank; only used while the core is idle).
  input  logic                                host_ren_i,  // host_rdata_o is 0 without
  input  logic [AW-1:0]                       host_raddr_i,
  output logic [LANES-1:0][31:0]              host_rdata_o,
  output logic [NREQ-1:0]                     deny_o,    // asked and refused this cycle
  output logic [NREQ-1:0][31:0]               lose_o     // refused cycles since clear_i
);

  localparam int unsigned BankW = $clog2(LANES);
  localparam int unsigned RowW  = AW - BankW;
  localparam int unsigned Rows  = TMEM_WORDS / LANES;

  /////////////
  // Arbiter //
  /////////////

  always_comb begin
    logic [LANES-1:0] taken;
    taken = '0;
    gnt_o = req_i;  // one requester (most cycles) is granted whatever its lanes
    if ((req_i & (req_i - NREQ'(1))) != '0) begin
      for (int r = 0; r < NREQ; r++) begin
        gnt_o[r] = req_i[r] && (mask_i[r] & taken) == '0;
        if (gnt_o[r]) begin
          taken |= mask_i[r];
        end
      end
    end
  end
  assign deny_o = req_i & ~gnt_o;

  ///////////
  // Banks //
  ///////////

  // Each bank's access: the lane of the granted requester that covers it (grants are disjoint).
  // One pass over the granted requesters' lanes, so a cycle with one grant looks at its lanes
  // only (docs/rtl.md "Simulation speed").
  logic            bank_wr[LANES];
  logic [RowW-1:0] bank_row[LANES];
  logic [31:0]     bank_wdata[LANES];
  always_comb begin
    bank_wr    = '{default: 1'b0};
    bank_row   = '{default: '0};
    bank_wdata = '{default: '0};
    if (gnt_o != '0) begin  // nothing to select in the cycles no requester is granted
      for (int r = 0; r < NREQ; r++) begin
        if (gnt_o[r]) begin
          for (int b = 0; b < LANES; b++) begin
            if (mask_i[r][b]) begin
              bank_wr[b]    = we_i[r];
              bank_row[b]   = addr_i[r][b][AW-1:BankW];
              bank_wdata[b] = wdata_i[r][b];
            end
          end
        end
      end
    end
  end

  for (genvar b = 0; b < LANES; b++) begin : gen_bank
    logic            we;
    logic [RowW-1:0] row;
    logic [31:0]     wdata;
    assign we    = bank_wr[b];
    assign row   = bank_row[b];
    assign wdata = bank_wdata[b];

    logic [31:0] mem_q[Rows];
    always_ff @(posedge clk_i) begin
      if (we) begin
        mem_q[row] <= wdata;
      end
    end
    assign rdata_o[b]      = mem_q[row];
    // A top-level input addresses it: read only while the host may (docs/rtl.md "Simulation
    // speed").
    assign host_rdata_o[b] = host_ren_i ? mem_q[host_raddr_i[AW-1:BankW]] : 32'd0;
  end

  logic [BankW-1:0] unused_host_bank;
  assign unused_host_bank = host_raddr_i[BankW-1:0];

  ///////////////////
  // Loss counters //
  ///////////////////

  logic [NREQ-1:0][31:0] lose_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      lose_q <= '0;
    end else if (clear_i) begin
      lose_q <= '0;
    end else if (deny_o != '0) begin
      for (int r = 0; r < NREQ; r++) begin
        lose_q[r] <= lose_q[r] + 32'(deny_o[r]);
      end
    end
  end
  assign lose_o = lose_q;

  ////////////////
  // Assertions //
  ////////////////

  // The banks that two granted requesters both hold: none when the arbiter is right.
  function automatic logic [LANES-1:0] banks_granted_twice(logic [NREQ-1:0]            gnt,
                                                           logic [NREQ-1:0][LANES-1:0] mask);
    logic [LANES-1:0] seen, twice;
    seen  = '0;
    twice = '0;
    for (int r = 0; r < NREQ; r++) begin
      if (gnt[r]) begin
        twice |= seen & mask[r];
        seen  |= mask[r];
      end
    end
    return twice;
  endfunction

  // One grant per bank, only to requesters that asked, each granted lane in its own bank.
  // Checked in the cycles with a request (sensitive to the reset like the registers: SYNCASYNCNET).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (rst_ni && req_i != '0) begin
      TmemGrantOnlyRequests: assert ((gnt_o & ~req_i) == '0)
        else $error("otpu_tmem: grant %b without request %b", gnt_o, req_i);
      TmemOneGrantPerBank: assert (banks_granted_twice(gnt_o, mask_i) == '0)
        else $error("otpu_tmem: banks %b granted twice (grant %b)",
                    banks_granted_twice(gnt_o, mask_i), gnt_o);
      for (int r = 0; r < NREQ; r++) begin  // the granted lanes: the ones that reach a bank
        for (int l = 0; l < LANES; l++) begin
          if (gnt_o[r] && mask_i[r][l]) begin
            TmemLaneInOwnBank: assert (addr_i[r][l][BankW-1:0] == BankW'(l))
              else $error("otpu_tmem: requester %0d lane %0d addresses another bank", r, l);
          end
        end
      end
    end
  end

endmodule : otpu_tmem
