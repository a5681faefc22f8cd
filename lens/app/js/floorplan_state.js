// What every floorplan element does at a cycle: its state, a short line for the block, and the
// rows of its hover card. Pure functions of (model, cycle); floorplan.js draws them.

const kTmemUsers = ['DMA', 'MXU', 'QUANT', 'VPU'];  // TMEM grant priority, highest first

// Everything the floorplan shows at cycle t, computed once per frame.
function machineAt(m, t) {
  // Outside the traced cycles the profile knows only totals: no window, no instruction states.
  const untraced = !traced(m, t);
  const w = untraced ? -1 : windowAt(m, t), W = m.windows;
  const col = (k) => (w >= 0 ? W.col[k][w] : 0);
  const n = Math.max(1, col('n'));
  const frac = (...ks) => ks.reduce((a, k) => a + col(k), 0) / n;
  const occupants = [];
  for (let k = 0; k < m.win; ++k) occupants.push(slotAt(m, k, t));
  const units = m.units.map((name, u) => {
    const run = runningAt(m, u, t);
    let state = 'idle', i = run.length ? run[0] : -1;
    if (run.length) {
      state = 'busy';
      if (u === m.U.MXU && frac('bs', 'ms') > 0.5) state = 'dram';
      if (u === m.U.DMA && frac('bs') > 0.5) state = 'dram';
      const f = { [m.U.MXU]: 'fm', [m.U.QUANT]: 'fq', [m.U.VPU]: 'fv' }[u];
      if (f && frac(f) > 0.5) state = 'arb';
    } else {
      for (const j of occupants) {
        if (j < 0 || m.unit[j] !== u) continue;
        const ph = phaseAt(m, j, t);
        if (ph === 'dep') { state = 'dep'; i = j; break; }
        // Ready but not started while its unit is free: issuing, not queued behind anything.
        if (ph === 'queued' && state !== 'dep') { state = 'ready'; i = j; }
      }
    }
    return { name, state, i, running: run };
  });
  const { DMA, MXU, QUANT, VPU } = m.U;
  const runName = (u) => (units[u] && units[u].running.length ? m.names[m.nameId[units[u].running[0]]] : '');
  const mm = runName(MXU) === 'MM', ld = runName(DMA) === 'LD', st = runName(DMA) === 'ST';
  const qact = runName(QUANT) === 'QACT', qst = runName(QUANT) === 'QST', vop = units[VPU] && units[VPU].running.length > 0;
  const mmShapeNow = mm ? mmShape(detailOf(m, units[MXU].running[0])) : null;
  const paths = {
    'p-dram-b': mm || ld || st, 'p-dram-a': mm || qst, 'p-b-dma': ld || st, 'p-b-fifo': mm, 'p-fifo-mxu': mm,
    'p-a-mxu': mm, 'p-act-mxu': mm, 'p-mxu-tmem': mm, 'p-dma-tmem': ld || st, 'p-tmem-q': qact || qst,
    'p-q-act': qact, 'p-q-a': qst, 'p-tmem-vpu': vop,
  };
  // TMEM grant this cycle: the highest-priority unit with a running instruction that uses TMEM.
  const users = kTmemUsers.map((nm) => m.U[nm]).filter((u) => units[u] && units[u].running.length);
  if (untraced) {
    for (const us of units) Object.assign(us, { state: 'untraced', i: -1, running: [] });
    for (const k of Object.keys(paths)) paths[k] = false;
    occupants.fill(-1);
  }
  return { t, w, untraced, col, frac, n, units, occupants, paths, mm, ld, st, qact, qst, vop, mmShapeNow, tmemUsers: users };
}

