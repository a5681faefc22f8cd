// Where the cycles went: every cycle of DRAM port B streaming or idle, the idle cycles given in
// order to their causes; as one bar, a table, and over time.

const CyclesView = {
  key: 'cycles', title: 'Where the cycles went',
  mount(el) {
    this.el = el;
    window.addEventListener('resize', () => { if (!el.hidden && this.m && this.canvas) this.drawChart(); });
  },
  render(m) {
    this.m = m;
    const el = this.el, tot = attrOf(m).totals, all = Math.max(1, attrOf(m).all);
    el.innerHTML = '';
    const idle = attrOf(m).all - tot.stream;
    el.append(h('h2', {}, 'Where the cycles went'));
    const banner = lossBanner(m);
    if (banner) el.append(banner);
    if (!m.hasTrace) {
      // Counters only: port B's busy cycles are known, the causes of its idle ones are not.
      const busy = Math.min(m.cycles, m.portTransfers.b);
      el.append(noTraceNote(m, 'Its idle port-B cycles cannot be given to causes without counter windows or instructions.'));
      el.append(exportable(h('table', { class: 'plain', id: 'cycles-table', style: { maxWidth: '980px' } },
        h('tr', {}, h('th', { class: 'l' }, 'port B'), h('th', {}, 'cycles'), h('th', {}, 'share'), h('th', { class: 'l' }, 'from')),
        h('tr', {}, h('td', { class: 'l' }, 'streaming'), h('td', {}, fmtInt(busy)), h('td', {}, fmtPct(busy / Math.max(1, m.cycles))), h('td', { class: 'l muted' }, 'the card\'s port-B transfer counters (B_RD + B_WR)')),
        h('tr', {}, h('td', { class: 'l' }, 'idle, cause not recorded'), h('td', {}, fmtInt(m.cycles - busy)), h('td', {}, fmtPct((m.cycles - busy) / Math.max(1, m.cycles))), h('td', { class: 'l muted' }, 'no trace')),
        h('tr', {}, h('th', { class: 'l' }, 'total'), h('th', {}, fmtInt(m.cycles)), h('th', {}, '100%'), h('th', {}))), 'cycles'));
      this.canvas = null;
      return;
    }
    // A cut trace: the windows cover only the attribution's total of the run's cycles, and only those are split.
    const partial = m.loss && attrOf(m).all < m.cycles;
    el.append(h('p', { id: 'cycles-text' }, (partial
      ? 'The trace covers ' + fmtInt(attrOf(m).all) + ' of the run\'s ' + fmtInt(m.cycles) + ' cycles (cycles ' + fmtInt(m.traced[0]) + '–' + fmtInt(m.traced[1] - 1) +
        '); for the other ' + fmtInt(m.cycles - attrOf(m).all) + ' only the run\'s totals are known, so they are not split here. In every traced cycle'
      : 'Every one of the ' + fmtInt(m.cycles) + ' cycles of DRAM port B either moved a chunk or was idle.') +
      (partial ? ' DRAM port B either moved a chunk or was idle. Port B streamed in ' : ' Port B streamed in ') + fmtPct(tot.stream / all) + ' of them; the ' + fmtInt(idle) + ' idle cycles are given, window by window ' +
      '(' + fmtInt(m.windows.n) + ' counter windows), to the first cause in this order that had cycles in that window.'));
    // With a baseline (compare view): its split as a second bar and Δ cycles per cause.
    const cmp = compareOf(m), bt = cmp && cmp.b.hasTrace ? attrOf(cmp.b).totals : null;
    el.append(causeBar(attrOf(m).totals, all, 'cycles-bar'));
    if (bt) {
      const warn = mismatchNote(m, cmp.b);
      if (warn) el.append(warn);
      el.append(h('p', { class: 'muted', style: { margin: '6px 0 2px' } }, 'Baseline (' + compare.name + ', ' + fmtInt(cmp.b.cycles) + ' cycles; bar to scale with this run):'));
      // Its own shares (of its own cycles): the bar's width alone carries the scale.
      const bar = causeBar(bt, Math.max(1, attrOf(cmp.b).all), 'cycles-bar-base');
      bar.style.width = Math.min(100, 100 * Math.max(1, attrOf(cmp.b).all) / Math.max(all, attrOf(cmp.b).all)) + '%';
      el.append(bar);
    }
    el.append(h('div', { class: 'legend' }, kCauses.map((k) => h('span', {}, h('span', { class: 'swatch', style: { background: k.color } }), k.label))));
    el.append(exportable(h('table', { class: 'plain', id: 'cycles-table', style: { maxWidth: '1180px' } },
      h('tr', {}, h('th', { class: 'l' }, 'port B'), h('th', {}, 'cycles'), h('th', {}, 'share'),
        bt ? [h('th', {}, 'baseline'), h('th', {}, 'Δ cycles')] : null, h('th', { class: 'l' }, 'meaning')),
      kCauses.map((k) => h('tr', { 'data-cause': k.key },
        h('td', { class: 'l' }, h('span', { class: 'swatch', style: { background: k.color } }), k.label),
        h('td', {}, fmtInt(tot[k.key])), h('td', {}, fmtPct(tot[k.key] / all)),
        bt ? [h('td', {}, fmtInt(bt[k.key])), deltaCell(tot[k.key] - bt[k.key], k.key !== 'stream')] : null,
        h('td', { class: 'l muted' }, k.desc))),
      h('tr', {}, h('th', { class: 'l' }, 'total'), h('th', {}, fmtInt(attrOf(m).all)), h('th', {}, '100%'),
        bt ? [h('th', {}, fmtInt(attrOf(cmp.b).all)), deltaCell(attrOf(m).all - attrOf(cmp.b).all)] : null, h('th', {})),
      partial ? h('tr', { class: 'untraced' }, h('td', { class: 'l' }, 'not traced'), h('td', {}, fmtInt(m.cycles - attrOf(m).all)), h('td', {}, '–'),
        bt ? [h('td', {}), h('td', {})] : null, h('td', { class: 'l muted' }, 'cycles the trace does not cover: not split into causes')) : null), 'cycles'));
    el.append(h('h3', {}, 'Over time'),
      h('p', { class: 'muted' }, 'Share of each window\'s cycles by cause. Click to open the timeline at that cycle.'));
    this.canvas = h('canvas', { id: 'cycles-canvas' });
    this.canvas.addEventListener('click', (e) => {
      const t = this.cycleAtX(e.offsetX);
      if (t !== null) setHash({ view: 'timeline', t: Math.round(t) }, true);
    });
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => hoverCard.hide(this));
    el.append(h('div', { class: 'canvas-wrap' }, this.canvas));
    this.drawChart();
  },
  geom() { return { L: 52, R: 12, T: 8, B: 30, H: 220, W: Math.max(400, this.el.clientWidth - 2) }; },
  cycleAtX(x) {
    const g = this.geom();
    if (x < g.L || x > g.W - g.R) return null;
    return (x - g.L) / (g.W - g.L - g.R) * this.m.cycles;
  },
  drawChart() {
    if (!this.canvas) return;
    const m = this.m, g = this.geom();
    const ctx = setupCanvas(this.canvas, g.W, g.H);
    const pw = g.W - g.L - g.R, ph = g.H - g.T - g.B;
    ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, g.W, g.H);
    const W = m.windows;
    const cpp = m.cycles / pw;
    this.untracedPx = 0;
    for (let px = 0; px < pw; ++px) {
      const a = px * cpp, b = (px + 1) * cpp;
      if (!traced(m, a) || !traced(m, Math.max(a, b - 1))) {
        // Not traced: shaded, never the nearest window's causes.
        ctx.fillStyle = '#e3e5e9'; ctx.fillRect(g.L + px, g.T, 1, ph);
        this.untracedPx++;
        continue;
      }
      const wa = windowAt(m, a), wb = windowAt(m, Math.max(a, b - 1)) + 1;
      if (wa < 0) break;
      const total = windowSum(W, 'n', wa, wb);
      if (total <= 0) continue;
      let y = g.T + ph;
      for (const k of kCauses) {
        const v = attrSum(m, k.key, wa, wb) / total * ph;
        if (v <= 0) continue;
        ctx.fillStyle = k.color;
        ctx.fillRect(g.L + px, y - v, 1, v);
        y -= v;
      }
    }
    if (this.untracedPx) {
      ctx.save(); ctx.fillStyle = '#5d3a1a'; ctx.font = '600 11px system-ui, sans-serif'; ctx.textAlign = 'left';
      const x0 = g.L + (m.traced[0] > 0 ? 4 : m.traced[1] / cpp + 4);
      ctx.fillText('not traced', x0, g.T + 14); ctx.restore();
    }
    drawCycleAxis(ctx, g.L, g.T + ph, pw, 0, m.cycles, m.clock);
    ctx.fillStyle = '#5d6575'; ctx.font = '11px system-ui, sans-serif'; ctx.textAlign = 'right';
    for (const f of [0, 0.5, 1]) ctx.fillText(fmtPct(f, 0), g.L - 6, g.T + ph * (1 - f) + 4);
    ctx.strokeStyle = '#b9bfca'; ctx.strokeRect(g.L + 0.5, g.T + 0.5, pw, ph);
  },
  hover(e) {
    const m = this.m, t = this.cycleAtX(e.offsetX);
    if (t === null) { hoverCard.hide(this); return; }
    if (!traced(m, t)) {
      hoverCard.show(this, e.clientX, e.clientY, 'Cycle ' + fmtInt(t) + ': not traced', 'the trace covers cycles ' + fmtInt(m.traced[0]) + '–' + fmtInt(m.traced[1] - 1) + '; here only the run\'s totals are known', []);
      return;
    }
    const w = windowAt(m, t);
    const n = m.windows.col.n[w];
    hoverCard.show(this, e.clientX, e.clientY, 'Window ' + w + ': cycles ' + fmtInt(m.windows.ws[w]) + '–' + fmtInt(m.windows.we[w] - 1),
      'port B in this window', kCauses.filter((k) => attrOf(m).per[k.key][w] > 0).map((k) => [k.label, fmtInt(attrOf(m).per[k.key][w]) + ' (' + fmtPct(attrOf(m).per[k.key][w] / n) + ')']));
  },
};

