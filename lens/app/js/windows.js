// Counter windows (the profile's buckets), unit busy per window, where port B's cycles went, and
// per-class and per-source totals. lens/attribution.cc computes the same numbers for
// `lens summary`; the browser test checks the two agree.

const kBucketColumns = ['c', 'n', 'bm', 'bd', 'am', 'aq', 'mx', 'fm', 'fq', 'fv', 'fc', 'bs', 'as', 'ms', 'mb', 'ff', 'ld'];
const kSynthWindow = 64;

// Idle port-B cycles are given, window by window, to the first of these causes that has cycles
// left (docs/lens-app.md "Where the cycles went").
const kCauses = [
  { key: 'stream', label: 'streaming', color: '#0072B2', desc: 'port B moved a chunk (MM weights or LD/ST data)' },
  { key: 'dram', label: 'DRAM not ready', color: '#D55E00', desc: 'a port-B request waited for DRAM (bucket bs)' },
  { key: 'starved', label: 'MXU starved', color: '#E69F00', desc: 'the MXU could consume but its weight FIFO was empty (ms)' },
  { key: 'notcons', label: 'MXU not consuming', color: '#F0E442', desc: 'the weight FIFO was full, so the streamer stopped (mb)' },
  { key: 'tmem', label: 'TMEM arbitration', color: '#882255', desc: 'a unit was frozen by the TMEM arbiter (fm fq fv fc)' },
  { key: 'mxcomp', label: 'MXU computing between streams', color: '#56B4E9', desc: 'the MXU had an instruction but no chunk moved (mx − bm)' },
  { key: 'vpu', label: 'waiting on VPU work', color: '#CC79A7', desc: 'the vector unit was busy while port B idled' },
  { key: 'quant', label: 'waiting on quantizer work', color: '#009E73', desc: 'the quantizer was busy while port B idled' },
  { key: 'dma', label: 'waiting on DMA work', color: '#332288', desc: 'the DMA was busy without moving a port-B chunk' },
  { key: 'none', label: 'nothing in flight', color: '#BBBBBB', desc: 'no unit had work: dispatch, dependencies, the end of the run' },
];

// Windows from the buckets; without buckets (another writer, a board profile), 64-cycle windows
// rebuilt from the instructions. `unions`: each unit's busy intervals (buildLanes).
function buildWindows(m, buckets, unions) {
  const W = { col: {}, synthesized: false };
  // Bucket columns are Float64Arrays from parse.js, or arrays where a column held something else.
  const isList = (a) => Array.isArray(a) || a instanceof Float64Array;
  const ok = buckets && isList(buckets.c) && buckets.c.length > 0;
  let nw;
  if (ok) {
    nw = buckets.c.length;
    for (const k of kBucketColumns) {
      const a = buckets[k];
      if (a instanceof Float64Array && a.length === nw) {
        // parse.js's column, this profile's own: taken as it is, anything not finite made 0.
        for (let w = 0; w < nw; ++w) if (!Number.isFinite(a[w])) a[w] = 0;
        W.col[k] = a;
        continue;
      }
      const col = W.col[k] = new Float64Array(nw);
      if (isList(a) && a.length === nw) for (let w = 0; w < nw; ++w) col[w] = num(a[w], 0);
    }
    if (!isList(buckets.n) || buckets.n.length !== nw) {
      for (let w = 0; w < nw; ++w) W.col.n[w] = W.col.c[w] + 1 - (w ? W.col.c[w - 1] + 1 : 0);
    }
  } else {
    W.synthesized = true;
    nw = Math.ceil(m.cycles / kSynthWindow);
    for (const k of kBucketColumns) W.col[k] = new Float64Array(nw);
    for (let w = 0; w < nw; ++w) {
      W.col.c[w] = Math.min((w + 1) * kSynthWindow, m.cycles) - 1;
      W.col.n[w] = W.col.c[w] + 1 - w * kSynthWindow;
    }
  }
  W.n = nw;
  W.ws = new Float64Array(nw);
  W.we = new Float64Array(nw);
  for (let w = 0; w < nw; ++w) { W.we[w] = W.col.c[w] + 1; W.ws[w] = W.we[w] - W.col.n[w]; }
  m.windows = W;
  // Each unit's busy intervals, spread over the windows on first use (attrOf); rebuilt windows
  // need them now for their MXU and DMA columns.
  W.unions = unions.map((un) => ({ starts: Float64Array.from(un.starts), ends: Float64Array.from(un.ends) }));
  W.busy = null;
  if (W.synthesized) {
    busyOf(W);
    const { DMA, MXU, QUANT } = m.U;
    const per = (u, col) => {
      const st = [], en = [], amt = [];
      for (let i = 0; i < m.n; ++i) {
        if (m.unit[i] !== u) continue;
        const v = col === 'a' ? m.portA[i] : m.portB[i];
        if (v > 0) { st.push(m.s[i]); en.push(Math.max(m.e[i], m.s[i] + 1)); amt.push(v); }
      }
      return spread(W, st, en, amt);
    };
    W.col.bm = per(MXU, 'b'); W.col.bd = per(DMA, 'b'); W.col.am = per(MXU, 'a'); W.col.aq = per(QUANT, 'a');
    W.col.mx = W.busy[MXU] || W.col.mx; W.col.ld = W.busy[DMA] || W.col.ld;
  }
  W.pre = {};  // prefix sums of the columns, made on first use (windowSum)
}

