// A profile turned into typed columns and the indexes every view queries, built once per profile
// so that a million instructions stay responsive: instructions per unit lane sorted by start,
// sequencer-window slots, per-class and per-source totals.

const kMaxLanes = 8;  // overlapping instructions of one unit stack in at most this many rows
const kDensityBins = 32768;  // resolution of the precomputed busy curves (zoomed-out timeline)

const kNumericColumns = [0, 1, 2, 6, 7, 8, 9, 10, 13, 14, 15];  // of an instrs row

function num(v, dflt) { return typeof v === 'number' && Number.isFinite(v) ? v : dflt; }

// Builds the model of profile `pi` of a checked file. Throws LoadError on a malformed row.
function buildModel(doc, pi) {
  const t0 = performance.now();
  const p = doc.profiles[pi];
  const cfg = Object.assign({}, kDefaultConfig, p.config || {});
  const m = {
    index: pi, name: p.name, kind: p.kind, cycles: Math.max(0, Math.round(p.cycles)),
    clock: num(p.clock_mhz, 100) || 100, cfg,
    units: Array.isArray(p.units) && p.units.length ? p.units.map(String) : kDefaultUnits.slice(),
    sources: (p.sources || []).map((s) => Object.assign({ file: '?', line: 0, func: '', text: '' }, s)),
    notes: (p.notes || []).filter((x) => x && typeof x === 'object'),
    macs: num(p.macs, 0), bytes: num(p.bytes, 0),
    peakMacs: num(p.peak_macs, 0) || cfg.D * cfg.MCOLS, peakBytes: num(p.peak_bytes, 0) || cfg.D,
    roofline: { bound: num(p.roofline && p.roofline.bound, 0), efficiency: num(p.roofline && p.roofline.efficiency, 0) },
    board: p.board || null, hwtrace: p.hwtrace || null, mxuGaps: p.mxu_gaps || [],
    programs: p.programs || [], raw: p,
  };
  const slice0 = (p.slices && p.slices[0]) || {};
  m.ports = Object.assign({ bmxu: 0, bdma: 0, amxu: 0, aq: 0, c: m.cycles }, slice0.ports || {});
  m.lose = m.units.map((_, u) => num(slice0.lose && slice0.lose[u], 0));
  m.unitId = (name, dflt) => { const i = m.units.indexOf(name); return i >= 0 ? i : dflt; };
  m.U = { DMA: m.unitId('DMA', 0), MXU: m.unitId('MXU', 1), QUANT: m.unitId('QUANT', 2), VPU: m.unitId('VPU', 3) };
  buildColumns(m, p.instrs || [], pi);
  m.busy = m.units.map((_, u) => num(slice0.busy && slice0.busy[u], NaN));
  buildLanes(m);
  buildSlots(m);
  buildWindows(m, slice0.buckets);
  m.busy = m.busy.map((b, u) => (Number.isFinite(b) ? b : m.unitBusyTotal[u]));
  buildAttribution(m);
  buildAggregates(m);
  m.buildMs = performance.now() - t0;
  return m;
}

