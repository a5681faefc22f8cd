// The compare view: a second profile file as the baseline (`lens open|html FILE --baseline BASE`,
// or the Baseline… button). The diff is `lens diff BASE NEW`'s: profiles are matched by name
// (then by kind); instructions by pc and order (the k-th dynamic instance of a pc in this profile
// matches the k-th instance of that pc in the baseline). The views show the deltas: a summary and
// the instructions that moved most (overview), the baseline's causes beside this run's (where the
// cycles went), Δ columns (instructions), and the baseline's lanes under this run's on one axis
// (timeline).

const compare = { name: '', doc: null, models: [], error: null, load: null, cache: new Map() };

// Bytes of the baseline embedded by `--baseline` (base64 of gzip bytes), or null.
function embeddedBaseline() {
  const bytes = embeddedBytes('lens-baseline');
  return bytes ? { bytes, name: byId('lens-baseline').dataset.name || 'baseline' } : null;
}

// Loads a baseline file's bytes (every profile's model); resolves true when it is ready.
function openBaseline(bytes, name) {
  if (compare.load) compare.load.cancel();
  Object.assign(compare, { name, doc: null, models: [], error: null, cache: new Map() });
  showCompareInfo();
  return new Promise((resolve) => {
    const load = compare.load = loadProfileBytes(bytes, name, 0, parseHash().loader === 'page', {
      file: (msg) => { compare.doc = { profiles: msg.profiles }; },
      model: (msg) => { compare.models[msg.pi] = msg.model; },
      'model-error': (msg) => { compare.models[msg.pi] = { error: msg.message }; },
      error: (msg) => { compare.error = msg.message; },
    });
    load.done.then(() => {
      if (compare.load !== load) { resolve(false); return; }
      compare.load = null;
      showCompareInfo();
      if (app.doc) applyHash();
      resolve(!compare.error);
    });
  });
}

function closeBaseline() {
  if (compare.load) compare.load.cancel();
  Object.assign(compare, { name: '', doc: null, models: [], error: null, load: null, cache: new Map() });
  showCompareInfo();
  setHash({ base: null, compare: null });
}

// The header's line about the baseline: its file and profile, or its error.
function showCompareInfo() {
  const el = byId('compare-info');
  if (!el) return;
  el.textContent = '';
  el.hidden = !compare.name;
  if (!compare.name) return;
  const m = app.m, b = m ? baseModelFor(m) : null;
  let text;
  if (compare.error) text = 'baseline: ' + compare.error;
  else if (compare.load) text = 'loading baseline ' + compare.name + ' …';
  else if (app.params.compare === 'off') text = 'baseline ' + compare.name + ' (hidden)';
  else text = 'vs ' + compare.name + (b ? ' · ' + b.name + ' (' + b.kind + ')' + (compareMismatch(m, b).length ? ' · differs: ' + compareMismatch(m, b).map((x) => x.split(':')[0].replace(' differ', '')).join(', ') : '') : ' · no matching profile');
  // The name shrinks to an ellipsis; the close button beside it never does.
  el.append(h('span', { class: 'ci-text' + (compare.error ? ' delta-up' : ''), title: text }, text),
    h('button', { id: 'close-baseline', class: 'close', title: 'close the baseline', onclick: (e) => { e.preventDefault(); closeBaseline(); } }, '✕'));
}

// Which baseline profile each profile of the file is compared with, as `lens diff` pairs them
// (lens/diff.cc): in file order, the first unused baseline profile of the same name and kind,
// else of the same name; when one profile is left on each side, those two. -1: none.
function profilePairs() {
  const cur = app.doc ? app.doc.profiles : [], base = compare.doc ? compare.doc.profiles : [];
  const key = cur.map((p) => p.name + '\u0000' + p.kind).join('\u0001') + '|' + base.map((p) => p.name + '\u0000' + p.kind).join('\u0001');
  if (compare.pairsKey === key) return compare.pairs;
  const used = base.map(() => false), pairs = cur.map(() => -1);
  const find = (p, sameKind) => base.findIndex((b, i) => !used[i] && b.name === p.name && (!sameKind || b.kind === p.kind));
  cur.forEach((p, k) => {
    let i = find(p, true);
    if (i < 0) i = find(p, false);
    if (i >= 0) { used[i] = true; pairs[k] = i; }
  });
  const leftBase = used.map((u, i) => (u ? -1 : i)).filter((i) => i >= 0), leftCur = pairs.map((i, k) => (i < 0 ? k : -1)).filter((k) => k >= 0);
  if (leftBase.length === 1 && leftCur.length === 1) pairs[leftCur[0]] = leftBase[0];
  compare.pairsKey = key;
  compare.pairs = pairs;
  return pairs;
}

