// A profile turned into typed columns and the indexes every view queries, built once per profile
// so that a million instructions stay responsive: instructions per unit lane sorted by start,
// sequencer-window slots, per-class and per-source totals.

const kMaxLanes = 8;  // overlapping instructions of one unit stack in at most this many rows
const kDensityBins = 32768;  // resolution of the precomputed busy curves (zoomed-out timeline)

function num(v, dflt) { return typeof v === 'number' && Number.isFinite(v) ? v : dflt; }

// Builds the model of profile `pi` of a checked file (its `instrs` already columns, parse.js).
// Plain data and typed arrays only, so that a worker can hand it to the page. Throws LoadError
// on a row whose unit or source is out of range.
function buildModel(doc, pi) {
  const t0 = performance.now();
  const p = doc.profiles[pi];
  const cfg = Object.assign({}, kDefaultConfig, p.config || {});
  const units = Array.isArray(p.units) && p.units.length ? p.units.map(String) : kDefaultUnits.slice();
  const unitId = (name, dflt) => { const i = units.indexOf(name); return i >= 0 ? i : dflt; };
  const m = {
    index: pi, name: p.name, kind: p.kind, cycles: Math.max(0, Math.round(p.cycles)),
    clock: num(p.clock_mhz, 100) || 100, cfg, units,
    sources: (p.sources || []).map((s) => Object.assign({ file: '?', line: 0, func: '', text: '' }, s)),
    notes: (p.notes || []).filter((x) => x && typeof x === 'object'),
    macs: num(p.macs, 0), bytes: num(p.bytes, 0),
    peakMacs: num(p.peak_macs, 0) || cfg.D * cfg.MCOLS, peakBytes: num(p.peak_bytes, 0) || cfg.D,
    roofline: { bound: num(p.roofline && p.roofline.bound, 0), efficiency: num(p.roofline && p.roofline.efficiency, 0) },
    board: p.board || null, hwtrace: p.hwtrace || null, mxuGaps: p.mxu_gaps || [],
    // The program view's listing as JSON text (programsOf reads it on first use): thousands of
    // small arrays cost the worker's message more than everything else in the model together,
    // a string next to nothing. Its values are lens's integers and strings, as JSON keeps them.
    programsJson: JSON.stringify(p.programs || []),
    U: { DMA: unitId('DMA', 0), MXU: unitId('MXU', 1), QUANT: unitId('QUANT', 2), VPU: unitId('VPU', 3) },
  };
  const slice0 = (p.slices && p.slices[0]) || {};
  m.ports = Object.assign({ bmxu: 0, bdma: 0, amxu: 0, aq: 0, c: m.cycles }, slice0.ports || {});
  // The roofline's port transfers (SPEC 6): the slice with the largest bound in per_slice, else
  // the slice's port counters. Board profiles have only these (their bmxu/bdma stay 0).
  const per = (p.roofline && Array.isArray(p.roofline.per_slice)) ? p.roofline.per_slice.filter((x) => x && typeof x === 'object') : [];
  let best = null;
  for (const x of per) if (!best || num(x.bound, 0) > num(best.bound, 0)) best = x;
  m.portTransfers = best ? { b: num(best.portb, 0), a: num(best.porta, 0) }
    : { b: m.ports.bmxu + m.ports.bdma, a: m.ports.amxu + m.ports.aq };
  // What the trace kept (hw): the cut, the ring's start, instructions without an end.
  m.hasTrace = (p.instrs && p.instrs.n > 0) || !!(slice0.buckets && slice0.buckets.c && slice0.buckets.c.length);
  m.lose = m.units.map((_, u) => num(slice0.lose && slice0.lose[u], 0));
  const timing = {};
  const step = (key, f) => { const t = performance.now(); f(); timing[key] = Math.round(performance.now() - t); };
  step('columns', () => adoptColumns(m, p.instrs || emptyInstrColumns(), pi));
  m.busy = m.units.map((_, u) => num(slice0.busy && slice0.busy[u], NaN));
  // A counters-only profile from a card without busy counters (register map 1) has no unit busy.
  m.busyCounted = m.n > 0 || (Array.isArray(slice0.busy) && slice0.busy.length > 0);
  let unions;
  step('lanes', () => { unions = buildLanes(m); });
  step('slots', () => buildSlots(m));
  step('windows', () => buildWindows(m, slice0.buckets, unions));
  m.busy = m.busy.map((b, u) => (Number.isFinite(b) ? b : m.unitBusyTotal[u]));
  step('exclusive', () => buildExclusive(m));
  step('aggregates', () => buildAggregates(m));
  buildTraceLoss(m);
  m.buildMs = performance.now() - t0;
  m.buildSteps = timing;
  return m;
}

