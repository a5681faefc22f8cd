// Instructions (filter, sort, click to jump the timeline and floorplan) and Source (per kernel
// source line), in a virtualised table that renders only the rows in view.

const kRowH = 24;
const kMaxScrollPx = 15e6;  // browsers cap element heights; beyond this, scroll is scaled

// Numeric columns that are positions, not amounts: they sort ascending first.
const kPositionColumns = new Set(['#', 'pc', 'slice', 'dispatch', 'start', 'end', 'line']);

class VirtualTable {
  // columns: [{label, width, right, text(i), key(i)}]; rows: model indices shown, in order.
  // `what` names the table in its export (CSV and Copy of every row, in the current order).
  constructor(parent, id, columns, onClick, what) {
    // Wide enough for the label and the sort arrow: a cut header ("wait dep (su") says nothing.
    const ctx = textMeasure('600 13px system-ui, sans-serif');
    for (const c of columns) {
      c.width = Math.max(c.width, Math.ceil(ctx.measureText(c.label + ' ▼').width) + 16);
      // Amounts (cycles, counts, transfers) sort largest first; positions (#, pc, times) in order.
      if (c.firstDesc === undefined) c.firstDesc = !!c.right && !kPositionColumns.has(c.label);
    }
    this.columns = columns;
    this.onClick = onClick;
    this.rows = new Uint32Array(0);
    this.sortCol = -1;
    this.desc = false;
    this.selected = -1;
    this.head = h('div', { class: 'vh' }, columns.map((c, k) => h('div', {
      style: { width: c.width + 'px', flex: c.flex ? '1 0 ' + c.width + 'px' : '0 0 ' + c.width + 'px' }, class: c.right ? 'r' : '',
      title: 'sort by ' + c.label, onclick: () => this.sortBy(k),
    }, c.label)));
    this.spacer = h('div', { style: { height: '0px' } });
    // A fixed height from the start: an unsized body would grow to the spacer and render every row.
    this.body = h('div', { class: 'vb', style: { height: '400px' } }, this.spacer);
    this.el = h('div', { class: 'vt', id }, this.head, this.body);
    this.tools = h('div', { class: 'vt-tools' }, exportButtons(what || id, () => this.exportData()));
    parent.append(this.tools, this.el);
    this.pool = [];
    this.body.addEventListener('scroll', () => this.paint());
    window.addEventListener('resize', () => this.paint());
  }
  setHeight(px) { this.body.style.height = px + 'px'; }
  setRows(rows) {
    this.rows = rows;
    this.scale = Math.max(1, rows.length * kRowH / kMaxScrollPx);
    this.spacer.style.height = rows.length * kRowH / this.scale + 'px';
    this.applySort();
    this.paint();
  }
  sortBy(k) {
    if (this.sortCol === k) this.desc = !this.desc; else { this.sortCol = k; this.desc = !!this.columns[k].firstDesc; }
    this.applySort();
    this.paint();
  }
  applySort() {
    const c = this.columns[this.sortCol];
    this.head.querySelectorAll('div').forEach((d, k) => {
      d.textContent = this.columns[k].label + (k === this.sortCol ? (this.desc ? ' ▼' : ' ▲') : '');
    });
    if (c && c.key) this.rows = sortIndices(this.rows, c.key, this.desc);
  }
  firstVisible() { return Math.floor(this.body.scrollTop * this.scale / kRowH); }
  scrollToRow(r) {
    const viewRows = Math.floor(this.body.clientHeight / kRowH);
    this.body.scrollTop = Math.max(0, (r - Math.floor(viewRows / 2)) * kRowH / this.scale);
    this.paint();
  }
  paint() {
    if (!this.el.isConnected || this.el.offsetParent === null) return;
    const first = this.firstVisible();
    const count = Math.min(400, Math.ceil(this.body.clientHeight / kRowH) + 2);
    while (this.pool.length < count) {
      const row = h('div', { class: 'vr', style: { height: kRowH + 'px' } }, this.columns.map((c) => h('div', {
        class: c.right ? 'r' : (c.mono ? 'mono' : ''), style: { width: c.width + 'px', flex: c.flex ? '1 0 ' + c.width + 'px' : '0 0 ' + c.width + 'px' } })));
      row.addEventListener('click', () => { if (row.dataset.i !== undefined) this.onClick(+row.dataset.i); });
      this.body.append(row);
      this.pool.push(row);
    }
    // Rows sit at scrollTop + their offset so the scaled spacer still scrolls smoothly.
    const top = this.body.scrollTop - (this.body.scrollTop * this.scale % kRowH);
    this.pool.forEach((row, k) => {
      const r = first + k;
      if (k >= count || r >= this.rows.length) { row.style.display = 'none'; delete row.dataset.i; return; }
      const i = this.rows[r];
      row.style.display = '';
      row.style.top = (top + k * kRowH) + 'px';
      row.dataset.i = i;
      row.dataset.r = r;
      row.classList.toggle('sel', i === this.selected);
      this.columns.forEach((c, q) => { row.children[q].textContent = c.text(i); });
    });
  }
  // Every row of the current filter and order, each column's exact value (for the export).
  exportData() { return columnData(this.columns, this.rows); }
  // Rendered rows as text (for the self-test).
  renderedRows() {
    return this.pool.filter((r) => r.style.display !== 'none' && r.dataset.i !== undefined).map((r) => +r.dataset.i);
  }
}

