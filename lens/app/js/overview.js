// Overview: headline numbers, unit utilisation, TMEM losses, findings, the per-class table and
// the roofline chart.

const OverviewView = {
  key: 'overview', title: 'Overview',
  mount(el) { this.el = el; },
  render(m, params) {
    const el = this.el;
    el.innerHTML = '';
    const portB = m.portTransfers.b;
    const macsPerCycle = m.cycles ? m.macs / m.cycles : 0;
    const card = (k, v, s, title) => h('div', { class: 'card', title }, h('div', { class: 'k' }, k), h('div', { class: 'v' }, v), h('div', { class: 's' }, s));
    el.append(h('h2', {}, m.name, ' ', h('span', { class: 'muted' }, '(' + m.kind + ' profile)')));
    const cmpTop = compareOf(m);
    if (cmpTop) el.append(compareSummary(m, cmpTop));  // the compare view's headline first
    const banner = lossBanner(m);
    if (banner) el.append(banner);
    if (!m.hasTrace) el.append(noTraceNote(m, 'This view shows what the card counted; the timeline, floorplan and tables need a trace.'));
    el.append(h('div', { class: 'cards' },
      card('Cycles', fmtInt(m.cycles), fmtTime(m.cycles, m.clock) + ' at ' + fmtNum(m.clock, 0) + ' MHz'),
      card('Roofline efficiency', fmtPct(m.roofline.efficiency), 'bound ' + fmtInt(m.roofline.bound) + ' cycles (busier DRAM port)',
           'bound / cycles: 100% means the busier DRAM port never idled'),
      card('Port-B busy', fmtPct(m.cycles ? portB / m.cycles : 0), fmtInt(portB) + ' chunks of ' + m.cfg.D + ' B',
           'share of cycles in which DRAM port B moved a chunk'),
      card('MACs per cycle', m.macs ? fmtNum(macsPerCycle) : '–', m.macs ? 'of ' + fmtInt(m.peakMacs) + ' peak (' + fmtPct(m.peakMacs ? macsPerCycle / m.peakMacs : 0) + ')' : 'not counted in this profile'),
      card('Instructions', m.hasTrace ? fmtInt(m.n) : '–', m.hasTrace ? m.names.length + ' classes, ' + m.sourceRows.filter((s) => s.id >= 0).length + ' source lines' : 'no trace'),
      card('DRAM traffic', fmtShort(m.bytes) + 'B', fmtNum(m.cycles ? m.bytes / m.cycles : 0) + ' B/cycle of ' + m.peakBytes + ' peak'),
    ));
    const cfg = m.cfg;
    el.append(h('p', { class: 'muted' }, 'Configuration: D ' + cfg.D + ', MCOLS ' + cfg.MCOLS + ', LANES ' + cfg.LANES +
      ', WIN ' + cfg.WIN + ', FIFO ' + cfg.FIFO_DEPTH + ', DRAM model ' + cfg.MEM +
      (m.windows.synthesized && m.hasTrace ? ' · no counter windows in this profile: rebuilt from the instructions' : '')));
    const cmp = compareOf(m);
    if (cmp) el.append(compareSection(m, cmp));
    const left = h('div'), right = h('div');
    el.append(h('div', { class: 'grid2' }, left, right));
    left.append(h('h3', {}, 'Findings'), this.notes(m));
    left.append(h('h3', {}, 'Unit utilisation'), this.units(m));
    if (m.hwtrace || m.board) left.append(h('h3', {}, 'Card'), this.card(m));
    right.append(h('h3', {}, 'Roofline'), rooflineChart(m));
    if (m.hasTrace) {
      el.append(h('h3', {}, 'Instruction classes'), h('p', { class: 'muted' }, 'Exclusive cycles give every cycle to the oldest instruction in flight, as the findings do, so they add up to the run. ' +
        'Busy and wait columns are sums over instructions, which can overlap. Click a column to sort.'), this.classes(m, params));
    }
  },
  notes(m) {
    if (!m.notes.length) return h('p', { class: 'muted' }, 'No findings in this profile.');
    const sym = { good: '✓ good', warn: '! warn', bad: '✗ bad', info: 'i info' };
    return h('ul', { class: 'notes' }, m.notes.map((n) =>
      h('li', { class: n.level }, h('span', { class: 'badge' }, sym[n.level] || n.level), String(n.text))));
  },
  units(m) {
    if (!m.busyCounted) return h('p', { class: 'muted', id: 'units-not-counted' }, 'Unit busy cycles are not counted in this profile (the card has no busy counters and no trace).');
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
    return exportable(h('table', { class: 'plain', id: 'unit-table' },
      h('tr', {}, h('th', { class: 'l' }, 'unit'), h('th', {}, 'busy cycles'), h('th', { class: 'l' }, 'utilisation'), h('th', {}, ''), h('th', {}, 'TMEM losses')),
      rows), 'units');
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
    return exportable(h('table', { class: 'plain', id: 'card-table' }, h('tr', {}, h('th', { class: 'l' }, 'counter'), h('th', {}, 'value')),
      rows.map(([k, v]) => h('tr', {}, h('td', { class: 'l' }, k), h('td', {}, v)))), 'card-counters');
  },
  classes(m, params) {
    const D = m.cfg.D;
    const cols = [
      ['class', (c) => c.name, 'l mono'], ['unit', (c) => m.units[c.unit] || '?', 'l'], ['count', (c) => c.count],
      ['exclusive cycles', (c) => c.excl], ['share', (c) => c.excl / Math.max(1, m.cycles)],
      ['busy (sum)', (c) => c.busy], ['nominal work (sum)', (c) => c.work], ['waiting for deps (sum)', (c) => c.waitDep],
      ['waiting for unit (sum)', (c) => c.waitUnit], ['port-B chunks', (c) => c.portB], ['port-A words', (c) => c.portA],
      ['DRAM bytes', (c) => c.portB * D + c.portA * 4], ['MACs', (c) => c.macs],
    ];
    if (this.sortOf !== m) { this.sortOf = m; this.classSort = { col: 3, desc: true }; }
    const st = this.classSort;
    const rows = m.classes.filter((c) => c.count > 0 || true).slice();
    const key = cols[st.col][1];
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      const r = typeof x === 'string' ? (x < y ? -1 : x > y ? 1 : 0) : x - y;
      return st.desc ? -r : r;
    });
    const fmt = (k, v) => (k === 4 ? fmtPct(v) : typeof v === 'string' ? v : fmtInt(v));
    const table = h('table', { class: 'plain', id: 'class-table' },
      h('tr', {}, cols.map(([label, , cls], k) => h('th', { class: (cls || '').includes('l') ? 'l' : '', style: { cursor: 'pointer' },
        'data-col': k, title: 'sort by ' + label, onclick: () => {
          if (st.col === k) st.desc = !st.desc; else { st.col = k; st.desc = k > 1; }
          const fresh = this.classes(m, params);
          table.parentNode.replaceWith(fresh);
        } }, label + (st.col === k ? (st.desc ? ' ▼' : ' ▲') : '')))),
      rows.map((c) => h('tr', { 'data-class': c.name, class: params && params.cls === c.name ? 'sel' : '' },
        cols.map(([, f, cls], k) => h('td', { class: cls || '' }, fmt(k, f(c)))))),
      h('tr', { class: 'idle-row' }, h('td', { class: 'l' }, '(nothing in flight)'), h('td', {}), h('td', {}),
        h('td', {}, fmtInt(m.exclIdle)), h('td', {}, fmtPct(m.exclIdle / Math.max(1, m.cycles))), cols.slice(5).map(() => h('td', {}))),
      h('tr', {}, h('th', { class: 'l' }, 'total'), h('th', {}), h('th', {}, fmtInt(m.n)),
        h('th', {}, fmtInt(m.classes.reduce((a, c) => a + c.excl, 0) + m.exclIdle)), h('th', {}, '100%'), cols.slice(5).map(() => h('th', {}))));
    return h('div', { style: { overflowX: 'auto' } }, exportable(table, 'classes'));
  },
};