function emptyInstrColumns() {
  const z = new Float64Array(0), out = { n: 0, nameId: new Uint16Array(0), names: [], detailId: new Uint32Array(0), details: [], counterKeys: [], counters: [] };
  for (const key of Object.values(kRowNumbers)) out[key] = z;
  return out;
}

// Takes the parser's columns, checks units and sources against the profile's lists, and derives
// the effective times used for drawing.
function adoptColumns(m, I, pi) {
  const n = I.n, nu = m.units.length, ns = m.sources.length;
  m.n = n;
  m.slice = I.slice; m.idx = I.idx; m.pc = I.pc;
  m.nameId = I.nameId; m.names = I.names; m.detailId = I.detailId; m.details = I.details;
  m.dispatch = I.dispatch; m.ready = I.ready; m.release = I.release; m.start = I.start; m.end = I.end;
  m.work = I.work; m.portB = I.portB; m.portA = I.portA;
  m.counterKeys = I.counterKeys; m.counterCols = I.counters;
  m.unit = new Uint8Array(n); m.source = new Int32Array(n);
  const bad = (i, msg) => { throw new LoadError('profiles[' + pi + '].instrs[' + i + ']: ' + msg); };
  // Effective times: an event that did not happen (-1) takes the next one that did, and an
  // instruction still running when a cut trace ends runs to the end of the profile.
  const ds = m.ds = new Float64Array(n), rs = m.rs = new Float64Array(n), s = m.s = new Float64Array(n), e = m.e = new Float64Array(n);
  let idxIsRow = true;
  for (let i = 0; i < n; ++i) {
    const unit = I.unit[i], src = I.source[i];
    if (!Number.isInteger(unit) || unit < 0 || unit >= nu) bad(i, 'unit ' + JSON.stringify(unit) + ' is not one of the ' + nu + ' units');
    if (!Number.isInteger(src) || src < -1 || src >= ns) bad(i, 'source ' + JSON.stringify(src) + ' is not one of the ' + ns + ' sources');
    m.unit[i] = unit; m.source[i] = src;
    const st = I.start[i] >= 0 ? I.start[i] : m.cycles;
    const rd = I.ready[i] >= 0 ? Math.min(I.ready[i], st) : st;
    s[i] = st; rs[i] = rd; ds[i] = I.dispatch[i] >= 0 ? Math.min(I.dispatch[i], rd) : rd;
    e[i] = I.end[i] >= 0 ? Math.max(I.end[i], st) : Math.max(m.cycles, st);
    if (I.idx[i] !== i) idxIsRow = false;
  }
  // `pin` in the URL names an instruction by its idx; rows written by lens have idx = row.
  // Otherwise rows sorted by idx, for rowOf's binary search.
  m.rowsByIdx = idxIsRow ? null : sortIndices(iota(n), (i) => m.idx[i]);
  m.idxSorted = idxIsRow ? null : Float64Array.from(m.rowsByIdx, (i) => m.idx[i]);
}

