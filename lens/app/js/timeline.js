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
  if (m.end[i] < 0 && m.start[i] >= 0) rows.push(['trace', 'no end record: still open when the trace ended']);
  const p = depsOf(m)[i];
  if (p >= 0) rows.push(['waited on', '#' + fmtInt(m.idx[p]) + ' pc ' + m.pc[p] + ' ' + m.names[m.nameId[p]] + ' (' + m.units[m.unit[p]] + '), which ended at ' + fmtInt(m.end[p])]);
  const cr = m === app.m ? compareCardRow(m, i) : null;
  if (cr) rows.push(cr);
  return { title: '#' + fmtInt(m.idx[i]) + '  pc ' + m.pc[i] + '  ' + m.names[m.nameId[i]], desc: detailOf(m, i), rows };
}

const TimelineView = {
  needsTrace: true,
  key: 'timeline', title: 'Timeline',
  mount(el) {
    this.el = el;
    this.toolbar = h('div', { class: 'toolbar' },
      h('button', { onclick: () => this.zoom(1 / 1.6) }, 'Zoom in'), h('button', { onclick: () => this.zoom(1.6) }, 'Zoom out'),
      h('button', { onclick: () => this.reset() }, 'Whole run'),
      h('span', { class: 'sep' }),
      this.rangeLabel = h('span', { class: 'muted', id: 'timeline-range' }),
      h('span', { class: 'sep' }),
      this.search = h('input', { type: 'search', id: 'timeline-find', placeholder: 'highlight: MM, d0x100, pc:13 (Enter: next)', style: { width: '230px' } }),
      this.findCount = h('span', { class: 'muted', id: 'timeline-find-count' }),
      h('span', { class: 'spacer', style: { flex: 1 } }),
      h('span', { class: 'muted' }, 'wheel zoom · drag pan · shift-drag select · click pins · ', h('kbd', {}, 'W'), h('kbd', {}, 'A'), h('kbd', {}, 'S'), h('kbd', {}, 'D'), ' ', h('kbd', {}, '←'), h('kbd', {}, '→'), ' ', h('kbd', {}, '0'), ' · ', h('kbd', {}, '?'), ' all keys'));
    let timer = 0;
    this.search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => setHash({ find: this.search.value || null }), 150); });
    // Enter / Shift-Enter step to the next / previous match, as Perfetto's search does; a term
    // still waiting for its debounce is applied first, so typing and Enter at once works.
    this.search.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      clearTimeout(timer);
      if ((this.search.value || '') !== (this.findText || '')) setHash({ find: this.search.value || null });
      this.stepFind(e.shiftKey ? -1 : 1);
    });
    this.selPanel = h('div', { class: 'pinned', id: 'timeline-selection', hidden: true });
    this.canvas = h('canvas', { id: 'timeline-canvas', tabindex: 0 });
    this.pinPanel = h('div', { class: 'pinned', id: 'timeline-pinned' });
    this.banner = h('div');
    el.append(h('h2', {}, 'Timeline'), this.banner, this.toolbar, h('div', { class: 'canvas-wrap' }, this.canvas), this.selPanel, this.pinPanel);
    const c = this.canvas;
    c.addEventListener('wheel', (e) => {
      e.preventDefault();
      this.zoom(Math.exp(e.deltaY * 0.0015), this.cycleAt(e.offsetX));
    }, { passive: false });
    c.addEventListener('mousedown', (e) => {
      this.drag = { x: e.clientX, v0: this.v0, v1: this.v1, moved: false, select: e.shiftKey, t0: this.cycleAt(e.offsetX) };
    });
    window.addEventListener('mousemove', (e) => {
      if (!this.drag) return;
      const dx = e.clientX - this.drag.x;
      if (Math.abs(dx) > 3) this.drag.moved = true;
      if (!this.drag.moved) return;
      const cpp = (this.drag.v1 - this.drag.v0) / this.plotW();
      if (this.drag.select) {
        // Shift-drag: a selection from where the drag began to the pointer.
        const t1 = this.drag.t0 + dx * cpp;
        this.selection = [Math.min(this.drag.t0, t1), Math.max(this.drag.t0, t1)];
        this.draw();
        return;
      }
      this.setRange(this.drag.v0 - dx * cpp, this.drag.v1 - dx * cpp);
    });
    window.addEventListener('mouseup', (e) => {
      const d = this.drag;
      this.drag = null;
      if (d && d.select && d.moved && this.selection) {
        const [a, b] = this.selection;
        setHash({ sel: Math.max(0, Math.round(a)) + '-' + Math.min(this.m.cycles, Math.round(b)) });
        return;
      }
      if (d && !d.moved && e.target === c) this.click(e.offsetX, e.offsetY);
    });
    c.addEventListener('mousemove', (e) => { if (!this.drag || !this.drag.moved) this.hover(e.offsetX, e.offsetY, e.clientX, e.clientY); });
    c.addEventListener('mouseleave', () => hoverCard.hide(this));
    c.addEventListener('dblclick', () => this.reset());
    window.addEventListener('resize', () => { if (!this.el.hidden && this.m) this.draw(); });
  },
  onKey(e) {
    const span = this.v1 - this.v0;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    // Perfetto's keys: W/S zoom in/out around the pointer, A/D pan by a fifth of the view.
    if (k === 'ArrowLeft') this.setRange(this.v0 - span / 8, this.v1 - span / 8);
    else if (k === 'ArrowRight') this.setRange(this.v0 + span / 8, this.v1 + span / 8);
    else if (k === 'a') this.setRange(this.v0 - span / 5, this.v1 - span / 5);
    else if (k === 'd') this.setRange(this.v0 + span / 5, this.v1 + span / 5);
    else if (k === 'w') this.zoom(1 / 1.25, this.pointerT);
    else if (k === 's') this.zoom(1.25, this.pointerT);
    else if (k === '+' || k === '=') this.zoom(1 / 1.6);
    else if (k === '-' || k === '_') this.zoom(1.6);
    else if (k === '0') this.reset();
    else if (k === 'Enter' && this.found) this.stepFind(e.shiftKey ? -1 : 1);
    else if (k === 'Escape') setHash(this.selection ? { sel: null } : { pin: null });
    else return false;
    return true;
  },
  render(m, params) {
    const cmp = compareOf(m);
    if (this.m !== m) {
      this.m = m;
      this.cmp = cmp;
      this.layout();
      this.v0 = 0; this.v1 = Math.max(1, m.cycles);
      this.lastPin = undefined;
      this.viewSet = false;  // nothing but the whole run shown yet
    } else if (this.cmp !== cmp) {
      this.cmp = cmp;
      this.layout();
    }
    this.banner.innerHTML = '';
    const banner = lossBanner(m);
    if (banner) this.banner.append(banner);
    let range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(params.range || '');
    // The note about a corrected range stays until the range changes again.
    if (this.hashNote && params.range !== this.hashNoteRange) this.hashNote = '';
    if (range) {
      // A hand-edited range: in order and inside the run (at least 8 cycles), written back.
      // (The view's own overscroll, up to 2 % past the end, is not an error.)
      const max = Math.max(1, m.cycles), r0 = +range[1], r1 = +range[2];
      if (r0 >= r1 || r0 >= max || r1 > max * 1.02) {
        let a = Math.min(max, Math.min(r0, r1)), b = Math.min(max, Math.max(r0, r1));
        if (b - a < 8) { a = Math.max(0, Math.min(a, max - 8)); b = Math.min(max, a + 8); }
        this.hashNote = 'range=' + params.range + ' is not a range of this run (0–' + fmtInt(max) + '); showing ' + fmtInt(a) + '–' + fmtInt(b) + '.';
        this.hashNoteRange = a + '-' + b;
        setHash({ range: this.hashNoteRange }, false, false);
        range = [null, String(a), String(b)];
      }
    }
    if (range && (+range[1] !== Math.round(this.v0) || +range[2] !== Math.round(this.v1))) {
      this.setRange(+range[1], +range[2], true);
      hoverCard.hide(this);
    }
    if (range) this.viewSet = true;
    this.pin = params.pin !== undefined ? rowOf(m, +params.pin) : undefined;
    this.badPin = params.pin !== undefined && this.pin === undefined ? params.pin : null;
    if (this.pin !== this.lastPin) {
      this.lastPin = this.pin;
      const i = this.pin;
      // Keep the view when the pinned bar overlaps it; otherwise (or when only the whole run
      // was shown) centre on it, and write the new range into the hash.
      if (i !== undefined) {
        const overlaps = m.e[i] > this.v0 && m.s[i] < this.v1;
        if (!overlaps || !this.viewSet) {
          // Dispatch to end with a margin; a zoomed view keeps its zoom when that fits.
          const need = (m.e[i] - m.ds[i]) * 1.5, keep = this.viewSet ? this.v1 - this.v0 : 0;
          const span = Math.max(64, keep >= need ? keep : need);
          const c = (m.ds[i] + m.e[i]) / 2;
          hoverCard.hide(this);
          this.setRange(c - span / 2, c + span / 2, true);
          this.viewSet = true;
          setHash({ range: Math.round(this.v0) + '-' + Math.round(this.v1) }, false, false);
        }
      }
    }
    this.cursor = params.t !== undefined ? +params.t : null;
    const sel = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(params.sel || '');
    this.selection = sel && +sel[2] > +sel[1] ? [+sel[1], +sel[2]] : null;
    const find = params.find || '';
    if (find !== this.findText) {
      this.findText = find;
      this.found = find ? matchMask(m, find) : null;
      this.findAt = -1;
    }
    // The current match is the pinned instruction when it is one ("3 of 116").
    if (this.found) this.findAt = this.pin !== undefined && this.found.mask[this.pin] ? this.found.order.indexOf(this.pin) : -1;
    this.findCount.textContent = !this.found ? '' : this.findAt >= 0 && this.found.count
      ? fmtInt(this.findAt + 1) + ' of ' + fmtInt(this.found.count)
      : fmtInt(this.found.count) + ' match' + (this.found.count === 1 ? '' : 'es');
    if (this.search.value !== find && document.activeElement !== this.search) this.search.value = find;
    this.renderSelection();
    this.renderPin();
    this.draw();
  },
  // Steps to the next (dir 1) or previous (−1) match in start order, wrapping, and pins it (which
  // zooms onto it unless it is in view). From no current match: the first match starting at or
  // after the view's left edge, or the last starting before its right edge.
  stepFind(dir) {
    const m = this.m, f = this.found;
    if (!f || !f.count) return;
    let k = this.findAt;
    if (k < 0) {
      const edge = dir > 0 ? this.v0 : this.v1;
      k = dir > 0 ? f.order.findIndex((i) => m.s[i] >= edge) : f.order.findLastIndex((i) => m.s[i] < edge);
      if (k < 0) k = dir > 0 ? 0 : f.count - 1;
    } else k = (k + dir + f.count) % f.count;
    const i = f.order[k];
    setHash({ pin: m.idx[i], t: m.s[i] });
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
    // The baseline's lanes (compare view), on the same cycle axis under this run's.
    const b = this.cmp ? this.cmp.b : null;
    if (b) {
      y += 10;
      this.rows.push({ type: 'title', y, h: 18, label: 'baseline' });
      y += 18;
      b.units.forEach((name, u) => {
        (b.lanes[u] || []).forEach((lane, k) => { this.rows.push({ type: 'lane', base: true, m: b, u, k, lane, y, h: kLaneH, label: k === 0 ? 'base ' + name : '' }); y += kLaneH; });
        if ((b.lanes[u] || []).length) y += 6;
      });
    }
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
    // The run's part of the view (the overscroll beyond 0 and the end is not part of it).
    const a = Math.max(0, this.v0), z = Math.min(m.cycles, this.v1);
    this.rangeLabel.textContent = 'cycles ' + fmtInt(a) + ' – ' + fmtInt(z) + ' (' + fmtTime(Math.max(0, z - a), m.clock) + ')';
    drawCycleAxisTop(ctx, this.L, kAxisH - 6, pw, this.v0, this.v1);
    ctx.save();
    ctx.beginPath(); ctx.rect(this.L, 0, pw, this.height); ctx.clip();
    let drawn = 0;
    this.labels = [];  // {i, x} of the bar labels drawn (this run's lanes), for the self-test
    for (const r of this.rows) {
      if (r.type === 'lane') drawn += this.drawLane(ctx, r, cpp);
      else if (r.type === 'strip') this.drawStrip(ctx, r, cpp);
    }
    // What the trace did not cover: after the cut, before the ring's first record.
    const L = m.loss;
    if (L) {
      ctx.fillStyle = 'rgba(120,120,120,.28)';
      const shade = (t0, t1, why) => {
        const x0 = Math.max(this.L, this.X(t0)), x1 = Math.min(this.L + pw, this.X(t1));
        if (x1 <= x0) return;
        ctx.fillRect(x0, kAxisH - 4, x1 - x0, this.height);
        ctx.save(); ctx.fillStyle = '#5d3a1a'; ctx.font = '600 11px system-ui, sans-serif'; ctx.textAlign = 'left';
        ctx.fillText(why, x0 + 4, kAxisH + 10); ctx.restore();
        ctx.fillStyle = 'rgba(120,120,120,.28)';
      };
      this.shaded = [];
      if (L.cut !== null) { shade(L.cut, Math.max(m.cycles, L.cut + 1), 'not traced (buffer full)'); this.shaded.push([L.cut, m.cycles]); }
      if (L.from > 0) { shade(0, L.from, 'overwritten (ring)'); this.shaded.push([0, L.from]); }
    } else this.shaded = [];
    this.drawArrows(ctx);
    if (this.selection) {
      const [sa, sb] = this.selection, x0 = this.X(sa), x1 = this.X(sb);
      ctx.fillStyle = 'rgba(0,114,178,.12)'; ctx.fillRect(x0, kAxisH - 4, x1 - x0, this.height);
      ctx.strokeStyle = '#0072B2'; ctx.strokeRect(x0 + 0.5, kAxisH - 4, x1 - x0, this.height);
    }
    if (this.cursor !== null && this.cursor >= this.v0 && this.cursor <= this.v1) {
      const x = Math.round(this.X(this.cursor)) + 0.5;
      ctx.strokeStyle = '#1d2330'; ctx.setLineDash([4, 3]); ctx.beginPath(); ctx.moveTo(x, kAxisH - 4); ctx.lineTo(x, this.height); ctx.stroke(); ctx.setLineDash([]);
    }
    ctx.restore();
    ctx.fillStyle = '#1d2330'; ctx.textAlign = 'right'; ctx.font = '600 12px system-ui, sans-serif';
    for (const r of this.rows) {
      if (r.type === 'title') {
        ctx.save(); ctx.textAlign = 'left'; ctx.fillStyle = '#5d6575';
        ctx.fillText('Baseline: ' + compare.name + ' · ' + this.cmp.b.name + ' (' + fmtInt(this.cmp.b.cycles) + ' cycles; Δ ' + fmtDelta(m.cycles - this.cmp.b.cycles) + ')', 6, r.y + 13);
        ctx.restore();
        continue;
      }
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
    const m = r.m || this.m, lane = r.lane, color = kUnitColors[r.u % kUnitColors.length];
    const found = r.base ? null : this.found;
    // In the baseline's lanes, the pinned instruction's match is outlined.
    const pin = r.base ? (this.pin !== undefined && this.cmp ? this.cmp.match[this.pin] : -1) : this.pin;
    const hot = this.hotRow === r ? this.hot : -1;
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
      const open = m.end[i] < 0 && m.start[i] >= 0;  // no end record: drawn open to the end
      ctx.globalAlpha = found && !found.mask[i] ? 0.25 : 1;
      ctx.fillStyle = color;
      if (open) {
        ctx.save(); ctx.globalAlpha *= 0.45; ctx.fillRect(xs, y + 3, w, r.h - 9); ctx.restore();
        ctx.strokeStyle = color; ctx.setLineDash([3, 2]); ctx.strokeRect(xs + 0.5, y + 3.5, w, r.h - 10); ctx.setLineDash([]);
      } else ctx.fillRect(xs, y + 3, w, r.h - 9);
      if (w > 3 && !open) { ctx.fillStyle = 'rgba(255,255,255,.55)'; ctx.fillRect(xe - 1, y + 3, 1, r.h - 9); }
      // The label starts where the bar enters the view, so a bar begun off-screen keeps it.
      const lx = Math.max(xs, this.L), lw = xe - lx;
      if (lw > 34) {
        ctx.fillStyle = open ? '#1d2330' : (r.u === 1 || r.u === 4 ? '#1d2330' : '#fff'); ctx.textAlign = 'left'; ctx.font = '11px system-ui, sans-serif';
        const label = (open ? '▸ open: ' : '') + m.names[m.nameId[i]] + (lw > 120 ? '  ' + detailOf(m, i) : '');
        ctx.save(); ctx.beginPath(); ctx.rect(lx, y, lw - 2, r.h); ctx.clip();
        ctx.fillText(label, lx + 4, y + 14);
        ctx.restore();
        if (!r.base) this.labels.push({ i, x: lx });
      }
      ctx.globalAlpha = 1;
      if (found && found.mask[i]) { ctx.strokeStyle = '#D55E00'; ctx.lineWidth = 2; ctx.strokeRect(xs - 1, y + 2, w + 2, r.h - 7); ctx.lineWidth = 1; }
      if (i === pin || i === hot) {
        ctx.strokeStyle = i === pin ? '#000' : '#444'; ctx.lineWidth = i === pin ? 2 : 1;
        ctx.strokeRect(xs - 1, y + 2, w + 2, r.h - 7); ctx.lineWidth = 1;
      }
    }
    return last - first;
  },
  // Dependency arrows (depsOf) of the pinned and the hovered instruction: from the producer's end
  // to the cycle the instruction became ready, and from the pinned one to its consumers.
  drawArrows(ctx) {
    const m = this.m, deps = depsOf(m), pairs = [];
    for (const i of [this.pin, this.hotRow && !this.hotRow.base ? this.hot : undefined]) {
      if (i === undefined || i < 0) continue;
      if (deps[i] >= 0) pairs.push([deps[i], i]);
    }
    if (this.pin !== undefined) {
      const cons = consumersOf(m, this.pin);
      for (const c of cons.slice(0, 32)) pairs.push([this.pin, c]);
    }
    this.arrows = pairs;
    const rowOfInstr = (i) => this.rows.find((r) => r.type === 'lane' && !r.base && r.u === m.unit[i] && r.k === m.lane[i]);
    ctx.save();
    ctx.strokeStyle = '#1d2330'; ctx.fillStyle = '#1d2330'; ctx.lineWidth = 1.5;
    for (const [p, i] of pairs) {
      const rp = rowOfInstr(p), ri = rowOfInstr(i);
      if (!rp || !ri) continue;
      const x0 = this.X(m.e[p]), y0 = rp.y + rp.h / 2 - 2, x1 = this.X(m.rs[i]), y1 = ri.y + ri.h - 3;
      ctx.beginPath(); ctx.moveTo(x0, y0);
      ctx.bezierCurveTo(x0 + 24, y0, x1 - 24, y1, x1, y1); ctx.stroke();
      const a = Math.atan2(y1 - y0, 24);
      ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x1 - 7 * Math.cos(a - 0.4), y1 - 7 * Math.sin(a - 0.4));
      ctx.lineTo(x1 - 7 * Math.cos(a + 0.4), y1 - 7 * Math.sin(a + 0.4)); ctx.closePath(); ctx.fill();
    }
    ctx.restore();
  },
  stripValue(s, wa, wb) {
    const W = this.m.windows;
    if (s.key === 'fifo') return windowSum(W, 'ff', wa, wb) / Math.max(1, wb - wa) / Math.max(1, this.m.cfg.FIFO_DEPTH);
    let v = 0;
    for (const c of s.cols) v += windowSum(W, c, wa, wb);
    return v / Math.max(1, windowSum(W, 'n', wa, wb));
  },
  drawStrip(ctx, r, cpp) {
    const m = this.m, s = r.strip, pw = this.plotW();
    ctx.fillStyle = '#f6f7f9'; ctx.fillRect(this.L, r.y, pw, r.h);
    if (!m.windows.n) return;
    ctx.fillStyle = s.color;
    for (let px = 0; px < pw; ++px) {
      const a = this.v0 + px * cpp;
      if (a + cpp <= 0 || a >= m.cycles) continue;
      if (!traced(m, Math.max(0, a)) || !traced(m, Math.max(0, Math.min(m.cycles - 1, a + cpp - 1e-9)))) continue;  // no windows there
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
    const m = r.m || this.m, lane = r.lane, t = this.cycleAt(x), tol = 3 * (this.v1 - this.v0) / this.plotW();
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
    const m = this.m, i = this.instrAt(x, y), r = this.rowAt(y);
    this.pointerT = x >= this.L ? this.cycleAt(x) : undefined;
    if (i !== this.hot || r !== this.hotRow) { this.hot = i; this.hotRow = r; this.draw(); }
    if (i !== undefined) {
      const c = instrCard(r.m || m, i);
      hoverCard.show(this, cx, cy, (r.base ? 'baseline ' : '') + c.title, c.desc, c.rows);
      return;
    }
    if (r && r.type === 'strip' && x >= this.L) {
      const t = this.cycleAt(x);
      if (t < 0 || t >= m.cycles || !m.windows.n || !traced(m, t)) { hoverCard.hide(this); return; }
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
    let i = this.instrAt(x, y);
    const r = this.rowAt(y);
    // A baseline bar pins the instruction of this run it matches.
    if (i !== undefined && r && r.base) i = this.cmp && this.cmp.rev[i] >= 0 ? this.cmp.rev[i] : undefined;
    if (i !== undefined) setHash({ pin: this.m.idx[i], t: this.m.s[i] });
    else if (x >= this.L) setHash({ t: Math.max(0, Math.min(this.m.cycles - 1, Math.round(this.cycleAt(x)))) });
  },
  // Totals of the selected cycles [a, b): busy cycles per unit (its instructions' union), and
  // per class the instructions overlapping it, their cycles inside it, and exclusive cycles.
  renderSelection() {
    const el = this.selPanel, m = this.m;
    el.innerHTML = '';
    el.hidden = !this.selection;
    if (!this.selection) return;
    const t = selectionTotals(m, this.selection[0], this.selection[1]);
    const span = t.b - t.a;
    el.append(h('div', { class: 'toolbar' }, h('b', {}, 'Selection: cycles ' + fmtInt(t.a) + ' – ' + fmtInt(t.b) + ' (' + fmtInt(span) + ' cycles, ' + fmtTime(span, m.clock) + ')'),
      h('button', { onclick: () => setHash({ range: Math.round(t.a) + '-' + Math.round(t.b) }) }, 'Zoom to selection'),
      h('button', { onclick: () => setHash({ sel: null }) }, 'Clear'),
      // The instructions overlapping the selection, with the Instructions table's columns.
      h('span', { class: 'muted', style: { marginLeft: '12px' } }, fmtInt(t.over.length) + ' instructions overlap it:'),
      exportButtons('cycles-' + Math.round(t.a) + '-' + Math.round(t.b) + '-instructions', () => columnData(instrColumns(m, compareOf(m)), t.over))));
    el.append(h('div', { class: 'grid2' },
      exportable(h('table', { class: 'plain', id: 'selection-units' }, h('tr', {}, h('th', { class: 'l' }, 'unit'), h('th', {}, 'busy cycles'), h('th', {}, 'share')),
        m.units.map((name, u) => (t.unitBusy[u] || m.lanes[u].length ? h('tr', {}, h('td', { class: 'l' }, name), h('td', {}, fmtInt(t.unitBusy[u])), h('td', {}, fmtPct(t.unitBusy[u] / Math.max(1, span)))) : null))), 'selection-units'),
      exportable(h('table', { class: 'plain', id: 'selection-classes' }, h('tr', {}, h('th', { class: 'l' }, 'class'), h('th', {}, 'instructions'), h('th', {}, 'cycles in it (sum)'), h('th', {}, 'exclusive'), h('th', {}, 'share')),
        t.classes.map((c) => h('tr', {}, h('td', { class: 'l mono' }, c.name), h('td', {}, fmtInt(c.count)), h('td', {}, fmtInt(c.busy)), h('td', {}, fmtInt(c.excl)), h('td', {}, fmtPct(c.excl / Math.max(1, span))))),
        h('tr', {}, h('td', { class: 'l' }, '(nothing in flight)'), h('td', {}), h('td', {}), h('td', {}, fmtInt(t.idle)), h('td', {}, fmtPct(t.idle / Math.max(1, span))))), 'selection-classes')));
  },
  renderPin() {
    const m = this.m, i = this.pin, el = this.pinPanel;
    el.innerHTML = '';
    if (this.hashNote) el.append(h('div', { class: 'hash-note' }, this.hashNote));
    if (i === undefined && this.badPin !== null) {
      el.append(h('div', { class: 'hash-note' }, 'pin=' + this.badPin + ' names no instruction of this profile (' + fmtInt(m.n) + ' instructions' +
        (m.n ? ', idx ' + fmtInt(m.rowsByIdx ? m.idxSorted[0] : 0) + '–' + fmtInt(m.rowsByIdx ? m.idxSorted[m.n - 1] : m.n - 1) : '') + ').'));
    }
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

// Instructions matching the timeline's highlight (the instructions filter's terms): {mask, count}.
function matchMask(m, text) {
  const rows = filterInstrs(m, text), mask = new Uint8Array(m.n);
  for (const i of rows) mask[i] = 1;
  // Stepping order (Enter): by start. Computed only for a highlight, not at load.
  const order = sortIndices(rows, (i) => m.s[i]);  // stable: equal starts stay in row order
  return { mask, count: rows.length, order };
}

// Totals of cycles [a, b) (clamped to the run): per unit the union of its instructions' busy
// cycles inside it; per class the instructions overlapping it, their cycles inside it (a sum)
// and their exclusive cycles inside it (each cycle to the oldest instruction in flight, as
// buildExclusive does), and the cycles with nothing in flight. Exclusive and idle add up to b − a.
function selectionTotals(m, a, b) {
  a = Math.max(0, a); b = Math.min(m.cycles, Math.max(a, b));
  const over = [];
  const last = lowerBound(m.startsSorted, b);
  for (let j = 0; j < last; ++j) {
    const i = m.byStart[j];
    if (m.e[i] > a && m.e[i] > m.s[i]) over.push(i);
  }
  const unitBusy = new Float64Array(m.units.length), ends = new Float64Array(m.units.length).fill(-Infinity);
  const cls = new Map();
  for (const i of over) {
    const s = Math.max(a, m.s[i]), e = Math.min(b, m.e[i]), u = m.unit[i];
    if (e > ends[u]) { unitBusy[u] += e - Math.max(s, ends[u]); ends[u] = e; }
    let c = cls.get(m.nameId[i]);
    if (!c) cls.set(m.nameId[i], c = { name: m.names[m.nameId[i]], count: 0, busy: 0, excl: 0 });
    c.count++; c.busy += e - s;
  }
  // Exclusive cycles inside [a, b): a sweep over the overlapping instructions (start order).
  const active = [];
  let t = a, k = 0, idle = 0;
  while (t < b) {
    while (k < over.length && Math.max(a, m.s[over[k]]) <= t) active.push(over[k++]);
    for (let q = active.length - 1; q >= 0; --q) if (m.e[active[q]] <= t) active.splice(q, 1);
    let next = b;
    if (k < over.length) next = Math.min(next, Math.max(a, m.s[over[k]]));
    if (!active.length) { idle += next - t; t = next; continue; }
    let old = active[0];
    for (const i of active) if (m.idx[i] < m.idx[old]) old = i;
    for (const i of active) next = Math.min(next, m.e[i]);
    cls.get(m.nameId[old]).excl += next - t;
    t = next;
  }
  const classes = Array.from(cls.values()).sort((x, y) => y.excl - x.excl || y.busy - x.busy);
  return { a, b, unitBusy, classes, idle, count: over.length, over };
}