// The banner of an incomplete trace (hw): what was lost and where, or null.
function lossBanner(m) {
  const L = m.loss;
  if (!L) return null;
  const parts = [];
  if (L.cut !== null) parts.push('the buffer (' + fmtInt(L.depth) + ' records, keep ' + (L.keep || 'first') + ') filled: the trace ends at cycle ' + fmtInt(L.tracedTo) + ' (traced_to) of ' + fmtInt(m.cycles) + '; later events are lost');
  if (L.wrapped) parts.push('the ring wrapped: events before cycle ' + fmtInt(L.from) + ' were overwritten');
  if (L.lost) parts.push(fmtInt(L.lost) + ' of ' + fmtInt(L.count) + ' records did not fit the buffer');
  if (L.drop) parts.push(fmtInt(L.drop) + ' trace lines were dropped in the capture queue');
  if (L.openAtEnd) parts.push(fmtInt(L.openAtEnd) + ' instruction' + (L.openAtEnd === 1 ? ' has' : 's have') + ' no end record (open_at_end), drawn open to the end');
  return h('div', { class: 'loss-banner', role: 'alert' }, h('b', {}, '! Incomplete trace. '), parts.join('; ') + '. ',
    'Counters and tables cover only what was traced; the timeline shades what is missing.');
}

