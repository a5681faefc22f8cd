// Overview: headline numbers, unit utilisation, TMEM losses, findings, the per-class table and
// the roofline chart.

const OverviewView = {
  key: 'overview', title: 'Overview',
  mount(el) { this.el = el; },
  render(m) {
    const el = this.el;
    el.innerHTML = '';
    const portB = m.ports.bmxu + m.ports.bdma;
    const macsPerCycle = m.cycles ? m.macs / m.cycles : 0;
    const card = (k, v, s, title) => h('div', { class: 'card', title }, h('div', { class: 'k' }, k), h('div', { class: 'v' }, v), h('div', { class: 's' }, s));
    el.append(h('h2', {}, m.name, ' ', h('span', { class: 'muted' }, '(' + m.kind + ' profile)')));
    el.append(h('div', { class: 'cards' },
      card('Cycles', fmtInt(m.cycles), fmtTime(m.cycles, m.clock) + ' at ' + fmtNum(m.clock, 0) + ' MHz'),
      card('Roofline efficiency', fmtPct(m.roofline.efficiency), 'bound ' + fmtInt(m.roofline.bound) + ' cycles (busier DRAM port)',
           'bound / cycles: 100% means the busier DRAM port never idled'),
      card('Port-B busy', fmtPct(m.cycles ? portB / m.cycles : 0), fmtInt(portB) + ' chunks of ' + m.cfg.D + ' B',
           'share of cycles in which DRAM port B moved a chunk'),
      card('MACs per cycle', fmtNum(macsPerCycle), 'of ' + fmtInt(m.peakMacs) + ' peak (' + fmtPct(m.peakMacs ? macsPerCycle / m.peakMacs : 0) + ')'),
      card('Instructions', fmtInt(m.n), m.names.length + ' classes, ' + m.sourceRows.filter((s) => s.id >= 0).length + ' source lines'),
      card('DRAM traffic', fmtShort(m.bytes) + 'B', fmtNum(m.cycles ? m.bytes / m.cycles : 0) + ' B/cycle of ' + m.peakBytes + ' peak'),
    ));
    const cfg = m.cfg;
    el.append(h('p', { class: 'muted' }, 'Configuration: D ' + cfg.D + ', MCOLS ' + cfg.MCOLS + ', LANES ' + cfg.LANES +
      ', WIN ' + cfg.WIN + ', FIFO ' + cfg.FIFO_DEPTH + ', DRAM model ' + cfg.MEM +
      (m.windows.synthesized ? ' · no counter windows in this profile: rebuilt from the instructions' : '')));
    const left = h('div'), right = h('div');
    el.append(h('div', { class: 'grid2' }, left, right));
    left.append(h('h3', {}, 'Findings'), this.notes(m));
    left.append(h('h3', {}, 'Unit utilisation'), this.units(m));
    if (m.hwtrace || m.board) left.append(h('h3', {}, 'Card'), this.card(m));
    right.append(h('h3', {}, 'Roofline'), rooflineChart(m));
    el.append(h('h3', {}, 'Instruction classes'), this.classes(m));
  },
  notes(m) {
    if (!m.notes.length) return h('p', { class: 'muted' }, 'No findings in this profile.');
    const sym = { good: '✓ good', warn: '! warn', bad: '✗ bad', info: 'i info' };
    return h('ul', { class: 'notes' }, m.notes.map((n) =>
      h('li', { class: n.level }, h('span', { class: 'badge' }, sym[n.level] || n.level), String(n.text))));
  },
  units(m) {
    const rows = m.units.map((name, u) => {
      const busy = m.busy[u] || 0, frac = m.cycles ? busy / m.cycles : 0;
      if (!busy && !m.lanes[u].length && name === 'COLL') return null;
      return h('tr', {},
        h('td', { class: 'l' }, h('span', { class: 'swatch', style: { background: kUnitColors[u % kUnitColors.length] } }), name),
        h('td', {}, fmtInt(busy)),
        h('td', { class: 'l' }, h('div', { class: 'bar', title: fmtPct(frac) }, h('span', { style: { width: Math.min(100, 100 * frac) + '%', background: kUnitColors[u % kUnitColors.length] } }))),
        h('td', {}, fmtPct(frac)),
        h('td', { title: 'cycles frozen by the TMEM arbiter' }, fmtInt(m.lose[u])));
    });
    return h('table', { class: 'plain' },
      h('tr', {}, h('th', { class: 'l' }, 'unit'), h('th', {}, 'busy cycles'), h('th', { class: 'l' }, 'utilisation'), h('th', {}, ''), h('th', {}, 'TMEM losses')),
      rows);
  },
  card(m) {
    const rows = [];
    if (m.hwtrace) {
      const t = m.hwtrace;
      rows.push(['trace records', fmtInt(t.records) + ' of ' + fmtInt(t.count) + ' (buffer ' + fmtInt(t.depth) + ', keep ' + t.keep + ')']);
      rows.push(['lost', fmtInt(t.lost) + ' records, ' + fmtInt(t.drop) + ' dropped lines' + (t.complete ? ' · complete' : ' · INCOMPLETE')]);
    }
    if (m.board) {
      const entries = Array.isArray(m.board) ? m.board.map((c) => [c.name, c.value]) : Object.entries(m.board);
      for (const [k, v] of entries) rows.push([k, fmtInt(v)]);
    }
    return h('table', { class: 'plain' }, rows.map(([k, v]) => h('tr', {}, h('td', { class: 'l' }, k), h('td', {}, v))));
  },
  classes(m) {
    const cols = ['class', 'unit', 'count', 'busy', 'nominal work', 'waiting for deps', 'waiting for unit', 'port-B chunks', 'port-A words', 'DRAM bytes', 'MACs'];
    const sorted = m.classes.slice().sort((a, b) => b.busy - a.busy);
    return h('div', { style: { overflowX: 'auto' } }, h('table', { class: 'plain', id: 'class-table' },
      h('tr', {}, cols.map((c, k) => h('th', { class: k < 2 ? 'l' : '' }, c))),
      sorted.map((c) => h('tr', {},
        h('td', { class: 'l mono' }, c.name),
        h('td', { class: 'l' }, m.units[c.unit] || '?'),
        h('td', {}, fmtInt(c.count)), h('td', {}, fmtInt(c.busy)), h('td', {}, fmtInt(c.work)),
        h('td', {}, fmtInt(c.waitDep)), h('td', {}, fmtInt(c.waitUnit)),
        h('td', {}, fmtInt(c.portB)), h('td', {}, fmtInt(c.portA)),
        h('td', {}, fmtInt(c.portB * m.cfg.D + c.portA * 4)), h('td', {}, fmtInt(c.macs))))));
  },
};