function buildColumns(m, rows, pi) {
  const n = rows.length;
  m.n = n;
  m.slice = new Int16Array(n); m.idx = new Float64Array(n); m.pc = new Int32Array(n);
  m.unit = new Uint8Array(n); m.nameId = new Uint16Array(n); m.names = []; m.detail = new Array(n);
  m.dispatch = new Float64Array(n); m.ready = new Float64Array(n); m.release = new Float64Array(n);
  m.start = new Float64Array(n); m.end = new Float64Array(n); m.source = new Int32Array(n);
  m.work = new Float64Array(n); m.portB = new Float64Array(n); m.portA = new Float64Array(n);
  // Effective times for drawing: an event that did not happen (-1) takes the next one that did,
  // and an instruction still running when a cut trace ends runs to the end of the profile.
  m.ds = new Float64Array(n); m.rs = new Float64Array(n); m.s = new Float64Array(n); m.e = new Float64Array(n);
  m.counters = new Map();
  const names = new Map();
  const nu = m.units.length, ns = m.sources.length;
  const bad = (i, msg) => { throw new LoadError('profiles[' + pi + '].instrs[' + i + ']: ' + msg); };
  let idxIsRow = true;
  for (let i = 0; i < n; ++i) {
    const r = rows[i];
    if (!Array.isArray(r)) bad(i, 'expected an array of 16 columns');
    if (r.length !== 16) bad(i, 'expected 16 columns, got ' + r.length);
    const unit = r[3], src = r[11];
    if (!Number.isInteger(unit) || unit < 0 || unit >= nu) bad(i, 'unit ' + JSON.stringify(unit) + ' is not one of the ' + nu + ' units');
    if (!Number.isInteger(src) || src < -1 || src >= ns) bad(i, 'source ' + JSON.stringify(src) + ' is not one of the ' + ns + ' sources');
    if (typeof r[4] !== 'string') bad(i, 'name: expected a string');
    for (let q = 0; q < kNumericColumns.length; ++q) {
      const c = kNumericColumns[q];
      if (typeof r[c] !== 'number' || !Number.isFinite(r[c])) bad(i, 'column ' + c + ': expected a number, got ' + JSON.stringify(r[c]));
    }
    let id = names.get(r[4]);
    if (id === undefined) { id = m.names.length; names.set(r[4], id); m.names.push(r[4]); }
    m.slice[i] = r[0]; m.idx[i] = r[1]; m.pc[i] = r[2]; m.unit[i] = unit; m.nameId[i] = id;
    m.detail[i] = typeof r[5] === 'string' ? r[5] : '';
    m.dispatch[i] = r[6]; m.ready[i] = r[7]; m.release[i] = r[8]; m.start[i] = r[9]; m.end[i] = r[10];
    m.source[i] = src; m.work[i] = r[13]; m.portB[i] = r[14]; m.portA[i] = r[15];
    if (r[12] && typeof r[12] === 'object' && Object.keys(r[12]).length) m.counters.set(i, r[12]);
    const s = r[9] >= 0 ? r[9] : m.cycles;
    const rd = r[7] >= 0 ? Math.min(r[7], s) : s;
    m.s[i] = s; m.rs[i] = rd; m.ds[i] = r[6] >= 0 ? Math.min(r[6], rd) : rd;
    m.e[i] = r[10] >= 0 ? Math.max(r[10], s) : Math.max(m.cycles, s);
    if (r[1] !== i) idxIsRow = false;
  }
  // `pin` in the URL names an instruction by its idx; rows written by lens have idx = row.
  m.rowOfIdx = idxIsRow ? null : new Map(Array.from(m.idx, (v, i) => [v, i]));
  m.row = (idx) => (m.rowOfIdx ? m.rowOfIdx.get(idx) : (idx >= 0 && idx < n ? idx : undefined));
}

// Per unit, instructions stacked into lanes (no overlap within a lane), each lane sorted by start,
// with its precomputed busy curve for drawing when zoomed out.
function buildLanes(m) {
  const n = m.n, nu = m.units.length;
  const counts = new Int32Array(nu);
  for (let i = 0; i < n; ++i) counts[m.unit[i]]++;
  const lists = Array.from(counts, (c) => new Uint32Array(c));
  const fill = new Int32Array(nu);
  for (let i = 0; i < n; ++i) lists[m.unit[i]][fill[m.unit[i]]++] = i;
  m.lane = new Uint8Array(n);
  m.lanes = [];
  m.unitBusyTotal = new Float64Array(nu);
  const bins = Math.max(1, Math.min(kDensityBins, m.cycles));
  m.binCycles = Math.max(1, m.cycles) / bins;
  for (let u = 0; u < nu; ++u) {
    const order = sortIndices(lists[u], (i) => m.s[i]);
    const ends = [], members = [];
    for (const i of order) {
      let k = -1;
      for (let q = 0; q < ends.length; ++q) if (ends[q] <= m.s[i]) { k = q; break; }
      if (k < 0 && ends.length < kMaxLanes) { k = ends.length; ends.push(0); members.push([]); }
      if (k < 0) k = ends.indexOf(Math.min(...ends));
      ends[k] = Math.max(ends[k], m.e[i]);
      members[k].push(i);
      m.lane[i] = k;
    }
    m.lanes.push(members.map((list) => makeLane(m, Int32Array.from(list), bins)));
    m.unitBusyTotal[u] = unionBusy(m, order).total;
  }
}

function makeLane(m, idx, bins) {
  const k = idx.length;
  const ls = new Float64Array(k), le = new Float64Array(k), pre = new Float64Array(k + 1);
  let maxWait = 0;
  for (let j = 0; j < k; ++j) {
    const i = idx[j];
    ls[j] = m.s[i];
    le[j] = j ? Math.max(le[j - 1], m.e[i]) : m.e[i];  // running max keeps binary search valid
    pre[j + 1] = pre[j] + (m.e[i] - m.s[i]);
    maxWait = Math.max(maxWait, m.s[i] - m.ds[i]);
  }
  const lane = { idx, ls, le, pre, maxWait, cum: new Float64Array(bins + 1) };
  // cum[b] = busy cycles of this lane before cycle b * binCycles.
  for (let b = 1; b <= bins; ++b) lane.cum[b] = laneBusyBefore(m, lane, b * m.binCycles);
  return lane;
}

