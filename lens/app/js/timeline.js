// Timeline: a row per unit (overlapping instructions stack in lanes), the dispatch-to-start wait
// as a thin line (amber while dependencies are pending), counter strips; wheel zoom, drag pan,
// double-click reset, hover and click for an instruction's timing, counters and source line.

const kLaneH = 22, kStripH = 34, kAxisH = 28;
const kStrips = [
  { key: 'portb', label: 'port B', color: '#0072B2', unit: 'chunks/cycle', cols: ['bm', 'bd'], desc: 'port-B chunks per cycle (MXU weights + LD/ST)' },
  { key: 'mxu', label: 'MXU compute', color: '#E69F00', unit: 'share', cols: ['mx'], desc: 'share of cycles the MXU had an instruction' },
  { key: 'stall', label: 'DRAM stalls', color: '#D55E00', unit: 'share', cols: ['bs', 'as'], desc: 'cycles a port request waited for DRAM, per cycle' },
  { key: 'tmem', label: 'TMEM losses', color: '#882255', unit: 'share', cols: ['fm', 'fq', 'fv', 'fc'], desc: 'unit-cycles frozen by the TMEM arbiter, per cycle' },
  { key: 'fifo', label: 'FIFO level', color: '#56B4E9', unit: 'of depth', cols: ['ff'], desc: 'MXU weight-FIFO occupancy at each window\'s end, share of its depth' },
];

// Title, description and rows of an instruction's hover card (also used by the floorplan and tables).
function instrCard(m, i) {
  const t = (v) => (v >= 0 ? fmtInt(v) : '–');
  const rows = [
    ['unit', m.units[m.unit[i]] + (m.slot ? ' · window slot ' + m.slot[i] : '')],
    ['dispatch → ready', t(m.dispatch[i]) + ' → ' + t(m.ready[i]) + '  (waited ' + fmtInt(m.rs[i] - m.ds[i]) + ' for dependencies)'],
  ];
  if (m.release[i] >= 0) rows.push(['MXU release', t(m.release[i])]);
  rows.push(['start → end', t(m.start[i]) + ' → ' + t(m.end[i]) + '  (waited ' + fmtInt(m.s[i] - m.rs[i]) + ' for the unit)']);
  const busy = m.e[i] - m.s[i];
  rows.push(['busy', fmtInt(busy) + ' cycles, nominal ' + fmtInt(m.work[i]) + (m.work[i] > 0 ? ' (' + fmtPct(busy / m.work[i], 0) + ')' : '')]);
  rows.push(['DRAM', fmtInt(m.portB[i]) + ' port-B chunks, ' + fmtInt(m.portA[i]) + ' port-A words']);
  const c = countersOf(m, i);
  if (c.length) rows.push(['counters', c.map(([k, v]) => k + ' ' + fmtInt(v)).join(', ')]);
  const src = m.sources[m.source[i]];
  if (src) rows.push(['source', src.file + ':' + src.line + (src.func ? ' (' + src.func + ')' : '')], ['', String(src.text).trim()]);
  return { title: '#' + fmtInt(m.idx[i]) + '  pc ' + m.pc[i] + '  ' + m.names[m.nameId[i]], desc: detailOf(m, i), rows };
}