// The baseline profile compared with `m`: `base=N` in the hash, else profilePairs'. Null
// without a baseline, with `compare=off`, or while that profile is still loading.
function baseModelFor(m) {
  if (!compare.doc || app.params.compare === 'off') return null;
  const pick = app.params.base !== undefined ? parseInt(app.params.base, 10) : profilePairs()[m.index];
  const b = compare.models[pick];
  return b && !b.error ? b : null;
}

// The diff of `m` against its baseline (cached per model), or null.
function compareOf(m) {
  if (!m) return null;
  const b = baseModelFor(m);
  if (!b) return null;
  const c = compare.cache.get(m);
  if (c && c.b === b) return c;
  const out = buildCompare(m, b);
  compare.cache.set(m, out);
  return out;
}

// Rows of a model in idx (dispatch) order.
function rowsInIdxOrder(m) { return m.rowsByIdx || iota(m.n); }

function buildCompare(m, b) {
  const byPc = new Map();
  for (const j of rowsInIdxOrder(b)) {
    let list = byPc.get(b.pc[j]);
    if (!list) byPc.set(b.pc[j], list = []);
    list.push(j);
  }
  const match = new Int32Array(m.n).fill(-1), rev = new Int32Array(b.n).fill(-1), seen = new Map();
  let matched = 0;
  for (const i of rowsInIdxOrder(m)) {
    const k = seen.get(m.pc[i]) || 0;
    seen.set(m.pc[i], k + 1);
    const list = byPc.get(m.pc[i]);
    if (list && k < list.length) { match[i] = list[k]; rev[list[k]] = i; matched++; }
  }
  const c = { m, b, match, rev, matched, onlyNew: m.n - matched, onlyBase: b.n - matched };
  // Changed, as lens diff counts them: a matched instruction whose dispatch, ready, release,
  // start, end or unit counters differ. The ones that moved most first: by the change of their
  // busy cycles, or of their end when that is equal (lens diff's magnitude).
  const moved = [], changed = c.changedMask = new Uint8Array(m.n);
  const counters = (mm, i) => countersOf(mm, i).map(([k, v]) => k + '=' + v).sort().join(',');
  for (let i = 0; i < m.n; ++i) {
    const j = match[i];
    if (j < 0) continue;
    if (m.dispatch[i] !== b.dispatch[j] || m.ready[i] !== b.ready[j] || m.release[i] !== b.release[j] ||
        m.start[i] !== b.start[j] || m.end[i] !== b.end[j] || counters(m, i) !== counters(b, j)) {
      changed[i] = 1;
      moved.push(i);
    }
  }
  c.changed = moved.length;
  // lens diff's ranking (docs/lens-app.md, "Comparing two runs"): the change of the recorded
  // end − start first, then the change of the recorded end, both by size; ties in file order.
  // Two keys, not one number: an instruction that only moved must not outrank one that got slower.
  const dBusy = new Float64Array(m.n), dEnd = new Float64Array(m.n);
  for (const i of moved) {
    const j = match[i];
    dBusy[i] = Math.abs((m.end[i] - m.start[i]) - (b.end[j] - b.start[j]));
    dEnd[i] = Math.abs(m.end[i] - b.end[j]);
  }
  moved.sort((x, y) => dBusy[y] - dBusy[x] || dEnd[y] - dEnd[x] || x - y);
  c.top = moved.slice(0, 8);
  return c;
}

// This run's value minus the baseline's for instruction i (row of c.m): 'dispatch', 'start',
// 'end' (recorded events; NaN when either did not happen) or 'busy'. NaN when unmatched.
function deltaOf(c, i, key) {
  const j = c.match[i];
  if (j < 0) return NaN;
  const m = c.m, b = c.b;
  if (key === 'busy') return (m.e[i] - m.s[i]) - (b.e[j] - b.s[j]);
  const a = m[key][i], z = b[key][j];
  return a >= 0 && z >= 0 ? a - z : NaN;
}

function fmtDelta(d) {
  if (!Number.isFinite(d)) return '–';
  return d > 0 ? '+' + fmtInt(d) : d < 0 ? '−' + fmtInt(-d) : '0';
}