// Every cycle given to the oldest instruction in flight (lowest idx; in flight from its start to
// its end), as the findings do (lens/notes.cc): m.excl[i] is instruction i's exclusive cycles,
// m.exclIdle the cycles with nothing in flight; together they add up to the run's cycles.
function buildExclusive(m) {
  const n = m.n, excl = m.excl = new Float64Array(n);
  // A binary min-heap of rows keyed by idx.
  const heap = new Int32Array(n);
  let size = 0;
  const key = (k) => m.idx[heap[k]];
  const push = (i) => {
    let k = size++;
    heap[k] = i;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (key(up) <= key(k)) break;
      const t = heap[up]; heap[up] = heap[k]; heap[k] = t; k = up;
    }
  };
  const pop = () => {
    heap[0] = heap[--size];
    let k = 0;
    for (;;) {
      const l = 2 * k + 1, r = l + 1;
      let s = k;
      if (l < size && key(l) < key(s)) s = l;
      if (r < size && key(r) < key(s)) s = r;
      if (s === k) break;
      const t = heap[s]; heap[s] = heap[k]; heap[k] = t; k = s;
    }
  };
  const order = m.byStart;
  let next = 0, t = n ? m.s[order[0]] : 0, busy = 0;
  for (;;) {
    while (next < n && m.s[order[next]] <= t) { const i = order[next++]; if (m.e[i] > m.s[i]) push(i); }
    while (size && m.e[heap[0]] <= t) pop();
    if (!size) {
      if (next >= n) break;
      t = m.s[order[next]];
      continue;
    }
    let until = m.e[heap[0]];
    if (next < n) until = Math.min(until, m.s[order[next]]);
    excl[heap[0]] += until - t;
    busy += until - t;
    t = until;
  }
  m.exclIdle = Math.max(0, m.cycles - busy);
}

// Trace loss of an `hw` profile: {incomplete, cut (last traced cycle, when events after it are
// lost), from (the first traced cycle when the ring overwrote earlier ones), open (instructions
// without an end)}, or null for a complete trace.
function buildTraceLoss(m) {
  const t = m.hwtrace;
  let open = 0;
  for (let i = 0; i < m.n; ++i) if (m.end[i] < 0 && m.start[i] >= 0) open++;
  m.openCount = open;
  m.traced = [0, m.cycles];
  if (!t || typeof t !== 'object') { m.loss = null; return; }
  const incomplete = t.complete === false || num(t.drop, 0) > 0 || num(t.lost, 0) > 0 || !!t.wrapped || num(t.open_at_end, 0) > 0;
  if (!incomplete) { m.loss = null; return; }
  let from = 0;
  const W = m.windows;
  if (t.wrapped && W.n && !W.synthesized) {
    // The ring's counter windows start where its records do (as `lens info` says); the
    // earliest instruction event can be thousands of cycles later.
    from = W.ws[0];
  } else if (t.wrapped) {
    from = Infinity;
    for (let i = 0; i < m.n; ++i) {
      for (const v of [m.dispatch[i], m.ready[i], m.start[i], m.end[i]]) if (v >= 0 && v < from) from = v;
    }
    if (!Number.isFinite(from)) from = 0;
  }
  const tracedTo = num(t.traced_to, -1);
  const cut = tracedTo >= 0 && tracedTo < m.cycles - 1 ? tracedTo + 1 : null;
  // The cycles the trace covers: outside them the profile has only the run's totals.
  m.traced = [from, cut !== null ? cut : m.cycles];
  m.loss = {
    cut, from,
    wrapped: !!t.wrapped, drop: num(t.drop, 0), lost: num(t.lost, 0), keep: String(t.keep || ''),
    openAtEnd: num(t.open_at_end, open), tracedTo, count: num(t.count, 0), records: num(t.records, 0), depth: num(t.depth, 0),
  };
}

// The scoreboard dependency each instruction waited on last: an instruction's `ready` is the
// cycle its last dependency cleared, which is the `end` of the older instruction that produced
// it, so the producer is the youngest older instruction whose end equals its ready (every wait in
// the recorded profiles has exactly one). depsOf(m)[i] is that row, or -1 (no wait, or none
// found, e.g. in a cut trace). Computed on first use in the page (the timeline), not while loading.
function depsOf(m) {
  if (m.deps) return m.deps;
  const deps = m.deps = new Int32Array(m.n).fill(-1), lastByEnd = new Map();
  for (const i of rowsInIdxOrder(m)) {
    if (m.ready[i] > m.dispatch[i] && m.dispatch[i] >= 0) {
      const p = lastByEnd.get(m.ready[i]);
      if (p !== undefined) deps[i] = p;
    }
    if (m.end[i] >= 0) lastByEnd.set(m.end[i], i);
  }
  return deps;
}