const InstructionsView = {
  needsTrace: true,
  key: 'instructions', title: 'Instructions',
  mount(el) {
    this.el = el;
    this.filter = h('input', { type: 'search', id: 'instr-filter', placeholder: 'filter: MM, unit:VPU, pc:13, src:mlp.cc:131, slow', style: { width: '360px' } });
    let timer = 0;
    this.filter.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => this.applyFilter(), 150); });
    this.count = h('span', { class: 'muted', id: 'instr-count' });
    el.append(h('h2', {}, 'Instructions'),
      h('div', { class: 'toolbar' }, this.filter, this.count, h('span', { class: 'spacer', style: { flex: 1 } }),
        h('span', { class: 'muted' }, 'click a column to sort · click a row to open it in the timeline')));
    this.host = h('div');
    el.append(this.host);
  },
  render(m, params) {
    const cmp = compareOf(m);
    if (this.m !== m || this.cmp !== cmp) {
      this.m = m;
      this.cmp = cmp;
      this.host.innerHTML = '';
      this.table = new VirtualTable(this.host, 'instr-table', instrColumns(m, cmp), (i) => setHash({ view: 'timeline', pin: m.idx[i], t: m.s[i] }, true), 'instructions');
      this.filter.value = params.filter || '';
      this.applyFilter(true);
    }
    const want = params.filter || '';  // the hash holds the filter (applyFilter writes it)
    if (want !== this.filter.value) { this.filter.value = want; this.applyFilter(true); }
    this.table.setHeight(Math.max(240, window.innerHeight - this.host.getBoundingClientRect().top - 24));
    const pin = params.pin !== undefined ? rowOf(m, +params.pin) : undefined;
    this.table.selected = pin === undefined ? -1 : pin;
    if (pin !== undefined && pin !== this.lastPin) {
      const r = this.table.rows.indexOf(pin);
      if (r >= 0) this.table.scrollToRow(r);
    }
    this.lastPin = pin;
    this.table.paint();
  },
  applyFilter(quiet) {
    const m = this.m, rows = filterInstrs(m, this.filter.value);
    this.count.textContent = fmtInt(rows.length) + ' of ' + fmtInt(m.n) + ' instructions';
    this.table.setRows(rows);
    if (!quiet) setHash({ filter: this.filter.value || null }, false, false);
  },
};