// Log-log roofline: operational intensity (MACs per DRAM byte) against MACs per cycle, with the
// port-B and compute ceilings; the run and each class that does MACs as points.
function rooflineChart(m) {
  const W = 560, H = 360, L = 62, R = 16, T = 14, B = 48;
  const peak = m.peakMacs, bw = m.peakBytes;
  const ridge = peak / bw;
  const pts = [];
  const runOi = m.bytes ? m.macs / m.bytes : 0;
  if (m.macs > 0 && m.bytes > 0) pts.push({ label: 'run', oi: runOi, y: m.macs / Math.max(1, m.cycles), color: '#000', r: 6 });
  const noMacs = [];
  for (const c of m.classes) {
    const bytes = c.portB * m.cfg.D + c.portA * 4;
    if (c.macs > 0 && bytes > 0 && c.busy > 0) {
      pts.push({ label: c.name, oi: c.macs / bytes, y: c.macs / c.busy, color: kUnitColors[c.unit % kUnitColors.length], r: 4.5 });
    } else noMacs.push(c.name);
  }
  const ois = pts.map((p) => p.oi).concat([ridge]);
  const x0 = Math.pow(10, Math.floor(Math.log10(Math.min(...ois) / 4)));
  const x1 = Math.pow(10, Math.ceil(Math.log10(Math.max(...ois) * 4)));
  const ys = pts.map((p) => p.y).concat([peak, bw * x0]);
  const y0 = Math.pow(10, Math.floor(Math.log10(Math.max(1e-3, Math.min(...ys) / 2))));
  const y1 = Math.pow(10, Math.ceil(Math.log10(peak * 2)));
  const X = (v) => L + (W - L - R) * (Math.log10(v) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0));
  const Y = (v) => H - B - (H - T - B) * (Math.log10(v) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0));
  const parts = [];
  for (let e = Math.log10(x0); e <= Math.log10(x1) + 1e-9; ++e) {
    const v = 10 ** e, x = X(v);
    parts.push(`<line x1="${x}" y1="${T}" x2="${x}" y2="${H - B}" stroke="#e6e8ec"/><text x="${x}" y="${H - B + 16}" text-anchor="middle" font-size="11" fill="#5d6575">${fmtShort(v)}</text>`);
  }
  for (let e = Math.log10(y0); e <= Math.log10(y1) + 1e-9; ++e) {
    const v = 10 ** e, y = Y(v);
    parts.push(`<line x1="${L}" y1="${y}" x2="${W - R}" y2="${y}" stroke="#e6e8ec"/><text x="${L - 6}" y="${y + 4}" text-anchor="end" font-size="11" fill="#5d6575">${fmtShort(v)}</text>`);
  }
  // Ceilings: min(peak, bw * oi).
  const xr = Math.min(Math.max(ridge, x0), x1);
  parts.push(`<polyline fill="none" stroke="#D55E00" stroke-width="2.5" points="${X(x0)},${Y(Math.max(y0, bw * x0))} ${X(xr)},${Y(bw * xr)}"/>`);
  parts.push(`<polyline fill="none" stroke="#0072B2" stroke-width="2.5" points="${X(xr)},${Y(peak)} ${X(x1)},${Y(peak)}"/>`);
  parts.push(`<text x="${X(x1) - 4}" y="${Y(peak) - 6}" text-anchor="end" font-size="11.5" fill="#0072B2">compute: ${fmtInt(peak)} MACs/cycle (D·MCOLS)</text>`);
  const mid = Math.sqrt(x0 * xr);
  parts.push(`<text x="${X(mid)}" y="${Y(bw * mid) - 8}" text-anchor="middle" font-size="11.5" fill="#D55E00" transform="rotate(-${Math.atan2(Y(bw * x0) - Y(bw * xr), X(xr) - X(x0)) * 180 / Math.PI} ${X(mid)} ${Y(bw * mid) - 8})">port B: ${bw} B/cycle</text>`);
  for (const p of pts) {
    const x = X(p.oi), y = Y(p.y);
    parts.push(`<circle data-point="${esc(p.label)}" cx="${x}" cy="${y}" r="${p.r}" fill="${p.color}" stroke="#fff" stroke-width="1.5"><title>${esc(p.label)}: ${fmtNum(p.oi)} MACs/B, ${fmtNum(p.y)} MACs/cycle</title></circle>`);
    // The run's label goes below-left, classes' above-right, so the two rarely collide.
    const run = p.label === 'run';
    parts.push(`<text x="${run ? x - 9 : x + 8}" y="${run ? y + 16 : y - 7}" text-anchor="${run ? 'end' : 'start'}" font-size="12" font-weight="${run ? 700 : 400}" fill="#1d2330">${esc(p.label)}</text>`);
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle" font-size="12" fill="#1d2330">operational intensity (MACs per DRAM byte, log)</text>`);
  parts.push(`<text transform="translate(15 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="#1d2330">attainable MACs per cycle (log)</text>`);
  parts.push(`<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#b9bfca"/>`);
  const wrap = h('div', { id: 'roofline' });
  wrap.innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="100%" style="max-width:${W + 80}px" role="img" aria-label="roofline chart">${parts.join('')}</svg>`;
  const eff = m.peakMacs && pts.length ? pts[0].y / Math.min(peak, bw * runOi) : 0;
  wrap.append(h('p', { class: 'muted' },
    pts.length ? 'The run reaches ' + fmtPct(eff) + ' of the ceiling at its intensity (' + fmtNum(runOi) + ' MACs per byte; ridge at ' + fmtNum(ridge) + '). Classes are placed by their own MACs per busy cycle.' : 'No MACs in this profile: nothing to place on the roofline.',
    noMacs.length ? ' Not plotted (no MACs): ' + noMacs.join(', ') + '.' : ''));
  return wrap;
}