const kPathInfo = {
  'p-dram-b': ['DRAM ↔ port B', 'D-byte chunks: MM weights (read) and LD/ST data'],
  'p-dram-a': ['DRAM ↔ port A', '32-bit words: MM block scales (read) and QST bytes (write)'],
  'p-b-dma': ['port B ↔ DMA', 'LD brings chunks into the DMA, ST sends them out'],
  'p-b-fifo': ['port B → weight FIFO', 'the MXU streamer pushes weight chunks into its FIFO'],
  'p-fifo-mxu': ['weight FIFO → MXU', 'the array consumes one chunk per cycle when it can'],
  'p-a-mxu': ['port A → MXU', 'per-block weight scales'],
  'p-act-mxu': ['ACT RAM → MXU', 'stationary int8 activations and their scales'],
  'p-mxu-tmem': ['MXU → TMEM', 'fp32 results drained into the scratchpad'],
  'p-dma-tmem': ['DMA ↔ TMEM', 'LD writes words into TMEM, ST reads them'],
  'p-tmem-q': ['TMEM → quantizer', 'fp32 rows to quantize'],
  'p-q-act': ['quantizer → ACT RAM', 'QACT: int8 activations + scales for the next MM'],
  'p-q-a': ['quantizer → port A', 'QST: int8 bytes + scales appended to DRAM (KV cache)'],
  'p-tmem-vpu': ['TMEM ↔ VPU lanes', 'each lane reads and writes its own bank'],
};