// The Instructions table's columns (also what the timeline's selection exports). `value` is a
// column's exact export value: raw cycles (empty when the event did not happen), not text.
function instrColumns(m, cmp) {
  const src = (i) => { const s = m.sources[m.source[i]]; return s ? s.file.split('/').pop() + ':' + s.line : ''; };
  const t = (a) => (i) => (a[i] >= 0 ? fmtInt(a[i]) : '–');
  const v = (a) => (i) => (a[i] >= 0 ? a[i] : '');
  const d = (key) => (i) => { const x = deltaOf(cmp, i, key); return Number.isFinite(x) ? x : ''; };
  return [
    { label: '#', width: 80, right: true, text: (i) => fmtInt(m.idx[i]), key: (i) => m.idx[i], value: (i) => m.idx[i] },
    { label: 'pc', width: 56, right: true, text: (i) => m.pc[i], key: (i) => m.pc[i], value: (i) => m.pc[i] },
    { label: 'unit', width: 64, text: (i) => m.units[m.unit[i]], key: (i) => m.unit[i], value: (i) => m.units[m.unit[i]] },
    { label: 'name', width: 100, mono: true, text: (i) => m.names[m.nameId[i]], key: nameRank(m), value: (i) => m.names[m.nameId[i]] },
    { label: 'detail', width: 240, flex: true, mono: true, text: (i) => detailOf(m, i), value: (i) => detailOf(m, i) },
    { label: 'dispatch', width: 86, right: true, text: t(m.dispatch), key: (i) => m.dispatch[i], value: v(m.dispatch) },
    { label: 'start', width: 86, right: true, text: t(m.start), key: (i) => m.start[i], value: v(m.start) },
    { label: 'end', width: 86, right: true, text: t(m.end), key: (i) => m.end[i], value: v(m.end) },
    { label: 'busy', width: 72, right: true, text: (i) => fmtInt(m.e[i] - m.s[i]), key: (i) => m.e[i] - m.s[i], value: (i) => m.e[i] - m.s[i] },
    { label: 'work', width: 64, right: true, text: (i) => fmtInt(m.work[i]), key: (i) => m.work[i], value: (i) => m.work[i] },
    { label: 'wait dep', width: 76, right: true, text: (i) => fmtInt(m.rs[i] - m.ds[i]), key: (i) => m.rs[i] - m.ds[i], value: (i) => m.rs[i] - m.ds[i] },
    { label: 'wait unit', width: 76, right: true, text: (i) => fmtInt(m.s[i] - m.rs[i]), key: (i) => m.s[i] - m.rs[i], value: (i) => m.s[i] - m.rs[i] },
    { label: 'port B', width: 70, right: true, text: (i) => fmtInt(m.portB[i]), key: (i) => m.portB[i], value: (i) => m.portB[i] },
    { label: 'port A', width: 70, right: true, text: (i) => fmtInt(m.portA[i]), key: (i) => m.portA[i], value: (i) => m.portA[i] },
    { label: 'exclusive', width: 78, right: true, text: (i) => fmtInt(m.excl[i]), key: (i) => m.excl[i], value: (i) => m.excl[i] },
    { label: 'source', width: 130, text: src, key: (i) => m.source[i], value: src },
  ].concat(cmp ? [
    // The compare view: this run minus the baseline's matched instance (pc and order).
    { label: 'Δ start', width: 78, right: true, delta: true, text: (i) => fmtDelta(deltaOf(cmp, i, 'start')), key: (i) => nanLow(deltaOf(cmp, i, 'start')), value: d('start') },
    { label: 'Δ end', width: 78, right: true, delta: true, text: (i) => fmtDelta(deltaOf(cmp, i, 'end')), key: (i) => nanLow(deltaOf(cmp, i, 'end')), value: d('end') },
    { label: 'Δ busy', width: 74, right: true, delta: true, text: (i) => fmtDelta(deltaOf(cmp, i, 'busy')), key: (i) => nanLow(deltaOf(cmp, i, 'busy')), value: d('busy') },
  ] : []);
}

// NaN (no match) sorts below every delta.
function nanLow(v) { return Number.isFinite(v) ? v : -1e15; }

// Ranks of instruction names in alphabetical order, as a sort key.
function nameRank(m) {
  const order = m.names.map((_, k) => k).sort((a, b) => (m.names[a] < m.names[b] ? -1 : 1));
  const rank = new Int32Array(m.names.length);
  order.forEach((k, r) => { rank[k] = r; });
  return (i) => rank[m.nameId[i]];
}