const TimelineView = {
  key: 'timeline', title: 'Timeline',
  mount(el) {
    this.el = el;
    this.toolbar = h('div', { class: 'toolbar' },
      h('button', { onclick: () => this.zoom(1 / 1.6) }, 'Zoom in'), h('button', { onclick: () => this.zoom(1.6) }, 'Zoom out'),
      h('button', { onclick: () => this.reset() }, 'Whole run'),
      h('span', { class: 'sep' }),
      this.rangeLabel = h('span', { class: 'muted' }),
      h('span', { class: 'spacer', style: { flex: 1 } }),
      h('span', { class: 'muted' }, 'wheel zoom · drag pan · double-click whole run · click pins · ', h('kbd', {}, '←'), h('kbd', {}, '→'), ' ', h('kbd', {}, '+'), h('kbd', {}, '−'), ' ', h('kbd', {}, '0')));
    this.canvas = h('canvas', { id: 'timeline-canvas', tabindex: 0 });
    this.pinPanel = h('div', { class: 'pinned', id: 'timeline-pinned' });
    el.append(h('h2', {}, 'Timeline'), this.toolbar, h('div', { class: 'canvas-wrap' }, this.canvas), this.pinPanel);
    const c = this.canvas;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoom(Math.exp(e.deltaY * 0.0015), this.cycleAt(e.offsetX));
    }, { passive: false });
    c.addEventListener('mousedown', (e) => { this.drag = { x: e.clientX, v0: this.v0, v1: this.v1, moved: false }; });
    window.addEventListener('mousemove', (e) => {
      if (!this.drag) return;
      const dx = e.clientX - this.drag.x;
      if (Math.abs(dx) > 3) this.drag.moved = true;
      if (!this.drag.moved) return;
      const cpp = (this.drag.v1 - this.drag.v0) / this.plotW();
      this.setRange(this.drag.v0 - dx * cpp, this.drag.v1 - dx * cpp);
    });
    window.addEventListener('mouseup', (e) => {
      const d = this.drag;
      this.drag = null;
      if (d && !d.moved && e.target === c) this.click(e.offsetX, e.offsetY);
    });
    c.addEventListener('mousemove', (e) => { if (!this.drag || !this.drag.moved) this.hover(e.offsetX, e.offsetY, e.clientX, e.clientY); });
    c.addEventListener('mouseleave', () => hoverCard.hide(this));
    c.addEventListener('dblclick', () => this.reset());
    window.addEventListener('resize', () => { if (!this.el.hidden && this.m) this.draw(); });
  },
  onKey(e) {
    const span = this.v1 - this.v0;
    if (e.key === 'ArrowLeft') this.setRange(this.v0 - span / 8, this.v1 - span / 8);
    else if (e.key === 'ArrowRight') this.setRange(this.v0 + span / 8, this.v1 + span / 8);
    else if (e.key === '+' || e.key === '=') this.zoom(1 / 1.6);
    else if (e.key === '-' || e.key === '_') this.zoom(1.6);
    else if (e.key === '0') this.reset();
    else if (e.key === 'Escape') setHash({ pin: null });
    else return false;
    return true;
  },
  render(m, params) {
    if (this.m !== m) {
      this.m = m;
      this.layout();
      this.v0 = 0; this.v1 = Math.max(1, m.cycles);
      this.lastPin = undefined;
    }
    const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(params.range || '');
    if (range && (+range[1] !== Math.round(this.v0) || +range[2] !== Math.round(this.v1))) this.setRange(+range[1], +range[2], true);
    this.pin = params.pin !== undefined ? rowOf(m, +params.pin) : undefined;
    if (this.pin !== this.lastPin) {
      this.lastPin = this.pin;
      const i = this.pin;
      if (i !== undefined && (m.s[i] < this.v0 || m.e[i] > this.v1 || !range)) {
        const span = Math.max(64, (m.e[i] - m.ds[i]) * 12);
        const c = (m.ds[i] + m.e[i]) / 2;
        this.setRange(c - span / 2, c + span / 2, true);
      }
    }
    this.cursor = params.t !== undefined ? +params.t : null;
    this.renderPin();
    this.draw();
  },
  layout() {
    const m = this.m;
    this.rows = [];
    let y = kAxisH;
    m.units.forEach((name, u) => {
      const lanes = m.lanes[u];
      if (!lanes.length) return;
      lanes.forEach((lane, k) => { this.rows.push({ type: 'lane', u, k, lane, y, h: kLaneH, label: k === 0 ? name : '' }); y += kLaneH; });
      y += 6;
    });
    y += 6;
    for (const s of kStrips) { this.rows.push({ type: 'strip', strip: s, y, h: kStripH, label: s.label }); y += kStripH + 4; }
    this.height = y + 6;
  },
  L: 112, R: 12,
  width() { return Math.max(480, this.el.clientWidth - 2); },
  plotW() { return this.width() - this.L - this.R; },
  X(t) { return this.L + (t - this.v0) / (this.v1 - this.v0) * this.plotW(); },
  cycleAt(x) { return this.v0 + (x - this.L) / this.plotW() * (this.v1 - this.v0); },
  setRange(a, b, quiet) {
    const m = this.m, max = Math.max(1, m.cycles);
    let span = Math.min(Math.max(b - a, 8), max * 1.02);
    a = Math.max(-0.01 * max, Math.min(a, max * 1.01 - span));
    this.v0 = a; this.v1 = a + span;
    if (!quiet) setHash({ range: Math.round(this.v0) + '-' + Math.round(this.v1) });
    this.draw();
  },
  zoom(f, at) {
    const c = at === undefined ? (this.v0 + this.v1) / 2 : at;
    this.setRange(c - (c - this.v0) * f, c + (this.v1 - c) * f);
  },
  reset() { this.setRange(0, Math.max(1, this.m.cycles)); },
  draw() {
    if (!this.m || this.el.hidden) return;
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.drawNow(); });
  },
  drawNow() {
    const m = this.m, W = this.width(), pw = this.plotW();
    const ctx = setupCanvas(this.canvas, W, this.height);
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, W, this.height);
    ctx.font = '12px system-ui, sans-serif';
    const cpp = (this.v1 - this.v0) / pw;
    this.rangeLabel.textContent = 'cycles ' + fmtInt(Math.max(0, this.v0)) + ' – ' + fmtInt(Math.min(m.cycles, this.v1)) + ' (' + fmtTime(this.v1 - this.v0, m.clock) + ')';
    drawCycleAxisTop(ctx, this.L, kAxisH - 6, pw, this.v0, this.v1);
    ctx.save();
    ctx.beginPath(); ctx.rect(this.L, 0, pw, this.height); ctx.clip();
    let drawn = 0;
    for (const r of this.rows) {
      if (r.type === 'lane') drawn += this.drawLane(ctx, r, cpp);
      else this.drawStrip(ctx, r, cpp);
    }
    if (this.cursor !== null && this.cursor >= this.v0 && this.cursor <= this.v1) {
      const x = Math.round(this.X(this.cursor)) + 0.5;
      ctx.strokeStyle = '#1d2330'; ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.moveTo(x, kAxisH - 4); ctx.lineTo(x, this.height); ctx.stroke(); ctx.setLineDash([]);
    }
    ctx.restore();
    ctx.fillStyle = '#1d2330'; ctx.textAlign = 'right'; ctx.font = '600 12px system-ui, sans-serif';
    for (const r of this.rows) {
      if (r.label) ctx.fillText(r.label, this.L - 8, r.y + (r.type === 'lane' ? 15 : r.h / 2 + 4));
      if (r.type === 'strip') {
        ctx.font = '10.5px system-ui, sans-serif'; ctx.fillStyle = '#5d6575';
        ctx.fillText(r.strip.unit, this.L - 8, r.y + r.h / 2 + 16);
        ctx.font = '600 12px system-ui, sans-serif'; ctx.fillStyle = '#1d2330';
      }
    }
    this.lastDrawn = drawn;
  },
  // Visible part of a lane: indices [first, last) into lane.idx.
  visible(lane) {
    return [upperBound(lane.le, this.v0), upperBound(lane.ls, this.v1 + lane.maxWait)];
  },
  drawLane(ctx, r, cpp) {
    const m = this.m, lane = r.lane, color = kUnitColors[r.u % kUnitColors.length];
    ctx.fillStyle = r.k % 2 ? '#fafbfc' : '#f3f5f8';
    ctx.fillRect(this.L, r.y, this.plotW(), r.h);
    const [first, last] = this.visible(lane);
    const pw = this.plotW();
    if (last - first > pw * 2 && cpp >= m.binCycles) {
      // Zoomed out: busy share per pixel from the lane's precomputed curve.
      ctx.fillStyle = color;
      for (let px = 0; px < pw; ++px) {
        const a = this.v0 + px * cpp;
        const f = Math.min(1, laneBusyIn(m, lane, a, a + cpp) / cpp);
        if (f > 0) { const hh = Math.max(1, f * (r.h - 6)); ctx.fillRect(this.L + px, r.y + r.h - 3 - hh, 1, hh); }
      }
      return 0;
    }
    const y = r.y;
    for (let j = first; j < last; ++j) {
      const i = lane.idx[j];
      if (m.s[i] > this.v1 && m.ds[i] > this.v1) continue;
      const xs = this.X(m.s[i]);
      if (m.ds[i] < m.s[i]) {
        const xd = this.X(m.ds[i]), xr = this.X(m.rs[i]);
        ctx.fillStyle = kAmber; ctx.fillRect(xd, y + r.h - 4, Math.max(1, xr - xd), 2);
        if (xs > xr) { ctx.fillStyle = '#8a92a0'; ctx.fillRect(xr, y + r.h - 4, xs - xr, 2); }
      }
      const xe = this.X(m.e[i]), w = Math.max(1, xe - xs);
      ctx.fillStyle = color;
      ctx.fillRect(xs, y + 3, w, r.h - 9);
      if (w > 3) { ctx.fillStyle = 'rgba(255,255,255,.55)'; ctx.fillRect(xe - 1, y + 3, 1, r.h - 9); }
      if (w > 34) {
        ctx.fillStyle = r.u === 1 || r.u === 4 ? '#1d2330' : '#fff'; ctx.textAlign = 'left'; ctx.font = '11px system-ui, sans-serif';
        const label = m.names[m.nameId[i]] + (w > 120 ? '  ' + detailOf(m, i) : '');
        ctx.save(); ctx.beginPath(); ctx.rect(xs, y, w - 2, r.h); ctx.clip();
        ctx.fillText(label, xs + 4, y + 14);
        ctx.restore();
      }
      if (i === this.pin || i === this.hot) {
        ctx.strokeStyle = i === this.pin ? '#000' : '#444'; ctx.lineWidth = i === this.pin ? 2 : 1;
        ctx.strokeRect(xs - 1, y + 2, w + 2, r.h - 7); ctx.lineWidth = 1;
      }
    }
    return last - first;
  },
  stripValue(s, wa, wb) {
    const W = this.m.windows;
    if (s.key === 'fifo') return (W.pre.ff[wb] - W.pre.ff[wa]) / Math.max(1, wb - wa) / Math.max(1, this.m.cfg.FIFO_DEPTH);
    let v = 0;
    for (const c of s.cols) v += W.pre[c][wb] - W.pre[c][wa];
    return v / Math.max(1, W.pre.n[wb] - W.pre.n[wa]);
  },
  drawStrip(ctx, r, cpp) {
    const m = this.m, s = r.strip, pw = this.plotW();
    ctx.fillStyle = '#f6f7f9'; ctx.fillRect(this.L, r.y, pw, r.h);
    if (!m.windows.n) return;
    ctx.fillStyle = s.color;
    for (let px = 0; px < pw; ++px) {
      const a = this.v0 + px * cpp;
      if (a + cpp <= 0 || a >= m.cycles) continue;
      const wa = windowAt(m, Math.max(0, a)), wb = windowAt(m, Math.max(0, Math.min(m.cycles - 1, a + cpp - 1e-9))) + 1;
      const v = Math.min(1, this.stripValue(s, wa, wb));
      if (v > 0) { const hh = Math.max(1, v * (r.h - 2)); ctx.fillRect(this.L + px, r.y + r.h - hh, 1, hh); }
    }
  },
  rowAt(y) { return this.rows.find((r) => y >= r.y && y < r.y + r.h); },
  // The instruction under (x, y), or undefined; the wait line counts as its instruction.
  instrAt(x, y) {
    const r = this.rowAt(y);
    if (!r || r.type !== 'lane' || x < this.L) return undefined;
    const m = this.m, lane = r.lane, t = this.cycleAt(x), tol = 3 * (this.v1 - this.v0) / this.plotW();
    let j = upperBound(lane.ls, t) - 1;
    if (j >= 0 && m.e[lane.idx[j]] + tol > t) return lane.idx[j];
    if (j + 1 < lane.idx.length && m.s[lane.idx[j + 1]] - tol <= t) return lane.idx[j + 1];
    for (let q = j + 1; q < Math.min(lane.idx.length, j + 12); ++q) {
      const i = lane.idx[q];
      if (m.ds[i] <= t && t < m.s[i]) return i;
    }
    return undefined;
  },
  hover(x, y, cx, cy) {
    const m = this.m, i = this.instrAt(x, y);
    if (i !== this.hot) { this.hot = i; this.draw(); }
    if (i !== undefined) {
      const c = instrCard(m, i);
      hoverCard.show(this, cx, cy, c.title, c.desc, c.rows);
      return;
    }
    const r = this.rowAt(y);
    if (r && r.type === 'strip' && x >= this.L) {
      const t = this.cycleAt(x);
      if (t < 0 || t >= m.cycles || !m.windows.n) { hoverCard.hide(this); return; }
      const w = windowAt(m, t), W = m.windows;
      hoverCard.show(this, cx, cy, r.strip.label + ' · window ' + w, r.strip.desc, [
        ['cycles', fmtInt(W.ws[w]) + '–' + fmtInt(W.we[w] - 1)],
        ['value', fmtNum(this.stripValue(r.strip, w, w + 1), 3) + ' ' + r.strip.unit],
        ...r.strip.cols.map((c) => [c, fmtInt(W.col[c][w])])]);
      return;
    }
    hoverCard.hide(this);
  },
  click(x, y) {
    const i = this.instrAt(x, y);
    if (i !== undefined) setHash({ pin: this.m.idx[i], t: this.m.s[i] });
    else if (x >= this.L) setHash({ t: Math.max(0, Math.min(this.m.cycles - 1, Math.round(this.cycleAt(x)))) });
  },
  renderPin() {
    const m = this.m, i = this.pin, el = this.pinPanel;
    el.innerHTML = '';
    if (i === undefined) {
      el.append(h('span', { class: 'muted' }, 'Click an instruction to pin it here; click empty space to move the cursor (shared with the floorplan).'));
      return;
    }
    const c = instrCard(m, i);
    el.append(h('div', { class: 'toolbar' }, h('b', {}, c.title), h('span', { class: 'mono' }, c.desc),
      h('button', { onclick: () => setHash({ view: 'floorplan', t: m.s[i] }, true) }, 'Show in floorplan'),
      h('button', { onclick: () => setHash({ view: 'instructions' }, true) }, 'Show in instructions'),
      h('button', { onclick: () => setHash({ pin: null }) }, 'Unpin')));
    el.append(h('table', {}, c.rows.map(([k, v]) => h('tr', {}, h('td', { class: 'muted', style: { paddingRight: '12px' } }, k), h('td', { class: k === '' ? 'mono' : '' }, v)))));
  },
};

function drawCycleAxisTop(ctx, x0, y, width, a, b) {
  ctx.strokeStyle = '#8a92a0'; ctx.fillStyle = '#5d6575'; ctx.font = '11px system-ui, sans-serif'; ctx.textAlign = 'center';
  ctx.beginPath(); ctx.moveTo(x0, y + 0.5); ctx.lineTo(x0 + width, y + 0.5); ctx.stroke();
  const ticks = niceTicks(Math.max(0, a), b, Math.max(2, Math.floor(width / 110)));
  for (const v of ticks) {
    const x = x0 + (v - a) / (b - a) * width;
    ctx.beginPath(); ctx.moveTo(x + 0.5, y - 4); ctx.lineTo(x + 0.5, y); ctx.stroke();
    ctx.fillText(fmtTick(v, ticks), x, y - 7);
  }
  ctx.textAlign = 'left';
  ctx.fillText('cycle', 6, y - 7);
}
