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
// rebuilt from the instructions.
function buildWindows(m, buckets) {
  const W = { col: {}, synthesized: false };
  const ok = buckets && Array.isArray(buckets.c) && buckets.c.length > 0;
  let nw;
  if (ok) {
    nw = buckets.c.length;
    for (const k of kBucketColumns) {
      const a = buckets[k];
      W.col[k] = Array.isArray(a) && a.length === nw ? Float64Array.from(a, (v) => num(v, 0)) : new Float64Array(nw);
    }
    if (!Array.isArray(buckets.n) || buckets.n.length !== nw) {
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
  // Union busy cycles of every unit in every window.
  const orders = m.units.map(() => []);
  for (const i of m.byStart) orders[m.unit[i]].push(i);
  W.busy = orders.map((order) => {
    const un = unionBusy(m, order);
    return spread(W, un.starts, un.ends, null);
  });
  if (W.synthesized) {
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
  W.pre = {};
  for (const k of kBucketColumns) W.pre[k] = prefix(W.col[k]);
}

// Spreads intervals [st, en) over the windows: their overlap in cycles, or `amt` spread evenly.
function spread(W, st, en, amt) {
  const out = new Float64Array(W.n);
  for (let j = 0; j < st.length; ++j) {
    const a = st[j], b = en[j];
    if (b <= a) continue;
    const rate = amt ? amt[j] / (b - a) : 1;
    for (let w = Math.max(0, upperBound(W.we, a)); w < W.n && W.ws[w] < b; ++w) {
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

// Window holding cycle t (clamped to the run).
function windowAt(m, t) {
  const W = m.windows;
  if (W.n === 0) return -1;
  return Math.min(W.n - 1, upperBound(W.we, t));
}

// Per window and in total: port-B cycles streaming and idle cycles by cause (kCauses order).
function buildAttribution(m) {
  const W = m.windows, c = W.col, { DMA, QUANT, VPU } = m.U;
  const per = {};
  for (const k of kCauses) per[k.key] = new Float64Array(W.n);
  const zero = new Float64Array(W.n);
  const busy = (u) => W.busy[u] || zero;
  for (let w = 0; w < W.n; ++w) {
    const n = c.n[w];
    const stream = Math.min(n, c.bm[w] + c.bd[w]);
    per.stream[w] = stream;
    let rest = n - stream;
    const take = (key, amount) => {
      const v = Math.min(rest, Math.max(0, amount));
      per[key][w] = v;
      rest -= v;
    };
    take('dram', c.bs[w]);
    take('starved', c.ms[w]);
    take('notcons', c.mb[w]);
    take('tmem', c.fm[w] + c.fq[w] + c.fv[w] + c.fc[w]);
    take('mxcomp', c.mx[w] - c.bm[w]);
    take('vpu', busy(VPU)[w]);
    take('quant', busy(QUANT)[w]);
    take('dma', busy(DMA)[w] - c.bd[w]);
    per.none[w] = rest;
  }
  const totals = {};
  let all = 0;
  for (const k of kCauses) { totals[k.key] = per[k.key].reduce((a, b) => a + b, 0); all += totals[k.key]; }
  m.attr = { per, totals, all, pre: Object.fromEntries(kCauses.map((k) => [k.key, prefix(per[k.key])])) };
}

// Per instruction class (name) and per source line: counts, busy, work, waits, port transfers.
function buildAggregates(m) {
  const classes = m.names.map((name) => ({ name, unit: -1, count: 0, busy: 0, work: 0, waitDep: 0, waitUnit: 0, portB: 0, portA: 0, macs: 0, mmParsed: 0 }));
  const sources = Array.from({ length: m.sources.length + 1 }, (_, k) => ({ id: k - 1, count: 0, busy: 0, work: 0, waitDep: 0, waitUnit: 0, portB: 0, portA: 0 }));
  let parsedMacs = 0, mmCount = 0;
  for (let i = 0; i < m.n; ++i) {
    const busy = m.e[i] - m.s[i], dep = m.rs[i] - m.ds[i], wu = m.s[i] - m.rs[i];
    for (const a of [classes[m.nameId[i]], sources[m.source[i] + 1]]) {
      a.count++; a.busy += busy; a.work += m.work[i]; a.waitDep += dep; a.waitUnit += wu;
      a.portB += m.portB[i]; a.portA += m.portA[i];
    }
    const cl = classes[m.nameId[i]];
    if (cl.unit < 0) cl.unit = m.unit[i];
    if (m.names[m.nameId[i]] === 'MM') {
      mmCount++;
      const sh = mmShape(m.detail[i]);
      if (sh) { cl.macs += sh.M * sh.N * sh.K; parsedMacs += sh.M * sh.N * sh.K; cl.mmParsed++; }
    }
  }
  // MACs per class: from the MM shapes when they account for the profile's total, else the
  // total shared by port-B chunks (a writer whose details this page cannot parse).
  const mm = classes.find((c) => c.name === 'MM');
  if (mm && (mm.mmParsed !== mmCount || (m.macs && parsedMacs !== m.macs))) {
    mm.macs = m.macs;
  }
  if (mm && !m.macs) m.macs = mm.macs;
  m.classes = classes;
  m.sourceRows = sources.filter((s) => s.count > 0);
}

// What `lens summary --json` also computes, for the browser test's cross-check.
function summaryOf(m) {
  return {
    cycles: m.cycles, instrs: m.n,
    attribution: Object.fromEntries(kCauses.map((k) => [k.key, m.attr.totals[k.key]])),
    classes: m.classes.map((c) => ({ name: c.name, count: c.count, busy: c.busy, work: c.work, wait_dep: c.waitDep, wait_unit: c.waitUnit, port_b: c.portB, port_a: c.portA })),
    unit_busy: Array.from(m.busy),
  };
}