// Title, description, state and card rows of element `key` in machine state `s`.
function elementInfo(m, s, key) {
  if (s.untraced) {
    const why = 'cycle ' + fmtInt(s.t) + ' is not traced: the trace covers cycles ' + fmtInt(m.traced[0]) + '–' + fmtInt(m.traced[1] - 1);
    if (kPathInfo[key]) return { title: kPathInfo[key][0], desc: kPathInfo[key][1], state: 'untraced', line: '', rows: [['state', why]] };
    if (key === 'gap') return { title: 'Roofline gap now', desc: why, state: 'untraced', line: gapHeadline(m, s), rows: [['state', why]] };
    return { title: key, desc: why, state: 'untraced', line: /^(mxcol|tmem|vpu)\d/.test(key) ? '' : 'not traced', rows: [['state', why]], level: 0 };
  }
  const st = (state) => ['state', kStates[state].label];
  const instr = (i) => (i >= 0 ? ['instruction', '#' + fmtInt(m.idx[i]) + ' ' + m.names[m.nameId[i]] + ' ' + detailOf(m, i)] : ['instruction', 'none']);
  const win = ['window', s.w >= 0 ? s.w + ' (cycles ' + fmtInt(m.windows.ws[s.w]) + '–' + fmtInt(m.windows.we[s.w] - 1) + ')' : 'none'];
  const unitEl = (u, title, desc, extra) => {
    const us = s.units[u] || { state: 'idle', i: -1, running: [] };
    return { title, desc, state: us.state, line: us.i >= 0 ? m.names[m.nameId[us.i]] : kStates[us.state].label,
      rows: [st(us.state), instr(us.i), ...(us.i >= 0 ? [['phase', phaseLabel(m, us.i, s.t)]] : []), ...extra, ['TMEM losses (run)', fmtInt(m.lose[u] || 0)], win] };
  };
  const { DMA, MXU, QUANT, VPU } = m.U;
  let g;
  if ((g = /^dram(\d)$/.exec(key))) {
    const busy = s.paths['p-dram-b'] || s.paths['p-dram-a'];
    const state = busy ? (s.frac('bs', 'as') > 0.5 ? 'dram' : 'busy') : 'idle';
    return { title: 'DRAM channel ' + g[1], desc: 'Serves every other 64-byte beat of both ports (interleaved); DRAM model: ' + m.cfg.MEM,
      state, line: busy ? 'serving' : 'idle',
      rows: [st(state), ['port-B chunks / cycle', fmtNum(s.frac('bm', 'bd'), 3)], ['port-A words / cycle', fmtNum(s.frac('am', 'aq'), 3)],
        ['waiting for DRAM', fmtInt(s.col('bs')) + ' (B) · ' + fmtInt(s.col('as')) + ' (A) cycles'], win] };
  }
  if (key === 'portB' || key === 'portA') {
    const b = key === 'portB', on = s.paths[b ? 'p-dram-b' : 'p-dram-a'];
    const stall = s.frac(b ? 'bs' : 'as');
    const state = on ? (stall > 0.5 ? 'dram' : 'busy') : 'idle';
    const who = b ? [s.mm && 'MXU weights', (s.ld || s.st) && 'DMA ' + (s.ld ? 'LD' : 'ST')] : [s.mm && 'MXU scales', s.qst && 'QST'];
    return { title: b ? 'DRAM port B' : 'DRAM port A', desc: b ? 'One ' + m.cfg.D + '-byte chunk a cycle at most: the roofline port' : 'One 32-bit word a cycle: block scales and QST bytes',
      state, line: on ? who.filter(Boolean).join(' + ') : 'idle',
      rows: [st(state), ['moving', who.filter(Boolean).join(', ') || 'nothing'],
        b ? ['chunks this window', fmtInt(s.col('bm')) + ' MXU + ' + fmtInt(s.col('bd')) + ' DMA of ' + fmtInt(s.n) + ' cycles'] : ['words this window', fmtInt(s.col('am')) + ' MXU + ' + fmtInt(s.col('aq')) + ' QST of ' + fmtInt(s.n) + ' cycles'],
        ['utilisation', fmtPct(b ? s.frac('bm', 'bd') : s.frac('am', 'aq'))], ['waiting for DRAM', fmtInt(s.col(b ? 'bs' : 'as')) + ' cycles'], win] };
  }
  if (key === 'dma') return unitEl(DMA, 'DMA', 'LD / ST: moves words between DRAM (port B chunks) and TMEM', [['busy this window', fmtInt(s.col('ld')) + ' cycles']]);
  if (key === 'mxu') {
    const e = unitEl(MXU, 'MXU (systolic int8 matmul)', m.cfg.MCOLS + ' columns × depth ' + m.cfg.D + ': ' + m.peakMacs + ' MACs a cycle at most',
      [['columns in use', s.mmShapeNow ? Math.min(s.mmShapeNow.M, m.cfg.MCOLS) + ' of ' + m.cfg.MCOLS + ' (M = ' + s.mmShapeNow.M + ')' : (s.mm ? 'all' : 'none')],
        ['this window', fmtInt(s.col('mx')) + ' busy, ' + fmtInt(s.col('ms')) + ' starved, ' + fmtInt(s.col('mb')) + ' back-pressured, ' + fmtInt(s.col('fm')) + ' frozen']]);
    return e;
  }
  if ((g = /^mxcol(\d+)$/.exec(key))) {
    const k = +g[1], on = s.mm && (!s.mmShapeNow || k < s.mmShapeNow.M);
    const state = on ? s.units[MXU].state : 'idle';
    return { title: 'MXU column ' + k, desc: 'Holds stationary activation row ' + k + ' of the MM (rows beyond M stay idle)',
      state, line: '', rows: [st(state), ['in use', on ? 'yes' : 'no'], instr(on ? s.units[MXU].running[0] : -1)] };
  }
  if (key === 'fifo') {
    const lvl = s.col('ff'), depth = m.cfg.FIFO_DEPTH;
    const state = s.mm ? (s.frac('ms') > 0.5 ? 'dram' : 'busy') : 'idle';
    return { title: 'MXU weight FIFO', desc: depth + ' chunks deep: decouples DRAM streaming from consumption', state, line: fmtInt(lvl),
      rows: [st(state), ['level at window end', fmtInt(lvl) + ' of ' + fmtInt(depth) + ' chunks'], ['starved (empty) cycles', fmtInt(s.col('ms'))],
        ['back-pressured (full) cycles', fmtInt(s.col('mb'))], win], level: Math.min(1, lvl / Math.max(1, depth)) };
  }
  if (key === 'actram') {
    const state = s.qact || s.mm ? 'busy' : 'idle';
    const what = [s.qact && 'written by QACT', s.mm && 'read by MM'].filter(Boolean).join(', ') || 'idle';
    return { title: 'ACT RAM', desc: 'int8 stationary activations + one fp32 scale per (row, block), ' + m.cfg.ACT_BLOCKS + ' blocks of ' + m.cfg.D + ' per row',
      state, line: what, rows: [st(state), ['access', what]] };
  }
  if (key === 'quant') return unitEl(QUANT, 'Quantizer', 'QACT: TMEM fp32 → ACT RAM int8; QST: TMEM fp32 → int8 bytes in DRAM', [['frozen this window', fmtInt(s.col('fq')) + ' cycles']]);
  if ((g = /^tmem(\d+)$/.exec(key))) {
    const users = s.tmemUsers;
    const state = users.length ? (s.frac('fm', 'fq', 'fv', 'fc') > 0.5 || users.length > 1 ? 'arb' : 'busy') : 'idle';
    const holder = users.length ? m.units[users[0]] : 'nobody';
    return { title: 'TMEM bank ' + g[1], desc: 'fp32 words with address mod ' + m.cfg.LANES + ' = ' + g[1] + '; the arbiter grants a unit all banks or none (DMA > MXU > QUANT > VPU)',
      state, line: '', rows: [st(state), ['granted to', holder], ['also asking', users.slice(1).map((u) => m.units[u]).join(', ') || 'nobody'],
        ['arbitration losses this window', fmtInt(s.col('fm') + s.col('fq') + s.col('fv') + s.col('fc')) + ' unit-cycles'], win] };
  }
  if ((g = /^vpu(\d+)$/.exec(key))) {
    const us = s.units[VPU] || { state: 'idle', i: -1 };
    return { title: 'VPU lane ' + g[1], desc: 'fp32 vector lane ' + g[1] + ' of ' + m.cfg.LANES + ' (works on TMEM bank ' + g[1] + ')',
      state: us.state, line: '', rows: [st(us.state), instr(us.i), ['frozen this window', fmtInt(s.col('fv')) + ' cycles']] };
  }
  if (key === 'vpu') return unitEl(VPU, 'VPU', 'element-wise and row ops on TMEM, ' + m.cfg.LANES + ' lanes', [['frozen this window', fmtInt(s.col('fv')) + ' cycles']]);
  if ((g = /^slot(\d+)$/.exec(key))) {
    const i = s.occupants[+g[1]];
    const ph = i >= 0 ? phaseAt(m, i, s.t) : 'idle';
    let state = { dep: 'dep', queued: 'queued', busy: 'busy' }[ph] || 'idle';
    if (state === 'queued' && runningAt(m, m.unit[i], s.t).length === 0) state = 'ready';
    return { title: 'Sequencer window slot ' + g[1], desc: 'an instruction holds a slot from dispatch until it ends',
      state, line: i >= 0 ? m.names[m.nameId[i]] + ' pc ' + m.pc[i] : '',
      rows: [st(state), instr(i), ...(i >= 0 ? [['unit', m.units[m.unit[i]]], ['phase', phaseLabel(m, i, s.t)]] : [])] };
  }
  if (kPathInfo[key]) {
    const on = !!s.paths[key];
    return { title: kPathInfo[key][0], desc: kPathInfo[key][1], state: on ? 'busy' : 'idle', line: '', rows: [['in use', on ? 'yes' : 'no']] };
  }
  if (key === 'gap') {
    const w = s.w, n = w >= 0 ? m.windows.col.n[w] : 1;
    const rows = w >= 0 ? kCauses.filter((k) => attrOf(m).per[k.key][w] > 0).map((k) => [k.label, fmtInt(attrOf(m).per[k.key][w]) + ' cycles (' + fmtPct(attrOf(m).per[k.key][w] / n) + ')']) : [];
    return { title: 'Roofline gap now', desc: 'how this window\'s port-B cycles went (Where the cycles went, per window)', state: 'busy', line: gapHeadline(m, s), rows: [win, ...rows] };
  }
  return null;
}

function phaseLabel(m, i, t) {
  return { future: 'not dispatched yet', dep: 'waiting on a dependency', queued: 'ready, waiting for its unit', busy: 'running', done: 'finished' }[phaseAt(m, i, t)];
}

// "Port B streams 38% now · held back by: waiting on VPU work (52%)".
function gapHeadline(m, s) {
  if (s.untraced) return 'Not traced: the trace covers cycles ' + fmtInt(m.traced[0]) + '–' + fmtInt(m.traced[1] - 1) + ' of ' + fmtInt(m.cycles);
  if (s.w < 0) return 'no counter windows';
  const w = s.w, n = Math.max(1, m.windows.col.n[w]);
  let worst = null;
  for (const k of kCauses) if (k.key !== 'stream' && attrOf(m).per[k.key][w] > 0 && (!worst || attrOf(m).per[k.key][w] > attrOf(m).per[worst.key][w])) worst = k;
  return 'Port B streams ' + fmtPct(attrOf(m).per.stream[w] / n, 0) + ' of this window' +
    (worst ? ' · held back by: ' + worst.label + ' (' + fmtPct(attrOf(m).per[worst.key][w] / n, 0) + ')' : ' · nothing holds it back');
}