// Busy cycles of a lane before cycle x (exact).
function laneBusyBefore(m, lane, x) {
  const j = lowerBound(lane.ls, x);  // instructions starting before x
  if (j === 0) return 0;
  const last = lane.idx[j - 1];
  return lane.pre[j - 1] + Math.min(m.e[last], x) - m.s[last];
}

// Busy cycles of a lane in [a, b), from the precomputed curve (interpolated inside a bin).
function laneBusyIn(m, lane, a, b) {
  const at = (x) => {
    const f = Math.max(0, Math.min(lane.cum.length - 1, x / m.binCycles));
    const k = Math.floor(f), r = f - k;
    return k + 1 < lane.cum.length ? lane.cum[k] + r * (lane.cum[k + 1] - lane.cum[k]) : lane.cum[k];
  };
  return at(b) - at(a);
}

// The union of the intervals of start-sorted instructions `order`: {starts, ends, total}.
function unionBusy(m, order) {
  const starts = [], ends = [];
  let total = 0, cs = -1, ce = -1;
  for (const i of order) {
    const s = m.s[i], e = m.e[i];
    if (e <= s) continue;
    if (cs < 0 || s > ce) {
      if (cs >= 0) { starts.push(cs); ends.push(ce); total += ce - cs; }
      cs = s; ce = e;
    } else if (e > ce) ce = e;
  }
  if (cs >= 0) { starts.push(cs); ends.push(ce); total += ce - cs; }
  return { starts, ends, total };
}

// Sequencer window: each instruction holds a slot from dispatch to end. Slots are given as the
// hardware does, lowest free slot first, in dispatch order.
function buildSlots(m) {
  const win = Math.max(1, Math.min(64, m.cfg.WIN | 0 || 16));
  m.win = win;
  const order = sortIndices(new Uint32Array(m.n).map((_, i) => i), (i) => m.ds[i]);
  const slotEnd = new Float64Array(win).fill(-Infinity);
  const members = Array.from({ length: win }, () => []);
  m.slot = new Uint8Array(m.n);
  m.slotOverflow = 0;
  for (const i of order) {
    let k = -1;
    for (let q = 0; q < win; ++q) if (slotEnd[q] <= m.ds[i]) { k = q; break; }
    if (k < 0) { k = slotEnd.indexOf(Math.min(...slotEnd)); m.slotOverflow++; }
    slotEnd[k] = Math.max(slotEnd[k], m.e[i]);
    members[k].push(i);
    m.slot[i] = k;
  }
  m.slots = members.map((list) => {
    const idx = Int32Array.from(list), k = idx.length;
    const sd = new Float64Array(k), se = new Float64Array(k);
    for (let j = 0; j < k; ++j) { sd[j] = m.ds[idx[j]]; se[j] = j ? Math.max(se[j - 1], m.e[idx[j]]) : m.e[idx[j]]; }
    return { idx, sd, se };
  });
  m.byStart = sortIndices(new Uint32Array(m.n).map((_, i) => i), (i) => m.s[i]);
  m.startsSorted = Float64Array.from(m.byStart, (i) => m.s[i]);
}

// Instructions of unit u running at cycle t (one per lane at most).
function runningAt(m, u, t) {
  const out = [];
  for (const lane of m.lanes[u] || []) {
    let j = upperBound(lane.ls, t) - 1;
    // Walk back over instructions that started earlier in this lane but end after t.
    for (; j >= 0 && lane.le[j] > t; --j) {
      const i = lane.idx[j];
      if (m.e[i] > t && m.s[i] <= t) { out.push(i); break; }
    }
  }
  return out;
}

// The instruction holding sequencer slot k at cycle t, or -1.
function slotAt(m, k, t) {
  const slot = m.slots[k];
  for (let j = upperBound(slot.sd, t) - 1; j >= 0 && slot.se[j] > t; --j) {
    const i = slot.idx[j];
    if (m.e[i] > t) return i;
  }
  return -1;
}

// Phase of instruction i at cycle t: 'dep' (dependencies pending), 'queued' (ready, unit busy),
// 'busy' (running), 'done' or 'future'.
function phaseAt(m, i, t) {
  if (t < m.ds[i]) return 'future';
  if (t < m.rs[i]) return 'dep';
  if (t < m.s[i]) return 'queued';
  if (t < m.e[i]) return 'busy';
  return 'done';
}

// Parses "MxK . NxK^T" from an MM detail: {M, K, N} or null.
function mmShape(detail) {
  const g = /^(\d+)x(\d+) \. (\d+)x(\d+)/.exec(detail || '');
  return g ? { M: +g[1], K: +g[2], N: +g[3] } : null;
}
