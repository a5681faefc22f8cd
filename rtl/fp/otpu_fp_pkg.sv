// Constants and small helpers shared by the fp32 units (docs/isa.md "Numerics"). The ISA
// constants live in the generated otpu_pkg; these are the numerics contract's own numbers.
package otpu_fp_pkg;

  // An fp32 value split into its IEEE-754 fields.
  typedef struct packed {
    logic        sign;
    logic [7:0]  exp;
    logic [22:0] man;
  } fp32_t;

  parameter logic [31:0] FP_QNAN    = 32'h7FC0_0000;  // the one NaN any unit produces
  parameter logic [31:0] FP_POS_INF = 32'h7F80_0000;

  // Flush to zero: a subnormal becomes a zero of the same sign.
  function automatic fp32_t fp_ftz(logic [31:0] x);
    fp32_t r;
    r = x;
    if (r.exp == 8'd0) begin
      r.man = 23'd0;
    end
    return r;
  endfunction

  // True for any NaN encoding; takes the magnitude bits x[30:0].
  function automatic logic fp_is_nan(logic [30:0] mag);
    return (mag[30:23] == 8'hFF) && (mag[22:0] != 23'd0);
  endfunction

  // True for ±inf; takes the magnitude bits x[30:0].
  function automatic logic fp_is_inf(logic [30:0] mag);
    return mag == FP_POS_INF[30:0];
  endfunction

  // Rounds a finite nonzero value sign * 1.sig[22:0] * 2^(exp - 127), with a guard bit and
  // a sticky bit below sig, to nearest even. exp is the biased exponent of the *exact* value
  // (sig[23] must be 1): below 1 the exact magnitude is under 2^-126 and the result is a zero
  // of that sign, even where IEEE rounding would reach 2^-126. Overflow gives ±inf.
  function automatic logic [31:0] fp_round_pack(logic sign, logic signed [9:0] exp,
                                                logic [23:0] sig, logic guard, logic sticky);
    logic              carry, unused_hidden;
    logic [22:0]       man;
    logic signed [9:0] exp_r;
    if (exp < 10'sd1) begin
      return {sign, 31'd0};
    end
    // A carry out leaves 2^24, whose low 23 bits are the zero mantissa of 2^(exp+1).
    {carry, unused_hidden, man} = {1'b0, sig} + {24'd0, guard & (sticky | sig[0])};
    exp_r = exp + {9'd0, carry};
    if (exp_r >= 10'sd255) begin
      return {sign, FP_POS_INF[30:0]};
    end
    return {sign, exp_r[7:0], man};
  endfunction

endpackage : otpu_fp_pkg