// Sum of counter column `k` over windows [wa, wb), from its prefix sums (made on first use: few
// columns are ever summed, and each is as long as the run has windows).
function windowSum(W, k, wa, wb) {
  const p = W.pre[k] || (W.pre[k] = prefix(W.col[k]));
  return p[wb] - p[wa];
}

// Union busy cycles of every unit in every window.
function busyOf(W) {
  if (!W.busy) W.busy = W.unions.map((un) => spread(W, un.starts, un.ends, null));
  return W.busy;
}

// Spreads intervals [st, en) over the windows: their overlap in cycles, or `amt` spread evenly.
// Intervals in start order search for their first window from the previous one's.
function spread(W, st, en, amt) {
  const out = new Float64Array(W.n);
  let w0 = 0, lastStart = -Infinity;
  for (let j = 0; j < st.length; ++j) {
    const a = st[j], b = en[j];
    if (b <= a) continue;
    w0 = upperBound(W.we, a, a < lastStart ? 0 : w0);
    lastStart = a;
    const rate = amt ? amt[j] / (b - a) : 1;
    for (let w = w0; w < W.n && W.ws[w] < b; ++w) {
      const ov = Math.min(b, W.we[w]) - Math.max(a, W.ws[w]);
      if (ov > 0) out[w] += ov * rate;
    }
  }
  return out;
}

function prefix(a) {
  const p = new Float64Array(a.length + 1);
  for (let i = 0; i < a.length; ++i) p[i + 1] = p[i] + a[i];
  return p;
}

// Whether cycle t is one the trace covers (m.traced): past a cut or before a ring's first
// record there are no windows, and the nearest one must not stand in for them.
function traced(m, t) { return !m.traced || (t >= m.traced[0] && t < m.traced[1]); }

// Window holding cycle t (clamped to the run).
function windowAt(m, t) {
  const W = m.windows;
  if (W.n === 0) return -1;
  return Math.min(W.n - 1, upperBound(W.we, t));
}

// Where port B's cycles went (buildAttribution), made on first use: the overview, the first
// view shown, does not need it.
function attrOf(m) {
  if (!m.attr) buildAttribution(m);
  return m.attr;
}

// Per window and in total: port-B cycles streaming and idle cycles by cause (kCauses order).
// One pass over the windows; the causes' prefix sums are made on first use (attrSum).
function buildAttribution(m) {
  const W = m.windows, c = W.col, nw = W.n, { DMA, QUANT, VPU } = m.U;
  const cols = kCauses.map(() => new Float64Array(nw));
  const zero = new Float64Array(nw);
  const busy = (u) => busyOf(W)[u] || zero;
  const dma = busy(DMA), vpu = busy(VPU), quant = busy(QUANT);
  const { n: cn, bm, bd, bs, ms, mb, fm, fq, fv, fc, mx } = c;
  const [stream, dram, starved, notcons, tmem, mxcomp, vpuw, quantw, dmaw, none] = cols;
  // What each cause after streaming may take, in kCauses order ('none' takes the rest).
  const take = (col, w, claim, rest) => {
    const v = Math.min(rest, Math.max(0, claim));
    col[w] = v;
    return v;
  };
  for (let w = 0; w < nw; ++w) {
    const n = cn[w];
    const s = Math.min(n, bm[w] + bd[w]);
    stream[w] = s;
    let rest = n - s;
    rest -= take(dram, w, bs[w], rest);
    rest -= take(starved, w, ms[w], rest);
    rest -= take(notcons, w, mb[w], rest);
    rest -= take(tmem, w, fm[w] + fq[w] + fv[w] + fc[w], rest);
    rest -= take(mxcomp, w, mx[w] - bm[w], rest);
    rest -= take(vpuw, w, vpu[w], rest);
    rest -= take(quantw, w, quant[w], rest);
    rest -= take(dmaw, w, dma[w] - bd[w], rest);
    none[w] = rest;
  }
  const per = {}, totals = {};
  let all = 0;
  kCauses.forEach((k, q) => {
    const col = cols[q];
    let t = 0;
    for (let w = 0; w < nw; ++w) t += col[w];
    per[k.key] = col;
    totals[k.key] = t;
    all += t;
  });
  m.attr = { per, totals, all, pre: {} };
}

