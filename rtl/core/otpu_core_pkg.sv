// Types and helpers shared by the core's modules (docs/rtl-core.md): address intervals of the
// sequencer's footprints, legality-check causes, and the exact range arithmetic of
// sim/isa/checks.cc. The ISA's own constants (opcodes, units, flags) live in the generated
// otpu_pkg.
package otpu_core_pkg;

  parameter int unsigned TAG_W = 12;      // DRAM port tags; the top bit names the requester
  parameter int unsigned INSTR_W = 256;   // one instruction, w0 in bits 31:0
  parameter int unsigned NUM_UNITS = 4;   // DMA MXU QUANT VPU (COLL is not in a slice)
  // Unit ids as indices (otpu_pkg::unit_e values).
  parameter int unsigned U_DMA   = 0;
  parameter int unsigned U_MXU   = 1;
  parameter int unsigned U_QUANT = 2;
  parameter int unsigned U_VPU   = 3;

  // Why the sequencer raised ERROR (error_cause_o). The C++ harness names them; the ISA
  // simulator's message for the same pc falls in the same class.
  typedef enum logic [3:0] {
    ERR_NONE       = 4'd0,
    ERR_OPCODE     = 4'd1,   // opcode not in the table
    ERR_PAST_END   = 4'd2,   // ran past the end of the program without HALT
    ERR_VOP_FN     = 4'd3,   // VOP function not in the table
    ERR_WF         = 4'd4,   // MM weight format 3
    ERR_ZERO       = 4'd5,   // a shape field (n, k, m, rows, element stride) is 0
    ERR_MULTIPLE   = 4'd6,   // k, n or a W stride is not a multiple of D (2·D for 4-bit)
    ERR_ALIGN      = 4'd7,   // a misaligned DRAM address or stride
    ERR_STRIDE     = 4'd8,   // W row stride shorter than a W row
    ERR_TMEM       = 4'd9,   // TMEM range outside TMEM
    ERR_DRAM       = 4'd10,  // DRAM range outside DRAM
    ERR_ACT        = 4'd11,  // ACT RAM rows or blocks outside ACT RAM
    ERR_LOOP_BODY  = 4'd12,  // LOOP body of 0 instructions
    ERR_LOOP_DEPTH = 4'd13,  // LOOP nested more than 4 deep
    ERR_LOOP_NEST  = 4'd14,  // LOOP body past the end of its enclosing body
    ERR_LOOP_END   = 4'd15   // LOOP body past the end of the program
  } err_e;

  // An address interval [lo, hi) of one space (TMEM words, DRAM bytes, ACT RAM rows or
  // blocks). hi has 33 bits: a DRAM range may end exactly at 2^32.
  typedef struct packed {
    logic        v;    // the instruction touches this interval
    logic        wr;   // ... and writes it
    logic [32:0] lo;
    logic [32:0] hi;
  } ival_t;

  // What an instruction reads and writes (docs/rtl-core.md "Footprint"). ACT RAM is a
  // rectangle: rows [act_rows.lo, .hi) x blocks [act_blocks.lo, .hi), both with the same
  // v and wr.
  typedef struct packed {
    ival_t [2:0] tm;          // TMEM: up to one write and two reads
    ival_t [1:0] dr;          // DRAM: W and scales, or data and scales
    ival_t       act_rows;
    ival_t       act_blocks;
  } fprint_t;

  // What the core did this cycle (the per-window counters of SPEC 5 and the board's
  // free-running counters are sums of these). Unit order DMA MXU QUANT VPU.
  typedef struct packed {
    logic [3:0]  busy;        // the unit has a started, unfinished instruction
    logic [3:0]  deny;        // the TMEM arbiter refused the unit
    logic        b_rd_mxu;    // port-B read request accepted, MXU weight streaming
    logic        b_rd_dma;    // ... LD
    logic        b_wr_dma;    // port-B write accepted (ST)
    logic        a_mxu;       // port-A request accepted, MXU scales
    logic        a_quant;     // ... QST
    logic        b_wait;      // a port-B request (read or write) is not accepted
    logic        a_wait;      // the port-A request is not accepted
    logic        mxu_starve;  // the MXU consumer waits for a weight chunk
    logic        mxu_bp;      // the MXU streamer waits for weight-FIFO room
    logic [15:0] fifo_level;  // MXU weight-FIFO occupancy, chunks
  } act_t;

  // DRAM port i's transfers in a cycle of activity a: [0] port-B MXU reads, [1] DMA reads and
  // writes, [2] port-A MXU reads, [3] QUANT writes (the run totals' order, and the window
  // columns BM BD AM AQ).
  function automatic logic [1:0] act_port(act_t a, int i);
    logic [1:0] r;
    logic unused_a;
    unused_a = ^{a.busy, a.deny, a.b_wait, a.a_wait, a.mxu_starve, a.mxu_bp, a.fifo_level};
    // A plain case: the items are distinct constants, and a unique case is checked at run time
    // under --assert at every call (this one is inlined hundreds of times; docs/regress.md
    // "Assertion cost").
    // Each arm assigns and the function returns once, so that Verilator counts the arms.
    case (i)
      0:       r = 2'(a.b_rd_mxu);
      1:       r = 2'(a.b_rd_dma) + 2'(a.b_wr_dma);
      2:       r = 2'(a.a_mxu);
      default: r = 2'(a.a_quant);
    endcase
    return r;
  endfunction

  // Per-window counter columns (docs/profile.md "buckets"; P then Q records of SPEC 5).
  typedef enum int unsigned {
    WC_BM, WC_BD, WC_AM, WC_AQ, WC_MX, WC_FM, WC_FQ, WC_FV, WC_FC,
    WC_BS, WC_AS, WC_MS, WC_MB, WC_FF, WC_LD, WC_NUM
  } wcol_e;

  // base + (count - 1) * stride + len, exact (66 bits cannot overflow for 32-bit base,
  // count, stride and a 48-bit len). count >= 1 is the caller's business.
  function automatic logic [65:0] range_end(logic [31:0] base, logic [31:0] count,
                                            logic [31:0] stride, logic [47:0] len);
    logic [63:0] span;
    span = {32'd0, count - 32'd1} * {32'd0, stride};
    return 66'(base) + 66'(span) + 66'(len);
  endfunction

  // True when two intervals of the same space overlap and at least one side writes.
  function automatic logic ival_conflict(ival_t a, ival_t b);
    return a.v && b.v && (a.wr || b.wr) && (a.lo < b.hi) && (b.lo < a.hi);
  endfunction

  // True when two footprints conflict in any space; dram_only looks at DRAM alone (the MM
  // streamer's dependencies).
  function automatic logic fprint_conflict(fprint_t a, fprint_t b, logic dram_only);
    logic c;
    c = 1'b0;
    for (int i = 0; i < 2; i++) begin
      for (int j = 0; j < 2; j++) begin
        c |= ival_conflict(a.dr[i], b.dr[j]);
      end
    end
    if (!dram_only) begin
      for (int i = 0; i < 3; i++) begin
        for (int j = 0; j < 3; j++) begin
          c |= ival_conflict(a.tm[i], b.tm[j]);
        end
      end
      c |= ival_conflict(a.act_rows, b.act_rows) && ival_conflict(a.act_blocks, b.act_blocks);
    end
    return c;
  endfunction

  // The MXU columns holding a row in pass p of an MM of m rows, mcols columns a pass: column c
  // when c < m - p * mcols (bit c of the mask; mcols <= 32, p < the MM's passes). Shared by the
  // consumer (otpu_mxu_cons) and the preloader (otpu_mxu_tm).
  function automatic logic [31:0] mxu_pass_cols(logic [7:0] m, logic [4:0] p,
                                                int unsigned mcols);
    logic [8:0] left;
    left          = 9'(m) - 9'(int'(p) * int'(mcols));
    mxu_pass_cols = '0;
    for (int unsigned c = 0; c < mcols; c++) begin
      mxu_pass_cols[c] = (9'(c) < left);
    end
  endfunction

  // A 4-bit MM weight as a signed value (docs/isa.md MM): int4 -8..7 (two's complement), or
  // fp4 E2M1 at twice its value, {0,1,2,3,4,6,8,12} with bit 3 the sign.
  function automatic logic signed [4:0] mxu_nibble(logic [3:0] nib, logic fp4);
    logic [3:0] mag;
    if (!fp4) begin
      return {nib[3], nib};
    end
    case (nib[2:0])
      3'd5:    mag = 4'd6;
      3'd6:    mag = 4'd8;
      3'd7:    mag = 4'd12;
      default: mag = {1'b0, nib[2:0]};
    endcase
    return nib[3] ? -$signed({1'b0, mag}) : $signed({1'b0, mag});
  endfunction

  // One weight byte's exact product (otpu_mxu_mac): int8 w * a_lo, or a byte of two 4-bit
  // weights (element 2i in the low nibble) times their activations a_lo, a_hi.
  function automatic logic signed [15:0] mxu_mac(logic [7:0] w, logic [7:0] a_lo,
                                                 logic [7:0] a_hi, logic four_bit, logic fp4);
    if (!four_bit) begin
      return 16'($signed(a_lo)) * 16'($signed(w));
    end
    return 16'($signed(a_lo)) * 16'(mxu_nibble(w[3:0], fp4))
         + 16'($signed(a_hi)) * 16'(mxu_nibble(w[7:4], fp4));
  endfunction

endpackage : otpu_core_pkg