// The notice a view shows for a counters-only profile (kind board: no trace buffer).
function noTraceNote(m, what) {
  return h('div', { class: 'notrace' }, h('b', {}, 'No trace in this profile. '),
    'This ' + m.kind + ' profile holds the card\'s counters only (' + (m.kind === 'board' ? 'the bitstream has no trace buffer' : 'it has no instructions') +
    '): ' + fmtInt(m.cycles) + ' cycles, ' + fmtInt(m.portTransfers.b) + ' port-B chunks, ' + fmtInt(m.portTransfers.a) + ' port-A words. ' + what);
}

// Log-log roofline: operational intensity (MACs per DRAM byte of a port) against MACs per cycle.
// Each DRAM port is its own roof with its own intensity (port B: D bytes a cycle, port A: one
// 32-bit word a cycle; SPEC 6), so the run is two points at the same height, one under each
// roof; the compute ceiling is D·MCOLS. The chart's figure, the run against the lower of its two
// roofs, is bound / cycles: the profile's roofline efficiency. Classes and source lines with
// MACs are placed by their port-B intensity and MACs per busy cycle, over their instructions
// with a recorded start and end (a cut trace's others have no busy cycles to divide by). Points
// are links.
function rooflineChart(m) {
  const W = 560, H = 360, L = 62, R = 16, T = 14, B = 48;
  const peak = m.peakMacs, bwB = m.peakBytes, bwA = 4;
  const tb = m.portTransfers.b, ta = m.portTransfers.a;
  const pts = [];
  const y = m.macs / Math.max(1, m.cycles);
  if (m.macs > 0 && tb > 0) pts.push({ key: 'run:B', label: 'run (port B)', oi: m.macs / (tb * bwB), y, color: '#000', r: 6, roof: 'B', go: () => setHash({ view: 'cycles' }, true) });
  if (m.macs > 0 && ta > 0) pts.push({ key: 'run:A', label: 'run (port A)', oi: m.macs / (ta * bwA), y, color: '#555', r: 6, roof: 'A', go: () => setHash({ view: 'cycles' }, true) });
  const noMacs = [];
  for (const c of m.classes) {
    const d = c.done;  // instructions with a recorded start and end (a cut trace has others)
    if (d.macs > 0 && d.portB > 0 && d.busy > 0) {
      pts.push({ key: 'class:' + c.name, label: c.name, oi: d.macs / (d.portB * bwB), y: d.macs / d.busy, color: kUnitColors[c.unit % kUnitColors.length], r: 4.5, roof: 'B',
        go: () => { const row = byId('class-table') && byId('class-table').querySelector('tr[data-class="' + CSS.escape(c.name) + '"]'); if (row) { byId('class-table').querySelectorAll('tr.sel').forEach((r) => r.classList.remove('sel')); row.classList.add('sel'); row.scrollIntoView({ block: 'center' }); } } });
    } else if (c.count) noMacs.push(c.name);
  }
  for (const sr of m.sourceRows) {
    const src = m.sources[sr.id];
    const d = sr.done;
    if (!src || !(d.macs > 0 && d.portB > 0 && d.busy > 0)) continue;
    pts.push({ key: 'src:' + sr.id, label: src.file.split('/').pop() + ':' + src.line, oi: d.macs / (d.portB * bwB), y: d.macs / d.busy, color: '#9aa3b1', r: 3.5, roof: 'B', small: true,
      go: () => setHash({ view: 'source', src: sr.id }, true) });
  }
  const ridgeB = peak / bwB, ridgeA = peak / bwA;
  const ois = pts.map((p) => p.oi).concat([ridgeB, ridgeA]);
  const x0 = Math.pow(10, Math.floor(Math.log10(Math.min(...ois) / 4)));
  const x1 = Math.pow(10, Math.ceil(Math.log10(Math.max(...ois) * 4)));
  const ys = pts.map((p) => p.y).concat([peak, bwA * x0]);
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
    const v = 10 ** e, yy = Y(v);
    parts.push(`<line x1="${L}" y1="${yy}" x2="${W - R}" y2="${yy}" stroke="#e6e8ec"/><text x="${L - 6}" y="${yy + 4}" text-anchor="end" font-size="11" fill="#5d6575">${fmtShort(v)}</text>`);
  }
  // The two DRAM roofs, bw · oi up to the compute ceiling, and the compute ceiling.
  const roof = (bw, name, color, dash) => {
    const ridge = Math.min(Math.max(peak / bw, x0), x1);
    const xa = Math.max(x0, y0 / bw);
    parts.push(`<polyline data-roof="${name}" fill="none" stroke="${color}" stroke-width="2.5"${dash ? ' stroke-dasharray="6 4"' : ''} points="${X(xa)},${Y(bw * xa)} ${X(ridge)},${Y(Math.min(peak, bw * ridge))}"/>`);
    const mid = Math.sqrt(xa * ridge), ang = Math.atan2(Y(bw * xa) - Y(bw * ridge), X(ridge) - X(xa)) * 180 / Math.PI;
    const text = `port ${name}: ${bw} B/cycle`;
    parts.push(`<text x="${X(mid)}" y="${Y(bw * mid) - 8}" text-anchor="middle" font-size="11.5" fill="${color}" transform="rotate(-${ang} ${X(mid)} ${Y(bw * mid) - 8})">${text}</text>`);
    // The rotated label as small boxes along its baseline, for placing point labels clear of it.
    const w = measure.measureText(text).width, a = ang * Math.PI / 180, cx = X(mid), cy = Y(bw * mid) - 8;
    for (let k = -4; k <= 4; ++k) {
      const px = cx + Math.cos(a) * w * k / 8, py = cy - Math.sin(a) * w * k / 8;
      taken.push({ x0: px - w / 16 - 2, x1: px + w / 16 + 2, y0: py - 12, y1: py + 3 });
    }
  };
  // Label placement: boxes already used (roof labels, points, placed labels), in SVG units.
  const measure = textMeasure('12px system-ui, sans-serif'), taken = [];
  const overlaps = (b) => taken.reduce((n, t) => n + Math.max(0, Math.min(b.x1, t.x1) - Math.max(b.x0, t.x0)) * Math.max(0, Math.min(b.y1, t.y1) - Math.max(b.y0, t.y0)), 0);
  roof(bwB, 'B', '#D55E00', false);
  roof(bwA, 'A', '#882255', true);
  const xr = Math.min(Math.max(ridgeB, x0), x1);
  parts.push(`<polyline data-roof="compute" fill="none" stroke="#0072B2" stroke-width="2.5" points="${X(Math.min(xr, Math.max(ridgeA, x0)))},${Y(peak)} ${X(x1)},${Y(peak)}"/>`);
  const ctext = `compute: ${fmtInt(peak)} MACs/cycle (D·MCOLS)`;
  parts.push(`<text x="${X(x1) - 4}" y="${Y(peak) - 6}" text-anchor="end" font-size="11.5" fill="#0072B2">${ctext}</text>`);
  taken.push({ x0: X(x1) - 4 - measure.measureText(ctext).width, x1: X(x1) - 4, y0: Y(peak) - 18, y1: Y(peak) - 3 });
  for (const p of pts) taken.push({ x0: X(p.oi) - p.r - 1, x1: X(p.oi) + p.r + 1, y0: Y(p.y) - p.r - 1, y1: Y(p.y) + p.r + 1 });
  for (const p of pts) {
    const x = X(p.oi), yy = Y(p.y);
    parts.push(`<circle data-point="${esc(p.key)}" data-roof-of="${p.roof}" cx="${x}" cy="${yy}" r="${p.r}" fill="${p.color}" stroke="#fff" stroke-width="1.5" style="cursor:pointer"><title>${esc(p.label)}: ${fmtNum(p.oi)} MACs per port-${p.roof} byte, ${fmtNum(p.y)} MACs/cycle (click for its row)</title></circle>`);
  }
  // Each label at the first of several spots around its point that is inside the plot and
  // clear of every point, roof label and label placed before it (else the least covered one):
  // labels placed at fixed offsets sat on the points and on the port-B roof's label.
  for (const p of pts) {
    if (p.small) continue;
    const x = X(p.oi), yy = Y(p.y), run = p.key.startsWith('run'), w = measure.measureText(p.label).width * (run ? 1.08 : 1), d = p.r + 3;
    const spots = [[d, -d], [d, d + 10], [-d - w, -d], [-d - w, d + 10], [-w / 2, -d - 3], [-w / 2, d + 13], [d + 14, -d - 8], [-d - w - 14, d + 18], [d + 14, d + 22], [-d - w - 14, -d - 12]];
    let best = null, bestCover = Infinity;
    for (const [dx, dy] of spots) {
      const b = { x0: x + dx, x1: x + dx + w, y0: yy + dy - 11, y1: yy + dy + 2 };
      if (b.x0 < L + 2 || b.x1 > W - R - 2 || b.y0 < T + 2 || b.y1 > H - B - 2) continue;
      const cover = overlaps(b);
      if (cover < bestCover) { best = b; bestCover = cover; }
      if (cover === 0) break;
    }
    if (!best) best = { x0: x + d, x1: x + d + w, y0: yy - d - 11, y1: yy - d + 2 };
    taken.push(best);
    parts.push(`<text data-label-of="${esc(p.key)}" x="${best.x0}" y="${best.y1 - 2}" font-size="12" font-weight="${run ? 700 : 400}" fill="#1d2330">${esc(p.label)}</text>`);
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle" font-size="12" fill="#1d2330">operational intensity (MACs per byte of the port, log)</text>`);
  parts.push(`<text transform="translate(15 ${(T + H - B) / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="#1d2330">attainable MACs per cycle (log)</text>`);
  parts.push(`<rect x="${L}" y="${T}" width="${W - L - R}" height="${H - T - B}" fill="none" stroke="#b9bfca"/>`);
  const wrap = h('div', { id: 'roofline' });
  wrap.innerHTML = `<svg viewBox="0 0 ${W} ${H}" width="100%" style="max-width:${W + 80}px" role="img" aria-label="roofline chart">${parts.join('')}</svg>`;
  const byKey = new Map(pts.map((p) => [p.key, p]));
  wrap.querySelectorAll('circle[data-point]').forEach((c) => c.addEventListener('click', () => byKey.get(c.dataset.point).go()));
  // The run against the lower of its two DRAM roofs: macs/cycles ÷ macs/max(tb, ta) = bound / cycles.
  const attainable = Math.min(tb > 0 ? m.macs / tb : Infinity, ta > 0 ? m.macs / ta : Infinity);
  const figure = m.macs > 0 && Number.isFinite(attainable) ? y / attainable : m.roofline.efficiency;
  wrap.dataset.figure = String(figure);
  const busier = tb >= ta ? 'B' : 'A';
  wrap.append(h('p', { class: 'muted', id: 'roofline-text' },
    m.macs > 0 ? 'The run reaches ' + fmtPct(figure) + ' of its DRAM roof (port ' + busier + ', the busier port: ' + fmtInt(Math.max(tb, ta)) + ' transfers in ' + fmtInt(m.cycles) + ' cycles), ' +
      'the roofline efficiency; ' + fmtPct(peak ? y / peak : 0) + ' of the compute ceiling. Intensity: ' + fmtNum(tb ? m.macs / (tb * bwB) : 0) + ' MACs per port-B byte, ' + fmtNum(ta ? m.macs / (ta * bwA) : 0) + ' per port-A byte.'
      : 'No MACs counted in this profile: nothing to place on the roofline. By the port counters the run is at ' + fmtPct(figure) + ' of its DRAM roof (' + fmtInt(tb) + ' port-B chunks, ' + fmtInt(ta) + ' port-A words in ' + fmtInt(m.cycles) + ' cycles).',
    noMacs.length ? ' Not plotted (no MACs): ' + noMacs.join(', ') + '.' : ''));
  return wrap;
}