// A horizontal bar of the causes, labelled where there is room.
function causeBar(values, total, id) {
  return h('div', { class: 'stack', id }, kCauses.filter((k) => values[k.key] > 0).map((k) => {
    const f = values[k.key] / total;
    const dark = !['#F0E442', '#BBBBBB', '#E69F00', '#56B4E9'].includes(k.color);
    return h('div', { style: { width: 100 * f + '%', background: k.color, color: dark ? '#fff' : '#1d2330' }, title: k.label + ': ' + fmtPct(f) },
      f > 0.07 ? k.label + ' ' + fmtPct(f, 0) : (f > 0.03 ? fmtPct(f, 0) : ''));
  }));
}

// Cycle axis with ticks under a plot area [x0, x0 + width) showing cycles [a, b).
function drawCycleAxis(ctx, x0, y, width, a, b, mhz) {
  ctx.strokeStyle = '#8a92a0'; ctx.beginPath(); ctx.moveTo(x0, y + 0.5); ctx.lineTo(x0 + width, y + 0.5); ctx.stroke();
  ctx.fillStyle = '#5d6575'; ctx.font = '11px system-ui, sans-serif'; ctx.textAlign = 'center';
  const ticks = niceTicks(a, b, Math.max(2, Math.floor(width / 110)));
  for (const v of ticks) {
    const x = x0 + (v - a) / Math.max(1e-9, b - a) * width;
    ctx.beginPath(); ctx.moveTo(x + 0.5, y); ctx.lineTo(x + 0.5, y + 4); ctx.stroke();
    ctx.fillText(fmtTick(v, ticks), x, y + 15);
  }
  ctx.textAlign = 'right';
  ctx.fillText('cycles (' + fmtTime(b - a, mhz) + ' shown)', x0 + width, y + 27);
}