// Cycles of cause `key` over windows [wa, wb).
function attrSum(m, key, wa, wb) {
  const a = attrOf(m), p = a.pre[key] || (a.pre[key] = prefix(a.per[key]));
  return p[wb] - p[wa];
}

// Per instruction class (name) and per source line: counts, busy, work, waits, port transfers.
function buildAggregates(m) {
  // `done`: the instructions with a recorded start and end (the roofline chart's points).
  const done = () => ({ busy: 0, portB: 0, macs: 0 });
  const classes = m.names.map((name) => ({ name, unit: -1, count: 0, busy: 0, excl: 0, work: 0, waitDep: 0, waitUnit: 0, portB: 0, portA: 0, macs: 0, mmParsed: 0, done: done() }));
  const sources = Array.from({ length: m.sources.length + 1 }, (_, k) => ({ id: k - 1, count: 0, busy: 0, excl: 0, work: 0, waitDep: 0, waitUnit: 0, portB: 0, portA: 0, macs: 0, done: done() }));
  let parsedMacs = 0, mmCount = 0;
  const mmId = m.names.indexOf('MM');
  const detailMacs = new Float64Array(m.details.length).fill(-1);  // -1 not parsed yet, NaN no shape
  const add = (a, i, busy, dep, wu) => {
    a.count++; a.busy += busy; a.excl += m.excl[i]; a.work += m.work[i]; a.waitDep += dep; a.waitUnit += wu;
    a.portB += m.portB[i]; a.portA += m.portA[i];
  };
  for (let i = 0; i < m.n; ++i) {
    const busy = m.e[i] - m.s[i], dep = m.rs[i] - m.ds[i], wu = m.s[i] - m.rs[i];
    const cl = classes[m.nameId[i]];
    add(cl, i, busy, dep, wu);
    add(sources[m.source[i] + 1], i, busy, dep, wu);
    if (cl.unit < 0) cl.unit = m.unit[i];
    if (m.nameId[i] === mmId) {
      mmCount++;
      const d = m.detailId[i];
      if (detailMacs[d] === -1) { const sh = mmShape(m.details[d]); detailMacs[d] = sh ? sh.M * sh.N * sh.K : NaN; }
      const macs = detailMacs[d];
      if (!Number.isNaN(macs)) { cl.macs += macs; parsedMacs += macs; cl.mmParsed++; sources[m.source[i] + 1].macs += macs; }
      if (m.start[i] >= 0 && m.end[i] >= 0 && !Number.isNaN(macs)) {
        for (const d of [cl.done, sources[m.source[i] + 1].done]) { d.busy += busy; d.portB += m.portB[i]; d.macs += macs; }
      }
    }
  }
  // MACs per class: from the MM shapes when they account for the profile's total, else the
  // total shared by port-B chunks (a writer whose details this page cannot parse).
  const mm = classes.find((c) => c.name === 'MM');
  if (mm && (mm.mmParsed !== mmCount || (m.macs && parsedMacs !== m.macs))) {
    mm.macs = m.macs;
    // Unparsed shapes: the chart places the class by its whole, as before.
    mm.done = { busy: mm.busy, portB: mm.portB, macs: mm.macs };
  }
  if (mm && !m.macs) m.macs = mm.macs;
  m.classes = classes;
  m.sourceRows = sources.filter((s) => s.count > 0);
}

// Per (slice, pc): runs, busy (a sum) and exclusive cycles, for the program view. Computed on
// first use in the page, not while loading (it is not on the first screen).
function pcRowsOf(m) {
  if (m.pcRows) return m.pcRows;
  const pcs = new Map();
  for (let i = 0; i < m.n; ++i) {
    const pk = m.slice[i] * 1e9 + m.pc[i];
    let pr = pcs.get(pk);
    if (!pr) pcs.set(pk, pr = { slice: m.slice[i], pc: m.pc[i], row: i, count: 0, busy: 0, excl: 0 });
    pr.count++; pr.busy += m.e[i] - m.s[i]; pr.excl += m.excl[i];
  }
  m.pcRows = Array.from(pcs.values()).sort((a, b) => a.slice - b.slice || a.pc - b.pc);
  return m.pcRows;
}

// What `lens summary --json` also computes, for the browser test's cross-check.
function summaryOf(m) {
  return {
    cycles: m.cycles, instrs: m.n,
    attribution: Object.fromEntries(kCauses.map((k) => [k.key, attrOf(m).totals[k.key]])),
    classes: m.classes.map((c) => ({ name: c.name, count: c.count, busy: c.busy, work: c.work, wait_dep: c.waitDep, wait_unit: c.waitUnit, port_b: c.portB, port_a: c.portA })),
    unit_busy: Array.from(m.busy),
  };
}
