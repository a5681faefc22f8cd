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
  // exp2's polynomial, FP_EXP2_C[i] = c_i of docs/isa.md (c0 = 1.0).
  parameter logic [6:0][31:0] FP_EXP2_C = {
    32'h3965_4785, 32'h3AA2_6A69, 32'h3C1E_AA6C, 32'h3D63_3FA8,
    32'h3E75_FEF9, 32'h3F31_7214, 32'h3F80_0000
  };

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
  // (sig[23] must be 1), passed as exp127 = exp + 127, which no caller makes negative: below
  // exp 1 the exact magnitude is under 2^-126 and the result is a zero of that sign, even
  // where IEEE rounding would reach 2^-126. Overflow gives ±inf. (Unsigned 32 bits: a
  // simulator compares them in one instruction, where a signed or narrow value is extended
  // at every use.)
  function automatic logic [31:0] fp_round_pack(logic sign, logic [31:0] exp127,
                                                logic [23:0] sig, logic guard, logic sticky);
    logic        unused_hidden, unused_exp, inc;
    logic [31:0] exp;
    unused_hidden = sig[23];
    inc           = guard & (sticky | sig[0]);
    if (exp127 < 32'd128) begin  // exp < 1
      return {sign, 31'd0};
    end
    if (exp127 >= 32'd382) begin  // exp >= 255
      return {sign, FP_POS_INF[30:0]};
    end
    exp        = exp127 - 32'd127;  // 1 .. 254 here
    unused_exp = ^exp[31:8];
    // The rounding increment added to exponent and mantissa together: a carry out of the
    // mantissa leaves it 0 and adds 1 to the exponent, and exponent 254 + 1 is the encoding
    // of inf.
    return {sign, {exp[7:0], sig[22:0]} + 31'(inc)};
  endfunction

  //////////////////////////////////////////////////////////////////////////////////////////
  // The units as functions. Each otpu_fp_* module is one call of its function here, so the //
  // fp_rtl_test vectors check both. Hot units call these inside an always_comb under their  //
  // enable: Verilator then evaluates the arithmetic only in the cycles that use it (an      //
  // instance is evaluated every cycle). docs/rtl.md "Simulation speed".                     //
  //////////////////////////////////////////////////////////////////////////////////////////

  // Leading zeros of x and x shifted left by them (the stages of otpu_fp_lzc): {cnt, norm}.
  // x = 0 gives cnt 31 and norm 0.
  function automatic logic [36:0] fp_lzc32(logic [31:0] x);
    logic [31:0] v;
    logic [4:0]  cnt;
    v      = x;
    cnt[4] = (v[31:16] == 16'd0);
    if (cnt[4]) v = v << 16;
    cnt[3] = (v[31:24] == 8'd0);
    if (cnt[3]) v = v << 8;
    cnt[2] = (v[31:28] == 4'd0);
    if (cnt[2]) v = v << 4;
    cnt[1] = (v[31:30] == 2'd0);
    if (cnt[1]) v = v << 2;
    cnt[0] = !v[31];
    if (cnt[0]) v = v << 1;
    return {cnt, v};
  endfunction

  // True when the biased exponent is that of a normal number (not zero/subnormal, inf or NaN).
  function automatic logic fp_normal_exp(logic [7:0] exp);
    return exp != 8'd0 && exp != 8'hFF;
  endfunction

  // otpu_fp_add: a + b, or a - b with sub. Two normal operands (the common case) skip the
  // special-value checks: a simulator runs them as branches on every call.
  function automatic logic [31:0] fp_add(logic [31:0] a_i, logic [31:0] b_i, logic sub_i);
    /* verilator no_inline_task */
    fp32_t             a, b, larger, smaller;
    logic [7:0]        exp_diff;
    logic [4:0]        shift, lzc;
    logic [26:0]       sig_larger, sig_smaller;
    logic [31:0]       sig_s;
    logic [27:0]       sum, norm;
    logic [36:0]       cz;
    logic [31:0]       norm_exp127;
    logic              unused_low;
    a = a_i;
    b = {b_i[31] ^ sub_i, b_i[30:0]};
    if (!fp_normal_exp(a.exp) || !fp_normal_exp(b.exp)) begin
      // A zero (or a flushed subnormal) and a normal number, the common special case (an
      // accumulator's first term), before the checks for the rest.
      if (b.exp == 8'd0 && fp_normal_exp(a.exp)) return a;
      if (a.exp == 8'd0 && fp_normal_exp(b.exp)) return b;
      a = fp_ftz(a);
      b = fp_ftz(b);
      if (fp_is_nan(a[30:0]) || fp_is_nan(b[30:0]) ||
          (fp_is_inf(a[30:0]) && fp_is_inf(b[30:0]) && (a.sign != b.sign))) begin
        return FP_QNAN;
      end
      if (fp_is_inf(a[30:0])) return a;
      if (fp_is_inf(b[30:0])) return b;
      if (a.exp == 8'd0 && b.exp == 8'd0) return {a.sign & b.sign, 31'd0};
      if (b.exp == 8'd0) return a;
      return b;  // a.exp == 0: the only case left
    end
    if ({b.exp, b.man} > {a.exp, a.man}) begin
      larger  = b;
      smaller = a;
    end else begin
      larger  = a;
      smaller = b;
    end
    exp_diff        = larger.exp - smaller.exp;
    shift           = (exp_diff > 8'd27) ? 5'd27 : exp_diff[4:0];
    sig_larger      = {1'b1, larger.man, 3'b000};
    // The smaller significand aligned, its lowest bit ORed with every bit shifted out (sticky).
    sig_s           = {5'd0, 1'b1, smaller.man, 3'b000};
    sig_smaller     = 27'(sig_s >> shift) | 27'((sig_s & ~(32'hFFFF_FFFF << shift)) != 32'd0);
    if (larger.sign == smaller.sign) begin
      // A sum of two normal significands lies in [2^26, 2^28): one step normalizes it, where
      // the leading-zero count would take five.
      sum  = {1'b0, sig_larger} + {1'b0, sig_smaller};
      lzc  = sum[27] ? 5'd0 : 5'd1;
      norm = sum[27] ? sum : {sum[26:0], 1'b0};
    end else begin
      sum = {1'b0, sig_larger} - {1'b0, sig_smaller};
      if (sum == 28'd0) return 32'd0;
      cz         = fp_lzc32({sum, 4'd0});
      lzc        = cz[36:32];
      norm       = cz[31:4];
      unused_low = ^cz[3:0];
    end
    norm_exp127 = 32'(larger.exp) + 32'd128 - 32'(lzc);  // exp + 127, at least 98
    return fp_round_pack(larger.sign, norm_exp127, norm[27:4], norm[3], |norm[2:0]);
  endfunction

  // otpu_fp_mul: a * b. Two normal operands (the common case) skip the special-value checks.
  function automatic logic [31:0] fp_mul(logic [31:0] a_i, logic [31:0] b_i);
    /* verilator no_inline_task */
    fp32_t             a, b;
    logic              sign, a_zero, b_zero, a_inf, b_inf;
    logic [47:0]       prod;
    logic [31:0]       exp127;
    a    = a_i;
    b    = b_i;
    sign = a.sign ^ b.sign;
    if (!fp_normal_exp(a.exp) || !fp_normal_exp(b.exp)) begin
      // A zero (or a flushed subnormal) times a normal number, the common special case.
      if ((a.exp == 8'd0 && fp_normal_exp(b.exp)) || (b.exp == 8'd0 && fp_normal_exp(a.exp))) begin
        return {sign, 31'd0};
      end
      a      = fp_ftz(a);
      b      = fp_ftz(b);
      a_zero = (a.exp == 8'd0);
      b_zero = (b.exp == 8'd0);
      a_inf  = fp_is_inf(a[30:0]);
      b_inf  = fp_is_inf(b[30:0]);
      if (fp_is_nan(a[30:0]) || fp_is_nan(b[30:0]) || (a_inf && b_zero) ||
          (a_zero && b_inf)) begin
        return FP_QNAN;
      end
      if (a_inf || b_inf) return {sign, FP_POS_INF[30:0]};
      return {sign, 31'd0};  // a zero (or a flushed subnormal): the only case left
    end
    prod = {24'd0, 1'b1, a.man} * {24'd0, 1'b1, b.man};
    exp127 = 32'(a.exp) + 32'(b.exp) + 32'(prod[47]);  // exp + 127, at least 2
    if (prod[47]) return fp_round_pack(sign, exp127, prod[47:24], prod[23], |prod[22:0]);
    return fp_round_pack(sign, exp127, prod[46:23], prod[22], |prod[21:0]);
  endfunction

  // otpu_fp_from_int: int32 -> fp32.
  function automatic logic [31:0] fp_from_int(logic [31:0] v_i);
    /* verilator no_inline_task */
    logic [31:0]       mag;
    logic [36:0]       cz;
    logic [31:0]       exp127;
    if (v_i == 32'd0) return 32'd0;
    mag = v_i[31] ? (32'd0 - v_i) : v_i;
    cz  = fp_lzc32(mag);
    exp127 = 32'd285 - 32'(cz[36:32]);  // exp + 127
    return fp_round_pack(v_i[31], exp127, cz[31:8], cz[7], |cz[6:0]);
  endfunction

  // otpu_fp_minmax: max(a, b) with max, else min(a, b).
  function automatic logic [31:0] fp_minmax(logic [31:0] a_i, logic [31:0] b_i, logic max_i);
    /* verilator no_inline_task */
    fp32_t       a, b;
    logic [31:0] key_a, key_b;
    a = fp_ftz(a_i);
    b = fp_ftz(b_i);
    if (fp_is_nan(a[30:0]) || fp_is_nan(b[30:0])) return FP_QNAN;
    key_a = a.sign ? ~a : {1'b1, a[30:0]};
    key_b = b.sign ? ~b : {1'b1, b[30:0]};
    return ((key_a > key_b) == max_i) ? a : b;
  endfunction

  // otpu_fp_exp2.
  function automatic logic [31:0] fp_exp2(logic [31:0] x_i);
    /* verilator no_inline_task */
    fp32_t             x;
    logic [30:0]       mag_fix;
    logic [7:0]        int_part;
    logic              frac_nz;
    logic signed [9:0] n, exp_r;
    logic [31:0]       f, p;
    x = fp_ftz(x_i);
    if (fp_is_nan(x[30:0])) return FP_QNAN;
    if (x.exp >= 8'd134) return x.sign ? 32'd0 : FP_POS_INF;
    mag_fix = 31'd0;
    if (x.exp >= 8'd127) begin
      mag_fix = {7'd0, 1'b1, x.man} << (x.exp - 8'd127);
    end
    int_part = mag_fix[30:23];
    frac_nz  = (x.exp < 8'd127) ? (x.exp != 8'd0) : (|mag_fix[22:0]);
    if (x.sign && ((int_part > 8'd126) || (int_part == 8'd126 && frac_nz))) return 32'd0;
    n = x.sign ? -$signed({2'b00, int_part} + {9'd0, frac_nz}) : $signed({2'b00, int_part});
    f = fp_add(x, fp_from_int({{22{n[9]}}, n}), 1'b1);
    p = FP_EXP2_C[6];
    for (int i = 5; i >= 0; i--) begin
      p = fp_add(fp_mul(p, f), FP_EXP2_C[i], 1'b0);
    end
    exp_r = $signed({2'b00, p[30:23]}) + n;
    if (exp_r >= 10'sd255) return FP_POS_INF;
    if (exp_r < 10'sd1) return 32'd0;
    return {1'b0, exp_r[7:0], p[22:0]};
  endfunction

  // otpu_fp_recip.
  function automatic logic [31:0] fp_recip(logic [31:0] x_i);
    /* verilator no_inline_task */
    fp32_t             x, y;
    logic [31:0]       m;
    logic signed [9:0] exp_r;
    x = fp_ftz(x_i);
    if (fp_is_nan(x[30:0])) return FP_QNAN;
    if (x.exp == 8'd0) return {x.sign, FP_POS_INF[30:0]};
    if (fp_is_inf(x[30:0])) return {x.sign, 31'd0};
    m = {1'b0, 8'd127, x.man};
    y = 32'h7EF3_11C7 - m;
    for (int i = 0; i < 3; i++) begin
      y = fp_mul(y, fp_add(32'h4000_0000, fp_mul(m, y), 1'b1));
    end
    exp_r = $signed({2'b00, y.exp}) - $signed({2'b00, x.exp}) + 10'sd127;
    if (exp_r < 10'sd1) return {x.sign, 31'd0};
    return {x.sign, exp_r[7:0], y.man};
  endfunction

  // otpu_fp_rsqrt.
  function automatic logic [31:0] fp_rsqrt(logic [31:0] x_i);
    /* verilator no_inline_task */
    fp32_t       x, y;
    logic [31:0] m, h;
    logic [7:0]  exp_r;
    x = fp_ftz(x_i);
    if (fp_is_nan(x[30:0]) || (x.sign && x.exp != 8'd0)) return FP_QNAN;
    if (x.exp == 8'd0) return FP_POS_INF;
    if (fp_is_inf(x[30:0])) return 32'd0;
    m = {1'b0, x.exp[0] ? 8'd127 : 8'd128, x.man};
    h = fp_mul(32'h3F00_0000, m);
    y = 32'h5F37_59DF - {1'b0, m[31:1]};
    for (int i = 0; i < 3; i++) begin
      y = fp_mul(y, fp_add(32'h3FC0_0000, fp_mul(h, fp_mul(y, y)), 1'b1));
    end
    exp_r = y.exp + 8'd64 - 8'(({1'b0, x.exp} + 9'd1) >> 1);
    return {1'b0, exp_r, y.man};
  endfunction

  // otpu_fp_quant: clamp(rne(mul(x, inv)), -127, 127) as int8.
  function automatic logic [7:0] fp_quant(logic [31:0] x_i, logic [31:0] inv_i);
    /* verilator no_inline_task */
    fp32_t       v;
    logic [30:0] mag_fix;
    logic [7:0]  mag_rnd, mag;
    v = fp_mul(x_i, inv_i);
    if (fp_is_nan(v[30:0])) return 8'd0;
    mag_fix = 31'd0;
    if (v.exp >= 8'd126 && v.exp < 8'd134) begin
      mag_fix = {7'd0, 1'b1, v.man} << (v.exp - 8'd126);
    end
    mag_rnd = {1'b0, mag_fix[30:24]} + {7'd0, mag_fix[23] & ((|mag_fix[22:0]) | mag_fix[24])};
    mag     = (v.exp >= 8'd134 || mag_rnd > 8'd127) ? 8'd127 : mag_rnd;
    return v.sign ? (8'd0 - mag) : mag;
  endfunction

endpackage : otpu_fp_pkg