// Instructions matching a filter: space-separated terms, all must hold. unit:NAME, pc:N,
// src:ID or src:FILE:LINE, slow (busy above nominal), or text found in the name or detail.
function filterInstrs(m, text) {
  const terms = text.trim().split(/\s+/).filter(Boolean);
  const tests = terms.map((term) => {
    const g = /^(\w+):(.*)$/.exec(term);
    if (g && g[1] === 'unit') { const u = m.units.findIndex((n) => n.toLowerCase() === g[2].toLowerCase()); return (i) => m.unit[i] === u; }
    if (g && g[1] === 'pc') { const pc = +g[2]; return (i) => m.pc[i] === pc; }
    if (g && g[1] === 'src') {
      const ids = new Set();
      if (/^-?\d+$/.test(g[2])) ids.add(+g[2]);
      else m.sources.forEach((s, k) => { if ((s.file + ':' + s.line).endsWith(g[2])) ids.add(k); });
      return (i) => ids.has(m.source[i]);
    }
    if (term === 'slow') return (i) => m.e[i] - m.s[i] > m.work[i];
    if (term === 'open') return (i) => m.end[i] < 0 && m.start[i] >= 0;
    if (term === 'changed' || term === 'unmatched') {
      const c = compareOf(m);
      if (!c) return () => false;
      return term === 'changed' ? (i) => c.changedMask[i] === 1 : (i) => c.match[i] < 0;
    }
    const low = term.toLowerCase();
    const nameHit = new Uint8Array(m.names.length).map((_, k) => (m.names[k].toLowerCase().includes(low) ? 1 : 0));
    const detailHit = new Uint8Array(m.details.length).map((_, k) => (m.details[k].toLowerCase().includes(low) ? 1 : 0));
    return (i) => nameHit[m.nameId[i]] === 1 || detailHit[m.detailId[i]] === 1;
  });
  if (!tests.length) return new Uint32Array(m.n).map((_, i) => i);
  const out = new Uint32Array(m.n);
  let k = 0;
  for (let i = 0; i < m.n; ++i) if (tests.every((f) => f(i))) out[k++] = i;
  return out.slice(0, k);
}

// The kernel source files' text embedded by `lens html` / `lens open` (lens-code), or {}.
function codeFiles() {
  if (codeFiles.cache) return codeFiles.cache;
  const tag = byId('lens-code'), text = tag ? tag.textContent.trim() : '';
  let out = {};
  if (text && !text.startsWith('<!' + '--')) {
    try { out = JSON.parse(text); } catch (e) { out = {}; }
  }
  codeFiles.cache = out && typeof out === 'object' ? out : {};
  return codeFiles.cache;
}