function fmtDeltaPct(a, b) {
  if (!b) return '';
  const f = (a - b) / b;
  return f === 0 ? '' : ' (' + (f > 0 ? '+' : '−') + (100 * Math.abs(f)).toFixed(1) + '%)';
}

// A cell showing a delta, red when this run is slower (more cycles), green when faster.
function deltaCell(d, slowerIsUp = true, text) {
  const cls = !Number.isFinite(d) || d === 0 ? '' : ((d > 0) === slowerIsUp ? 'delta-up' : 'delta-down');
  return h('td', { class: cls }, text !== undefined ? text : fmtDelta(d));
}

// What makes the two runs different machines or work, not just different timings: a list of
// sentences (empty when configuration, memory model and workload agree). A cycle delta across
// them measures the difference of machines, not of the program.
function compareMismatch(m, b) {
  const out = [], keys = Object.keys(Object.assign({}, m.cfg, b.cfg)).filter((k) => k !== 'MEM' && k !== 'name');
  const cfgDiff = keys.filter((k) => String(m.cfg[k]) !== String(b.cfg[k]));
  if (cfgDiff.length) out.push('configurations differ: ' + cfgDiff.map((k) => k + '=' + b.cfg[k] + ' → ' + m.cfg[k]).join(', '));
  if (String(m.cfg.MEM) !== String(b.cfg.MEM)) out.push('memory models differ: ' + b.cfg.MEM + ' → ' + m.cfg.MEM);
  if (m.name !== b.name) out.push('workloads differ: ' + b.name + ' → ' + m.name);
  return out;
}

function mismatchNote(m, b) {
  const diff = compareMismatch(m, b);
  return diff.length ? h('div', { class: 'loss-banner compare-warn', role: 'alert' }, h('b', {}, '! Not like for like. '),
    'The baseline and this run ' + diff.join('; ') + '. The deltas include those differences.') : null;
}

// The overview's compare section: headline deltas, units, and the instructions that moved most.
function compareSection(m, c) {
  const b = c.b, row = (label, base, cur, slowerIsUp = true, fmt = fmtInt) => h('tr', {},
    h('td', { class: 'l' }, label), h('td', {}, fmt(base)), h('td', {}, fmt(cur)),
    deltaCell(cur - base, slowerIsUp, fmt === fmtInt ? fmtDelta(cur - base) + fmtDeltaPct(cur, base)
      : (cur - base >= 0 ? '+' : '−') + (100 * Math.abs(cur - base)).toFixed(1) + ' pt'));
  const pct = (x) => fmtPct(x);
  const rows = [
    row('cycles', b.cycles, m.cycles),
    row('roofline efficiency', b.roofline.efficiency, m.roofline.efficiency, false, pct),
    row('instructions', b.n, m.n),
  ];
  m.units.forEach((name, u) => {
    const bu = b.units.indexOf(name);
    if (bu < 0) return;
    if (!(m.busy[u] || b.busy[bu] || m.lose[u] || b.lose[bu])) return;
    rows.push(row(name + ' busy', b.busy[bu] || 0, m.busy[u] || 0));
    if (m.lose[u] || b.lose[bu]) rows.push(row(name + ' TMEM losses', b.lose[bu] || 0, m.lose[u] || 0));
  });
  const out = h('div', { id: 'compare-section' });
  out.append(h('h3', {}, 'Compared with the baseline'), mismatchNote(m, b) || '',
    h('p', { class: 'muted' }, 'Baseline: ' + compare.name + ', profile "' + b.name + '" (' + b.kind + '). ' +
      fmtInt(c.matched) + ' instructions matched by pc and order, ' + fmtInt(c.onlyNew) + ' only in this run, ' +
      fmtInt(c.onlyBase) + ' only in the baseline; ' + fmtInt(c.changed) + ' matched instructions changed (timing or unit counters).'),
    exportable(h('table', { class: 'plain', id: 'compare-table' },
      h('tr', {}, h('th', { class: 'l' }, 'figure'), h('th', {}, 'baseline'), h('th', {}, 'this run'), h('th', {}, 'Δ')), rows), 'compare'));
  if (c.top.length) {
    out.append(h('h3', {}, 'Instructions that moved most'), exportable(h('table', { class: 'plain', id: 'compare-top' },
      h('tr', {}, h('th', {}, '#'), h('th', {}, 'pc'), h('th', { class: 'l' }, 'name'), h('th', {}, 'busy before'), h('th', {}, 'busy now'),
        h('th', {}, 'Δ busy'), h('th', {}, 'Δ start'), h('th', {}, 'Δ end'), h('th', { class: 'l' }, 'source')),
      c.top.map((i) => {
        const j = c.match[i], src = m.sources[m.source[i]];
        return h('tr', { style: { cursor: 'pointer' }, onclick: () => setHash({ view: 'timeline', pin: m.idx[i], t: m.s[i] }, true) },
          h('td', {}, fmtInt(m.idx[i])), h('td', {}, m.pc[i]), h('td', { class: 'l mono' }, m.names[m.nameId[i]]),
          h('td', {}, fmtInt(b.e[j] - b.s[j])), h('td', {}, fmtInt(m.e[i] - m.s[i])),
          deltaCell(deltaOf(c, i, 'busy')), deltaCell(deltaOf(c, i, 'start')), deltaCell(deltaOf(c, i, 'end')),
          h('td', { class: 'l' }, src ? src.file.split('/').pop() + ':' + src.line : ''));
      })), 'moved-most'));
  }
  return out;
}