// Rows that waited on row p (its consumers), from depsOf.
function consumersOf(m, p) {
  const deps = depsOf(m), out = [];
  for (let i = 0; i < m.n; ++i) if (deps[i] === p) out.push(i);
  return out;
}

// The row of the instruction with index `idx`, or undefined.
function rowOf(m, idx) {
  if (!m.rowsByIdx) return Number.isInteger(idx) && idx >= 0 && idx < m.n ? idx : undefined;
  const j = lowerBound(m.idxSorted, idx);
  return j < m.n && m.idxSorted[j] === idx ? m.rowsByIdx[j] : undefined;
}

// The profile's programs (SPEC 6 `programs`), parsed on first use.
function programsOf(m) {
  if (!m.programs) m.programs = JSON.parse(m.programsJson);
  return m.programs;
}

function detailOf(m, i) { return m.details[m.detailId[i]]; }

// [[counter, value], …] of the unit counters instruction i carries (SPEC 6 column 12).
function countersOf(m, i) {
  const out = [];
  for (let k = 0; k < m.counterKeys.length; ++k) {
    const v = m.counterCols[k][i];
    if (!Number.isNaN(v)) out.push([m.counterKeys[k], v]);
  }
  return out;
}

// Per unit, instructions stacked into lanes (no overlap within a lane), each lane sorted by start,
// with its precomputed busy curve for drawing when zoomed out. Also every instruction by start
// (byStart, startsSorted). Returns each unit's busy intervals (unionBusy) for buildWindows.
function buildLanes(m) {
  const n = m.n, nu = m.units.length;
  m.byStart = sortIndices(iota(n), (i) => m.s[i]);
  m.startsSorted = new Float64Array(n);
  for (let j = 0; j < n; ++j) m.startsSorted[j] = m.s[m.byStart[j]];
  // Each unit's instructions in start order: byStart filtered, so ties stay in row order.
  const counts = new Int32Array(nu);
  for (let i = 0; i < n; ++i) counts[m.unit[i]]++;
  const orders = Array.from(counts, (c) => new Uint32Array(c));
  const fill = new Int32Array(nu);
  for (let j = 0; j < n; ++j) { const i = m.byStart[j], u = m.unit[i]; orders[u][fill[u]++] = i; }
  m.lane = new Uint8Array(n);
  m.lanes = [];
  m.unitBusyTotal = new Float64Array(nu);
  const bins = Math.max(1, Math.min(kDensityBins, m.cycles));
  m.binCycles = Math.max(1, m.cycles) / bins;
  const unions = [];
  for (let u = 0; u < nu; ++u) {
    const order = orders[u];
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
    unions.push(unionBusy(m, order));
    m.unitBusyTotal[u] = unions[u].total;
  }
  return unions;
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
  // cum[b] = busy cycles of this lane before cycle b * binCycles (laneBusyBefore), in one merge
  // of the bins with the starts rather than a binary search per bin.
  let j = 0;
  for (let b = 1; b <= bins; ++b) {
    const x = b * m.binCycles;
    while (j < k && ls[j] < x) ++j;
    if (j === 0) continue;
    const last = idx[j - 1];
    lane.cum[b] = pre[j - 1] + Math.min(m.e[last], x) - m.s[last];
  }
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
  const order = sortIndices(iota(m.n), (i) => m.ds[i]);
  const slotEnd = new Float64Array(win).fill(-Infinity);
  const members = Array.from({ length: win }, () => []);
  m.slot = new Uint8Array(m.n);
  m.slotOverflow = 0;
  for (const i of order) {
    let k = -1;
    const d = m.ds[i];
    for (let q = 0; q < win; ++q) if (slotEnd[q] <= d) { k = q; break; }
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