const SourceView = {
  needsTrace: true,
  key: 'source', title: 'Source',
  mount(el) {
    this.el = el;
    el.append(h('h2', {}, 'Source'), h('p', { class: 'muted' }, 'Per kernel source line: the instructions it emitted and their cycles. Exclusive cycles give every cycle to the oldest instruction in flight (as the findings do) and add up to the run with the idle row; busy and waits are sums. Click a line to list its instructions.'));
    this.host = h('div');
    this.listing = h('div', { id: 'source-listing' });
    el.append(this.host, h('h3', {}, 'Code'), h('p', { class: 'muted' }, 'The kernel source files around each line that emitted instructions, with its exclusive cycles as a heat column (without the files, found when the page was written, only those lines).'), this.listing);
  },
  render(m, params) {
    if (this.m !== m) {
      this.m = m;
      this.build(m);
    } else this.table.paint();
    const want = params.src !== undefined ? +params.src : null;
    this.listing.querySelectorAll('tr.sel').forEach((r) => r.classList.remove('sel'));
    if (want !== null) {
      const row = this.listing.querySelector('tr[data-src="' + want + '"]');
      if (row) { row.classList.add('sel'); row.scrollIntoView({ block: 'center' }); }
      const k = m.sourceRows.findIndex((r) => r.id === want);
      const r = this.table.rows.indexOf(k);
      if (r >= 0) { this.table.selected = k; this.table.scrollToRow(r); }
    }
  },
  build(m) {
    this.host.innerHTML = '';
    const rows = m.sourceRows.slice();
    rows.push({ id: -2, count: 0, busy: 0, excl: m.exclIdle, work: 0, waitDep: 0, waitUnit: 0, portB: 0, portA: 0 });
    this.rows = rows;
    const S = (k) => m.sources[rows[k].id] || null;
    const name = (k) => (rows[k].id === -2 ? '(nothing in flight)' : S(k) ? S(k).file.split('/').pop() + ':' + S(k).line : '(no source)');
    this.table = new VirtualTable(this.host, 'source-table', [
      { label: 'file:line', width: 200, text: name, key: (k) => rows[k].id },
      { label: 'function', width: 170, text: (k) => (S(k) ? S(k).func.split('::').pop() : '') },
      { label: 'source text', width: 280, flex: true, mono: true, text: (k) => (S(k) ? String(S(k).text).trim() : '') },
      { label: 'instrs', width: 72, right: true, text: (k) => fmtInt(rows[k].count), key: (k) => rows[k].count },
      { label: 'exclusive', width: 86, right: true, text: (k) => fmtInt(rows[k].excl), key: (k) => rows[k].excl },
      { label: 'share', width: 64, right: true, text: (k) => fmtPct(rows[k].excl / Math.max(1, m.cycles)), key: (k) => rows[k].excl },
      { label: 'busy (sum)', width: 92, right: true, text: (k) => fmtInt(rows[k].busy), key: (k) => rows[k].busy },
      { label: 'work (sum)', width: 86, right: true, text: (k) => fmtInt(rows[k].work), key: (k) => rows[k].work },
      { label: 'wait dep (sum)', width: 104, right: true, text: (k) => fmtInt(rows[k].waitDep), key: (k) => rows[k].waitDep },
      { label: 'wait unit (sum)', width: 108, right: true, text: (k) => fmtInt(rows[k].waitUnit), key: (k) => rows[k].waitUnit },
      { label: 'port B', width: 76, right: true, text: (k) => fmtInt(rows[k].portB), key: (k) => rows[k].portB },
      { label: 'port A', width: 76, right: true, text: (k) => fmtInt(rows[k].portA), key: (k) => rows[k].portA },
    ], (k) => { if (rows[k].id >= -1) setHash({ view: 'instructions', filter: 'src:' + rows[k].id }, true); }, 'source');
    this.table.setHeight(Math.min(rows.length * kRowH + 4, Math.max(200, window.innerHeight - 260)));
    this.table.setRows(new Uint32Array(rows.length).map((_, k) => k));
    this.table.sortBy(4);
    this.table.sortBy(4);  // most exclusive cycles first
    // The listing: per file, its lines in order, a gap row where lines are missing.
    this.listing.innerHTML = '';
    const perId = new Map(m.sourceRows.map((r) => [r.id, r]));
    const byFile = new Map();
    m.sources.forEach((src, id) => { if (!byFile.has(src.file)) byFile.set(src.file, []); byFile.get(src.file).push(id); });
    const maxExcl = Math.max(1, ...m.sourceRows.filter((r) => r.id >= 0).map((r) => r.excl));
    const code = codeFiles(), kContext = 3;
    for (const [file, ids] of byFile) {
      ids.sort((x, y) => m.sources[x].line - m.sources[y].line);
      const trs = [];
      const lineRow = (id) => {
        const src = m.sources[id], r = perId.get(id), excl = r ? r.excl : 0;
        return h('tr', { 'data-src': id, style: { cursor: 'pointer' }, title: fmtInt(excl) + ' exclusive cycles, ' + fmtInt(r ? r.count : 0) + ' instructions; click to list them',
          onclick: () => setHash({ view: 'instructions', filter: 'src:' + id }, true) },
          h('td', { class: 'r' }, h('span', { class: 'heat', style: { width: Math.round(60 * excl / maxExcl) + 'px', opacity: excl ? 0.35 + 0.65 * excl / maxExcl : 0 } })),
          h('td', { class: 'r' }, fmtInt(excl)), h('td', { class: 'r muted mono' }, String(src.line)), h('td', { class: 'mono l' }, String(src.text)));
      };
      const gap = () => h('tr', { class: 'gap' }, h('td', {}), h('td', {}), h('td', { class: 'r' }, '⋮'), h('td', {}, ''));
      const text = code[file];
      if (typeof text === 'string') {
        // The file's own lines around each line that emitted instructions.
        const lines = text.split('\n'), byLine = new Map();
        for (const id of ids) {
          const l = m.sources[id].line;
          if (!byLine.has(l)) byLine.set(l, []);
          byLine.get(l).push(id);
        }
        let shownTo = 0;
        for (const [at, list] of byLine) {
          const from = Math.max(1, at - kContext, shownTo + 1), to = Math.max(at, Math.min(lines.length, at + kContext));
          if (from > shownTo + 1 && shownTo > 0) trs.push(gap());
          for (let l = from; l <= to; ++l) {
            if (byLine.has(l)) trs.push(...byLine.get(l).map(lineRow));
            else trs.push(h('tr', { class: 'ctx' }, h('td', {}), h('td', {}), h('td', { class: 'r muted mono' }, String(l)), h('td', { class: 'mono muted l' }, lines[l - 1] || '')));
          }
          shownTo = Math.max(shownTo, to);
        }
      } else {
        let prev = null;
        for (const id of ids) {
          if (prev !== null && m.sources[id].line > prev + 1) trs.push(gap());
          prev = m.sources[id].line;
          trs.push(lineRow(id));
        }
      }
      this.listing.append(h('h4', { class: 'mono' }, file), exportable(h('table', { class: 'listing plain' },
        h('tr', { class: 'listing-head' }, h('th', {}, ''), h('th', {}, 'exclusive'), h('th', {}, 'line'), h('th', { class: 'l' }, 'text')), trs), 'code-' + file.split('/').pop()));
    }
  },
};