// The compare view's one line at the top of the overview: what changed most, in the terms of
// `lens diff` (its cycles and roofline.efficiency fields, and its first three "moved most"
// instructions with their change of recorded end − start), so the page and the CLI agree.
// data-* attributes carry the raw numbers for the browser test.
function compareSummary(m, c) {
  const b = c.b, top = c.top.slice(0, 3);
  const dEff = m.roofline.efficiency - b.roofline.efficiency;
  const cyc = (i) => { const j = c.match[i]; return (m.end[i] - m.start[i]) - (b.end[j] - b.start[j]); };
  const dc = m.cycles - b.cycles;
  const parts = [
    h('span', {}, h('b', {}, 'cycles '), fmtInt(b.cycles) + ' → ' + fmtInt(m.cycles) + ' ',
      h('span', { class: dc > 0 ? 'delta-up' : dc < 0 ? 'delta-down' : '' }, fmtDelta(dc) + fmtDeltaPct(m.cycles, b.cycles))),
    h('span', {}, h('b', {}, 'roofline efficiency '), fmtPct(b.roofline.efficiency) + ' → ' + fmtPct(m.roofline.efficiency) + ' ',
      h('span', { class: dEff < 0 ? 'delta-up' : dEff > 0 ? 'delta-down' : '' }, '(' + (dEff >= 0 ? '+' : '−') + (100 * Math.abs(dEff)).toFixed(1) + ' pt)')),
    h('span', {}, h('b', {}, 'moved most '), top.length ? '' : 'nothing (no matched instruction changed)',
      ...top.map((i, k) => h('a', { href: '#', class: 'mono', title: 'open #' + m.idx[i] + ' in the timeline',
        onclick: (e) => { e.preventDefault(); setHash({ view: 'timeline', pin: m.idx[i], t: m.s[i] }, true); } },
      (k ? ', ' : '') + 'pc ' + m.pc[i] + ' ' + m.names[m.nameId[i]] + ' #' + m.idx[i] + ' ' + fmtDelta(cyc(i)) + ' cycles'))),
  ];
  const el = h('p', { id: 'compare-summary', 'data-cycles': b.cycles + ',' + m.cycles,
    'data-efficiency': b.roofline.efficiency + ',' + m.roofline.efficiency,
    'data-top': top.map((i) => m.pc[i] + ':' + m.idx[i] + ':' + cyc(i)).join(',') }, h('b', {}, 'What changed most: '));
  parts.forEach((p, k) => el.append(k ? ' · ' : '', p));
  return el;
}

// The hover card's row about the baseline of instruction i.
function compareCardRow(m, i) {
  const c = compareOf(m);
  if (!c) return null;
  const j = c.match[i];
  if (j < 0) return ['baseline', 'no instance of pc ' + m.pc[i] + ' at this position in the baseline'];
  return ['vs baseline', 'start ' + fmtDelta(deltaOf(c, i, 'start')) + ', end ' + fmtDelta(deltaOf(c, i, 'end')) +
    ', busy ' + fmtDelta(deltaOf(c, i, 'busy')) + ' (baseline #' + fmtInt(c.b.idx[j]) + ')'];
}