// Program: the resident program per slice, one row per pc (SPEC 6 `programs`), with what its
// instructions did: runs, exclusive cycles (adding up to the run with the idle row), busy.
const ProgramView = {
  key: 'program', title: 'Program',
  mount(el) {
    this.el = el;
    el.append(h('h2', {}, 'Program'), h('p', { class: 'muted' }, 'Each instruction of the resident program with the cycles its dynamic instances took: exclusive cycles give every cycle to the oldest instruction in flight, as the findings do. Click a row to list its instances.'));
    this.host = h('div');
    el.append(this.host);
  },
  render(m) {
    if (this.m === m) { this.table.paint(); return; }
    this.m = m;
    this.host.innerHTML = '';
    const perPc = new Map(pcRowsOf(m).map((r) => [r.slice * 1e9 + r.pc, r]));
    const rows = [];
    programsOf(m).forEach((prog, slice) => {
      if (!Array.isArray(prog)) return;
      prog.forEach((pr) => {
        if (!Array.isArray(pr)) return;
        const pc = num(pr[0], -1), stat = perPc.get(slice * 1e9 + pc);
        rows.push({ slice, pc, name: String(pr[1] || ''), detail: String(pr[2] || ''), comment: String(pr[3] || ''), source: num(pr[4], -1), stat });
        perPc.delete(slice * 1e9 + pc);
      });
    });
    // pcs that ran but are not in the program table (another writer): from their instructions.
    for (const r of perPc.values()) rows.push({ slice: r.slice, pc: r.pc, name: m.names[m.nameId[r.row]], detail: '', comment: '', source: m.source[r.row], stat: r });
    rows.sort((a, b) => a.slice - b.slice || a.pc - b.pc);
    rows.push({ slice: -1, pc: -1, name: '(nothing in flight)', detail: '', comment: '', source: -1, stat: { count: 0, excl: m.exclIdle, busy: 0, work: 0 }, idle: true });
    this.rows = rows;
    const st = (k) => rows[k].stat;
    const src = (k) => { const s = m.sources[rows[k].source]; return s ? s.file.split('/').pop() + ':' + s.line : ''; };
    this.table = new VirtualTable(this.host, 'program-table', [
      { label: 'slice', width: 48, right: true, text: (k) => (rows[k].idle ? '' : rows[k].slice), key: (k) => rows[k].slice },
      { label: 'pc', width: 56, right: true, text: (k) => (rows[k].idle ? '' : rows[k].pc), key: (k) => rows[k].pc },
      { label: 'name', width: 110, mono: true, text: (k) => rows[k].name },
      { label: 'operands', width: 220, flex: true, mono: true, text: (k) => rows[k].detail },
      { label: 'comment', width: 180, text: (k) => rows[k].comment },
      { label: 'runs', width: 64, right: true, text: (k) => (st(k) ? fmtInt(st(k).count) : (m.hasTrace ? '0' : '–')), key: (k) => (st(k) ? st(k).count : 0) },
      { label: 'exclusive', width: 86, right: true, text: (k) => (st(k) ? fmtInt(st(k).excl) : '–'), key: (k) => (st(k) ? st(k).excl : 0) },
      { label: 'share', width: 64, right: true, text: (k) => (st(k) ? fmtPct(st(k).excl / Math.max(1, m.cycles)) : '–'), key: (k) => (st(k) ? st(k).excl : 0) },
      { label: 'busy (sum)', width: 92, right: true, text: (k) => (st(k) ? fmtInt(st(k).busy) : '–'), key: (k) => (st(k) ? st(k).busy : 0) },
      { label: 'source', width: 130, text: src, key: (k) => rows[k].source },
    ], (k) => { if (!rows[k].idle && m.hasTrace) setHash({ view: 'instructions', filter: 'pc:' + rows[k].pc }, true); }, 'program');
    this.table.setHeight(Math.min(rows.length * kRowH + 4, Math.max(200, window.innerHeight - 220)));
    this.table.setRows(new Uint32Array(rows.length).map((_, k) => k));
  },
};
