// `#selftest`: visits every view of every profile, every floorplan element and hover card at
// several moments, the timeline's hover and zoom, table sorting and filtering, and writes
// {ok, checks, failures, errors, ...} as JSON into <pre id="selftest-result">.

const kBadText = /\bNaN\b|undefined|Infinity|\[object /;

async function runSelftest() {
  const t0 = performance.now();
  const res = { ok: false, checks: 0, failures: [], errors: [], profiles: [], view_ms: {} };
  const check = (cond, where, msg) => {
    res.checks++;
    if (!cond && res.failures.length < 200) res.failures.push(where + ': ' + msg);
    return !!cond;
  };
  if (!app.doc) {
    check(false, 'load', app.error || 'no profile loaded');
  } else {
    for (let pi = 0; pi < app.doc.profiles.length; ++pi) {
      try {
        await selftestProfile(pi, check, res);
      } catch (e) {
        check(false, 'profile ' + pi, 'exception: ' + (e && e.stack || e));
      }
    }
  }
  selftestHeader(check);
  res.errors = window.__lensErrors.slice();
  res.ok = res.failures.length === 0 && res.errors.length === 0;
  res.elapsed_ms = Math.round(performance.now() - t0);
  res.timing = app.timing;
  res.deps = res_deps;
  // The URL's hash is written a few times a second at most, however fast the views change it.
  res.hash_writes = hashState.writes;
  check(hashState.writes <= 2 + performance.now() / kHashWriteMs, 'hash', hashState.writes + ' writes of the URL in ' + Math.round(performance.now()) + ' ms');
  const out = byId('selftest-result');
  out.hidden = false;
  out.textContent = JSON.stringify(res, null, 1);
  document.body.dataset.selftest = res.ok ? 'ok' : 'failed';
}

// Applies hash parameters; the views render synchronously (canvases draw on the next frame,
// which the per-view pass in selftestProfile waits for).
async function show(params, frame = false) {
  const t0 = performance.now();
  setHash(params, false, true);
  if (frame) await nextFrame();
  return performance.now() - t0;
}

function textOk(el, where, check) {
  const text = el.innerText || '';
  const bad = kBadText.exec(text);
  check(!bad, where, 'shows "' + (bad && bad[0]) + '" near: ' + (bad ? text.slice(Math.max(0, bad.index - 60), bad.index + 20) : ''));
}

function mouse(target, type, x, y, extra) {
  target.dispatchEvent(new MouseEvent(type, Object.assign({ bubbles: true, cancelable: true, clientX: x, clientY: y, view: window }, extra || {})));
}

async function selftestProfile(pi, check, res) {
  const m = modelOf(pi), at = 'profile ' + pi + ' (' + m.name + ')';
  res.profiles.push({ name: m.name, kind: m.kind, instrs: m.n, cycles: m.cycles, build_ms: Math.round(m.buildMs) });
  // The model's own invariants.
  check(m.classes.reduce((a, c) => a + c.count, 0) === m.n, at, 'class counts do not add up to the instruction count');
  const W = m.windows;
  for (let w = 0; w < W.n; ++w) {
    let s = 0;
    for (const k of kCauses) { s += attrOf(m).per[k.key][w]; if (attrOf(m).per[k.key][w] < 0) check(false, at, 'negative ' + k.key + ' in window ' + w); }
    if (Math.abs(s - W.col.n[w]) > 1e-6) { check(false, at, 'window ' + w + ' causes add to ' + s + ', not ' + W.col.n[w]); break; }
  }
  check(Math.abs(attrOf(m).all - windowSum(W, 'n', 0, W.n)) < 1e-6, at, 'attribution total differs from the windows\' cycles');
  m.busy.forEach((b, u) => check(b <= m.cycles + 1, at, m.units[u] + ' busy ' + b + ' exceeds the run\'s ' + m.cycles + ' cycles'));
  // Exclusive cycles add up to the run, per class, per source line and per pc.
  if (m.hasTrace) {
    const sum = (rows) => rows.reduce((a, r) => a + r.excl, 0) + m.exclIdle;
    check(Math.abs(sum(m.classes) - m.cycles) < 1e-6, at, 'class exclusive cycles add to ' + sum(m.classes) + ', not the run\'s ' + m.cycles);
    check(Math.abs(sum(m.sourceRows) - m.cycles) < 1e-6, at, 'source exclusive cycles add to ' + sum(m.sourceRows) + ', not ' + m.cycles);
    check(Math.abs(sum(pcRowsOf(m)) - m.cycles) < 1e-6, at, 'per-pc exclusive cycles add to ' + sum(pcRowsOf(m)) + ', not ' + m.cycles);
    // The findings' hot instructions ("pc N …: x% of cycles (C in R runs)") are the same cycles.
    for (const n of m.notes) {
      const g = /^pc (\d+) .*: [\d.]+% of cycles \((\d+) in \d+ runs?\)/.exec(String(n.text));
      if (!g) continue;
      const r = pcRowsOf(m).find((x) => x.pc === +g[1] && x.slice === 0);
      check(r && r.excl === +g[2], at, 'finding for pc ' + g[1] + ' says ' + g[2] + ' cycles, the tables ' + (r && r.excl));
    }
  }

  for (const v of kViews) {
    const ms = await show({ profile: pi, view: v.key, pin: null, range: null, filter: null, t: null, sel: null, find: null, src: null }, true);
    res.view_ms[pi + ':' + v.key] = Math.round(ms);
    check(!v.el.hidden, at, v.key + ' view is hidden after selecting it');
    textOk(v.el, at + ' ' + v.key, check);
    // A counters-only profile: every view that needs a trace says so instead of an empty frame.
    if (v.needsTrace && !m.hasTrace) check(v.noTraceEl.textContent.includes('No trace in this profile'), at + ' ' + v.key, 'does not say the profile has no trace');
    selftestExports(v.el, at + ' ' + v.key, check);
  }
  const parts = [['overview', selftestOverview], ['program', selftestProgram]];
  if (m.hasTrace) parts.push(['timeline', selftestTimeline], ['timeline tools', selftestTimelineTools], ['floorplan', selftestFloorplan], ['tables', selftestTables]);
  else parts.push(['no trace', selftestNoTrace]);
  if (m.loss) parts.push(['trace loss', selftestLoss]);
  if (compareOf(m)) parts.push(['compare', selftestCompare]);
  for (const [name, part] of parts) {
    const t0 = performance.now();
    await part(m, at, check, pi);
    res.view_ms[pi + ':test ' + name] = Math.round(performance.now() - t0);
  }
}

async function selftestOverview(m, at, check, pi) {
  await show({ profile: pi, view: 'overview' });
  const where = at + ' overview';
  if (m.hasTrace) {
    const rows = byId('class-table').querySelectorAll('tr[data-class]').length;
    check(rows === m.names.length, where, 'class table has ' + rows + ' rows for ' + m.names.length + ' classes');
    // Its exclusive column adds up to the run (with the idle row); headers sort.
    const cells = Array.from(byId('class-table').querySelectorAll('tr[data-class]'), (tr) => +tr.children[3].textContent.replace(/,/g, ''));
    const idle = +byId('class-table').querySelector('tr.idle-row').children[3].textContent.replace(/,/g, '');
    check(Math.abs(cells.reduce((a, b) => a + b, 0) + idle - m.cycles) <= cells.length + 1, where, 'class table exclusive cycles add to ' + (cells.reduce((a, b) => a + b, 0) + idle) + ', not ' + m.cycles);
    byId('class-table').querySelector('th[data-col="2"]').click();
    const counts = Array.from(byId('class-table').querySelectorAll('tr[data-class]'), (tr) => +tr.children[2].textContent.replace(/,/g, ''));
    check(counts.every((v, k) => k === 0 || counts[k - 1] >= v), where, 'the class table did not sort by count: ' + counts.join(' '));
  }
  const chart = byId('roofline');
  check(!!chart.querySelector('polyline[data-roof="B"]') && !!chart.querySelector('polyline[data-roof="A"]'), where, 'roofline chart lacks the port-B or the port-A roof');
  // The chart's figure is the profile's roofline efficiency (port B and port A each under its own roof).
  check(Math.abs(+chart.dataset.figure - m.roofline.efficiency) < 1e-9 + 1e-6 * m.roofline.efficiency, where, 'roofline chart says ' + fmtPct(+chart.dataset.figure) + ', the profile ' + fmtPct(m.roofline.efficiency));
  // No point label covers a point, the run's labels, or another point label (as drawn: getBBox).
  {
    const boxes = Array.from(chart.querySelectorAll('text[data-label-of]')).map((t) => ({ k: t.dataset.labelOf, b: t.getBBox() }));
    const hit = (a, b, pad = 1) => a.x + pad < b.x + b.width && b.x + pad < a.x + a.width && a.y + pad < b.y + b.height && b.y + pad < a.y + a.height;
    const circles = Array.from(chart.querySelectorAll('circle[data-point]')).map((c) => ({ k: c.dataset.point, b: c.getBBox() }));
    const runs = boxes.filter((x) => x.k.startsWith('run'));
    for (const x of runs) for (const y of boxes.concat(circles)) if (y.k !== x.k && hit(x.b, y.b)) check(false, where, 'roofline label ' + x.k + ' overlaps ' + y.k);
    for (let k = 0; k < boxes.length; ++k) for (let q = k + 1; q < boxes.length; ++q) if (hit(boxes[k].b, boxes[q].b)) check(false, where, 'roofline labels ' + boxes[k].k + ' and ' + boxes[q].k + ' overlap');
    check(true, where, 'roofline labels');
  }
  check(byId('roofline-text').textContent.includes(fmtPct(m.roofline.efficiency)), where, 'roofline text does not give the efficiency ' + fmtPct(m.roofline.efficiency));
  // No point above its own roof.
  const svg = chart.querySelector('svg');
  for (const c of chart.querySelectorAll('circle[data-point]')) {
    const line = chart.querySelector('polyline[data-roof="' + c.dataset.roofOf + '"]');
    const [p0, p1] = line.getAttribute('points').split(' ').map((q) => q.split(',').map(Number));
    const cx = +c.getAttribute('cx'), cy = +c.getAttribute('cy');
    if (cx > p1[0]) continue;  // past the ridge: under the compute ceiling
    const roofY = p0[1] + (p1[1] - p0[1]) * (cx - p0[0]) / (p1[0] - p0[0]);
    check(cy >= roofY - 0.5, where, 'roofline point ' + c.dataset.point + ' is above its port-' + c.dataset.roofOf + ' roof');
  }
  void svg;
  // The run (both ports) and every class that does MACs and moves port-B chunks are points; the rest are named.
  const plotted = new Set(Array.from(chart.querySelectorAll('circle[data-point]'), (c) => c.dataset.point));
  check(plotted.has('run:B') === (m.macs > 0 && m.portTransfers.b > 0), where, 'roofline: the run is ' + (plotted.has('run:B') ? '' : 'not ') + 'a point under port B');
  check(plotted.has('run:A') === (m.macs > 0 && m.portTransfers.a > 0), where, 'roofline: the run is ' + (plotted.has('run:A') ? '' : 'not ') + 'a point under port A');
  for (const c of m.classes) {
    const onChart = c.done.macs > 0 && c.done.portB > 0 && c.done.busy > 0;
    check(plotted.has('class:' + c.name) === onChart, where, 'roofline: class ' + c.name + (onChart ? ' is not a point' : ' is a point without MACs'));
    if (!onChart && c.count) check(chart.textContent.includes(c.name), where, 'roofline: class ' + c.name + ' is neither plotted nor listed');
  }
  // Points are links to their rows.
  const cp = chart.querySelector('circle[data-point^="class:"]');
  if (cp) {
    cp.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    const sel = byId('class-table').querySelector('tr.sel');
    check(sel && 'class:' + sel.dataset.class === cp.dataset.point, where, 'clicking ' + cp.dataset.point + ' did not select its class row');
  }
  const sp = chart.querySelector('circle[data-point^="src:"]');
  if (sp) {
    sp.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    check(app.view === SourceView && SourceView.listing.querySelector('tr.sel[data-src="' + sp.dataset.point.slice(4) + '"]'), where, 'clicking ' + sp.dataset.point + ' did not open its source line');
    await show({ view: 'overview', src: null });
  }
  if (!m.hasTrace) { await show({ view: 'cycles' }); check(byId('cycles-table').textContent.includes('cause not recorded'), at + ' cycles', 'a profile without a trace gives port B\'s idle cycles to causes'); return; }
  await show({ view: 'cycles' });
  // A header, the causes, the total, and for a cut trace the untraced cycles.
  check(byId('cycles-table').querySelectorAll('tr').length === kCauses.length + 2 + (m.loss && attrOf(m).all < m.cycles ? 1 : 0), at + ' cycles', 'cause table rows');
  check(byId('cycles-canvas').width > 0, at + ' cycles', 'no chart');
}

// Instructions worth visiting: first, middle, last, and the first of every unit lane.
function sampleInstrs(m) {
  const set = new Set([0, m.n >> 1, m.n - 1]);
  for (const lanes of m.lanes) for (const lane of lanes) if (lane.idx.length) set.add(lane.idx[lane.idx.length >> 1]);
  return Array.from(set).filter((i) => i >= 0 && i < m.n);
}

async function selftestTimeline(m, at, check, pi) {
  const T = TimelineView, where = at + ' timeline';
  await show({ profile: pi, view: 'timeline' });
  const rect = () => T.canvas.getBoundingClientRect();
  for (const i of sampleInstrs(m)) {
    await show({ view: 'timeline', pin: m.idx[i], t: m.s[i] });
    check(T.pin === i, where, 'pin=' + m.idx[i] + ' did not pin row ' + i);
    check(m.e[i] >= T.v0 && m.s[i] <= T.v1, where, 'pinned #' + m.idx[i] + ' (' + m.s[i] + '-' + m.e[i] + ') is not in view ' + T.v0 + '-' + T.v1);
    const row = T.rows.find((r) => r.type === 'lane' && r.u === m.unit[i] && r.k === m.lane[i]);
    if (!check(row, where, 'no lane row for #' + m.idx[i])) continue;
    // Mouse events carry whole pixels: zoom so the bar is wide enough to hit at one.
    T.setRange(m.s[i] - 4, m.e[i] + 4, true);
    const x = Math.round(T.X((m.s[i] + m.e[i]) / 2)), y = row.y + 10;
    mouse(T.canvas, 'mousemove', rect().left + x, rect().top + y);
    const card = hoverCard.text();
    // More overlapping instructions than lanes (e.g. many open at a cut trace's end) share one.
    // An instruction never started (a cut trace) has no bar to hit.
    const shared = m.start[i] < 0 || row.lane.idx.some((q) => q !== i && m.s[q] < m.e[i] && m.s[i] < m.e[q]);
    if (!shared) {
      check(T.instrAt(x, y) === i, where, 'hit test at #' + m.idx[i] + ' found ' + T.instrAt(x, y));
      check(card.includes('#' + fmtInt(m.idx[i]) + ' '), where, 'hover card for #' + m.idx[i] + ' reads: ' + card.slice(0, 80));
    }
    check(!kBadText.test(card), where, 'hover card shows: ' + card);
    mouse(T.canvas, 'mouseleave', 0, 0);
  }
  T.reset();
  for (const r of T.rows.filter((q) => q.type === 'strip')) {
    mouse(T.canvas, 'mousemove', rect().left + T.X(m.cycles / 2), rect().top + r.y + 10);
    check(hoverCard.text().includes(r.strip.label), where, r.strip.label + ' strip has no hover card');
    check(!kBadText.test(hoverCard.text()), where, r.strip.label + ' card shows: ' + hoverCard.text());
  }
  mouse(T.canvas, 'mouseleave', 0, 0);
  T.reset();
  const full = T.v1 - T.v0;
  T.canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -400, clientX: rect().left + T.L + 50, clientY: rect().top + 40, bubbles: true, cancelable: true }));
  check(T.v1 - T.v0 < full, where, 'wheel did not zoom in');
  T.drawNow();  // zoomed in: the per-instruction drawing path
  // Dragging left by 100 px moves the view later by as many cycles.
  const v0 = T.v0, cpp = (T.v1 - T.v0) / T.plotW();
  mouse(T.canvas, 'mousedown', rect().left + T.L + 200, rect().top + 40);
  mouse(document, 'mousemove', rect().left + T.L + 100, rect().top + 40);
  mouse(document, 'mouseup', rect().left + T.L + 100, rect().top + 40);
  check(Math.abs(T.v0 - (v0 + 100 * cpp)) < 1e-6 * Math.max(1, m.cycles) || m.cycles < 16, where, 'drag moved the view from ' + v0 + ' to ' + T.v0 + ', not by ' + 100 * cpp);
  mouse(T.canvas, 'dblclick', rect().left + 200, rect().top + 40);
  check(Math.abs(T.v1 - T.v0 - full) < 1e-6, where, 'double-click did not reset the zoom');
  await nextFrame();
  textOk(T.el, where, check);
}

// Timeline tools: the pin keeps a view that shows the bar, WASD, search highlighting, shift-drag
// selection totals, the range label, labels of bars begun off-screen, the hover card on a jump.
// Dependency waits and the producers found for them, per profile (in the result, for the tests).
const res_deps = [];

// Hand-edited hash values: a reversed range past the end is put in order inside the run, and a
// pin that names no instruction says so.
async function selftestBadHash(m, at, check, pi) {
  const T = TimelineView, where = at + ' timeline hash';
  await show({ profile: pi, view: 'timeline', range: (m.cycles + 90000) + '-5', pin: null });
  check(T.v0 >= 0 && T.v1 > T.v0 && T.v1 <= m.cycles * 1.02 + 8, where, 'range shows ' + T.v0 + '–' + T.v1);
  const r = /^(\d+)-(\d+)$/.exec(parseHash().range || '');
  check(r && +r[1] < +r[2] && +r[2] <= Math.max(m.cycles, 8), where, 'the hash keeps range=' + parseHash().range);
  check(T.pinPanel.textContent.includes('is not a range of this run'), where, 'no note about the corrected range');
  const bogus = (m.rowsByIdx ? m.idxSorted[m.n - 1] : m.n) + 1000;
  await show({ range: null, pin: bogus });
  check(T.pinPanel.textContent.includes('pin=' + bogus + ' names no instruction'), where, 'no note that pin=' + bogus + ' names no instruction');
  await show({ pin: null });
}

async function selftestTimelineTools(m, at, check, pi) {
  await selftestBadHash(m, at, check, pi);
  const T = TimelineView, where = at + ' timeline';
  const rect = () => T.canvas.getBoundingClientRect();
  // The longest instruction, for bars that stick out of a view.
  let i = 0;
  for (let k = 1; k < m.n; ++k) if (m.e[k] - m.s[k] > m.e[i] - m.s[i]) i = k;
  const len = m.e[i] - m.s[i];
  const a = Math.round(m.s[i] + len / 2), b = Math.round(m.s[i] + len / 2 + Math.max(8, len));
  if (len >= 8 && b <= m.cycles) {
    await show({ profile: pi, view: 'timeline', range: a + '-' + b, pin: null, t: null });
    // The bar begins before the view: its label is still drawn, at the view's left edge.
    T.drawNow();
    check(T.labels.some((l) => l.i === i && l.x >= T.L), where, 'the label of #' + m.idx[i] + ' (begun off-screen) is not drawn');
    // Clicking it pins it without moving the view, and the hash keeps that view.
    const row = T.rows.find((r) => r.type === 'lane' && !r.base && r.u === m.unit[i] && r.k === m.lane[i]);
    const x = Math.round(T.X(a + 2));
    mouse(T.canvas, 'mousemove', rect().left + x, rect().top + row.y + 10);
    check(hoverCard.text() !== '', where, 'no hover card over #' + m.idx[i]);
    T.click(x, row.y + 10);
    check(T.pin === i, where, 'click did not pin #' + m.idx[i]);
    check(Math.round(T.v0) === a && Math.round(T.v1) === b, where, 'pinning an overlapping bar moved the view to ' + Math.round(T.v0) + '-' + Math.round(T.v1));
    check(parseHash().range === a + '-' + b, where, 'the hash range is ' + parseHash().range + ' after the pin');
    // Pinning a bar outside the view centres on it, writes the range and hides the hover card.
    const far = m.byStart[m.n - 1] === i ? m.byStart[0] : m.byStart[m.n - 1];
    if (m.e[far] <= a || m.s[far] >= b) {
      await show({ pin: m.idx[far] });
      check(T.v0 <= m.s[far] && m.e[far] <= T.v1 + 1, where, 'pinning #' + m.idx[far] + ' outside the view did not bring it into view');
      check(parseHash().range === Math.round(T.v0) + '-' + Math.round(T.v1), where, 'the hash range ' + parseHash().range + ' is not the view');
      check(hoverCard.text() === '', where, 'the hover card stayed after the view jumped');
    }
  }
  // Dependencies: each found producer is older and ended at the cycle its consumer became ready;
  // the pinned instruction's arrows are drawn.
  const deps = depsOf(m);
  let waits = 0, found = 0;
  for (let q = 0; q < m.n; ++q) {
    if (m.ready[q] > m.dispatch[q] && m.dispatch[q] >= 0) waits++;
    const p = deps[q];
    if (p < 0) continue;
    found++;
    if (!(m.idx[p] < m.idx[q] && m.end[p] === m.ready[q])) { check(false, where, 'dependency of #' + m.idx[q] + ' on #' + m.idx[p] + ' does not hold'); break; }
  }
  res_deps.push({ profile: m.name, waits, found });
  const dq = deps.findIndex((p) => p >= 0);
  if (dq >= 0) {
    await show({ view: 'timeline', pin: m.idx[dq], range: null });
    T.drawNow();
    check(T.arrows.some(([p, q]) => p === deps[dq] && q === dq), where, 'no arrow from #' + m.idx[deps[dq]] + ' to the pinned #' + m.idx[dq]);
    check(instrCard(m, dq).rows.some(([k, v]) => k === 'waited on' && v.startsWith('#' + fmtInt(m.idx[deps[dq]]) + ' ')), where, 'the card of #' + m.idx[dq] + ' does not name what it waited on');
  }
  // A pin in a fresh link (no range) zooms onto it.
  const mid = m.byStart[m.n >> 1];
  TimelineView.m = null;
  await show({ view: 'timeline', range: null, pin: m.idx[mid], t: m.s[mid] });
  if ((m.e[mid] - m.ds[mid]) * 1.5 < m.cycles * 0.9 && m.cycles > 100) check(T.v1 - T.v0 < m.cycles, where, '#pin=' + m.idx[mid] + ' shows the whole run');
  check(T.v0 <= m.s[mid] && m.e[mid] <= T.v1 + 1, where, '#pin=' + m.idx[mid] + ' is not in view');
  // The range label gives the run's part of the view, not the overscroll.
  T.reset(); T.zoom(4); T.drawNow();
  check(T.rangeLabel.textContent.includes('(' + fmtTime(m.cycles, m.clock) + ')'), where, 'zoomed out, the range label reads ' + T.rangeLabel.textContent);
  // WASD.
  T.reset(); T.zoom(1 / 4);
  let span = T.v1 - T.v0, v0 = T.v0;
  TimelineView.onKey({ key: 'w' });
  check(T.v1 - T.v0 < span, where, 'W did not zoom in');
  span = T.v1 - T.v0; v0 = T.v0;
  TimelineView.onKey({ key: 'd' });
  check(T.v0 > v0 || T.v1 >= m.cycles * 1.005, where, 'D did not pan right');
  v0 = T.v0;
  TimelineView.onKey({ key: 'a' });
  check(T.v0 < v0 || T.v0 <= 0, where, 'A did not pan left');
  TimelineView.onKey({ key: 's' });
  check(T.v1 - T.v0 > span - 1e-9, where, 'S did not zoom out');
  // Search highlights the matching bars.
  const term = m.names[m.nameId[mid]];
  await show({ view: 'timeline', find: term, range: null, pin: null });
  check(T.found && T.found.count === filterInstrs(m, term).length, where, 'highlight "' + term + '" found ' + (T.found && T.found.count));
  check(byId('timeline-find-count').textContent.startsWith(fmtInt(filterInstrs(m, term).length)), where, 'the match count reads ' + byId('timeline-find-count').textContent);
  // Enter / Shift-Enter in the search box step through the matches in start order, pinning
  // each ("k of N"), wrapping at the ends.
  {
    const order = sortIndices(filterInstrs(m, term), (i) => m.s[i]), n = order.length;
    const key = (shiftKey) => T.search.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey, bubbles: true, cancelable: true }));
    T.reset();
    await show({ pin: null });
    key(false);
    check(T.pin === order[0] && byId('timeline-find-count').textContent === '1 of ' + fmtInt(n), where, 'Enter pinned #' + (T.pin === undefined ? '–' : m.idx[T.pin]) + ' (' + byId('timeline-find-count').textContent + '), not the first match #' + m.idx[order[0]]);
    check(T.v0 <= m.s[order[0]] && m.s[order[0]] <= T.v1, where, 'the first match is not in view');
    if (n > 1) { key(false); check(T.pin === order[1] && byId('timeline-find-count').textContent.startsWith('2 of '), where, 'a second Enter did not go to the second match'); key(true); }
    key(true);
    check(T.pin === order[n - 1] && byId('timeline-find-count').textContent === fmtInt(n) + ' of ' + fmtInt(n), where, 'Shift-Enter from the first match did not wrap to the last');
  }
  await show({ find: null, pin: null });
  // The keyboard help (?) opens over the page, lists every key, and Esc closes it.
  window.dispatchEvent(new KeyboardEvent('keydown', { key: '?', bubbles: true }));
  check(keyHelp.open && byId('key-help-table').querySelectorAll('tr').length === kKeyHelp.length + 1, where, '? did not show the key table');
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  check(!keyHelp.open && T.m === m, where, 'Esc did not close the key help');
  // Shift-drag selects a range with totals that add up.
  T.reset();
  const y = kAxisH + 5;
  mouse(T.canvas, 'mousedown', rect().left + T.L + 40, rect().top + y, { shiftKey: true });
  mouse(document, 'mousemove', rect().left + T.L + 240, rect().top + y);
  mouse(document, 'mouseup', rect().left + T.L + 240, rect().top + y);
  const sel = /^(\d+)-(\d+)$/.exec(parseHash().sel || '');
  if (check(sel, where, 'shift-drag made no selection (hash sel=' + parseHash().sel + ')')) {
    const t = selectionTotals(m, +sel[1], +sel[2]);
    const excl = t.classes.reduce((a, c) => a + c.excl, 0) + t.idle;
    check(Math.abs(excl - (t.b - t.a)) < 1e-6, where, 'selection exclusive cycles add to ' + excl + ', not ' + (t.b - t.a));
    check(Array.from(t.unitBusy).every((v) => v <= t.b - t.a + 1e-6), where, 'a unit is busier than the selection');
    check(!byId('timeline-selection').hidden && byId('selection-classes').querySelectorAll('tr').length === t.classes.length + 2, where, 'the selection panel does not list its classes');
    // Its instructions export: exactly those overlapping the selection (by their effective times).
    let over = 0;
    for (let i = 0; i < m.n; ++i) if (m.s[i] < t.b && m.e[i] > t.a && m.e[i] > m.s[i]) over++;
    const btn = byId('timeline-selection').querySelector('.toolbar .export-copy');
    if (check(btn, where, 'the selection has no export buttons')) {
      const before = exportState.count;
      btn.click();
      const last = exportState.last;
      check(exportState.count === before + 1 && last.rows === over && last.text.split('\n').length === over + 2, where,
        'the selection exported ' + (last && last.rows) + ' instructions, ' + over + ' overlap it');
    }
    // The whole run selected: the same exclusive cycles as the tables.
    const all = selectionTotals(m, 0, m.cycles);
    check(Math.abs(all.idle - m.exclIdle) < 1e-6, where, 'the whole run selected has ' + all.idle + ' idle cycles, the tables ' + m.exclIdle);
  }
  await show({ sel: null, range: null });
}

// The header stays one line on a wide window, even with a long file name.
function selftestHeader(check) {
  if (window.innerWidth < 1200) return;
  const info = byId('profile-info'), saved = info.textContent;
  info.textContent = 'a-very-long-profile-file-name-that-goes-on-and-on-and-on-for-a-long-while.otpuprof · hw · 1,000,000 instructions';
  const hd = document.querySelector('header'), tabs = byId('tabs');
  check(Math.abs(tabs.getBoundingClientRect().top - info.getBoundingClientRect().top) < 12 && hd.offsetHeight < 60, 'header', 'wraps to ' + hd.offsetHeight + ' px with a long file name');
  info.textContent = saved;
  // Every control of the header on screen and clear of its neighbours.
  const kids = Array.from(hd.children).filter((e) => !e.hidden && e.getBoundingClientRect().width > 0);
  for (let k = 0; k < kids.length; ++k) {
    const a = kids[k].getBoundingClientRect();
    check(a.right <= window.innerWidth + 0.5, 'header', (kids[k].id || kids[k].className) + ' ends at ' + a.right + ' past the window (' + window.innerWidth + ')');
    if (k && Math.abs(a.top - kids[k - 1].getBoundingClientRect().top) < 12) check(a.left >= kids[k - 1].getBoundingClientRect().right - 0.5, 'header', (kids[k].id || kids[k].tagName) + ' overlaps ' + (kids[k - 1].id || kids[k - 1].tagName));
  }
}

async function selftestNoTrace(m, at, check, pi) {
  await show({ profile: pi, view: 'overview' });
  check(!!byId('view-overview').querySelector('.notrace'), at + ' overview', 'does not say the profile has no trace');
  check(Math.abs(portBusyShown() - (m.cycles ? m.portTransfers.b / m.cycles : 0)) < 1e-3, at + ' overview', 'port-B busy card reads ' + portBusyShown());
  if (!m.busyCounted) check(!!byId('units-not-counted'), at + ' overview', 'units without busy counters show as 0% busy');
}

function portBusyShown() {
  const card = Array.from(document.querySelectorAll('#view-overview .card')).find((c) => c.textContent.startsWith('Port-B busy'));
  return card ? parseFloat(card.querySelector('.v').textContent) / 100 : NaN;
}

async function selftestProgram(m, at, check, pi) {
  await show({ profile: pi, view: 'program' });
  const P = ProgramView, where = at + ' program';
  const progRows = programsOf(m).reduce((a, p) => a + (Array.isArray(p) ? p.length : 0), 0);
  check(P.table.rows.length >= progRows + 1, where, P.table.rows.length + ' rows for ' + progRows + ' program instructions');
  if (m.hasTrace) {
    const sum = P.rows.reduce((a, r) => a + (r.stat ? r.stat.excl : 0), 0);
    check(Math.abs(sum - m.cycles) < 1e-6, where, 'exclusive cycles add to ' + sum + ', not ' + m.cycles);
  }
  await show({ view: 'source' });
  if (m.hasTrace) {
    const S = SourceView;
    check(S.listing.querySelectorAll('tr[data-src]').length === m.sources.length, at + ' source', 'the code listing has ' + S.listing.querySelectorAll('tr[data-src]').length + ' lines for ' + m.sources.length + ' sources');
  }
}

async function selftestLoss(m, at, check, pi) {
  for (const v of ['overview', 'timeline']) {
    await show({ profile: pi, view: v });
    const b = byId('view-' + v).querySelector('.loss-banner');
    check(b && b.textContent.includes('Incomplete trace'), at + ' ' + v, 'no trace-loss banner');
    if (m.loss.cut !== null) check(b && b.textContent.includes(fmtInt(m.loss.tracedTo)), at + ' ' + v, 'the banner does not give traced_to');
    if (m.loss.wrapped) check(b && b.textContent.includes('wrapped'), at + ' ' + v, 'the banner does not say the ring wrapped');
  }
  const T = TimelineView;
  T.reset(); T.drawNow();
  if (m.loss.cut !== null) check(T.shaded.some(([a]) => a === m.loss.cut), at + ' timeline', 'the part past the cut is not shaded');
  if (m.loss.from > 0) check(T.shaded.some(([a, b]) => a === 0 && b === m.loss.from), at + ' timeline', 'the part before the ring\'s first record is not shaded');
  // Nothing past the cut (or before the ring's start) is shown as data.
  await show({ profile: pi, view: 'cycles' }, true);
  const txt = (byId('cycles-text') || {}).textContent || '';
  if (attrOf(m).all < m.cycles) {
    check(!txt.includes('Every one of the ' + fmtInt(m.cycles)), at + ' cycles', 'the text splits all ' + fmtInt(m.cycles) + ' cycles though the trace covers ' + fmtInt(attrOf(m).all));
    check(txt.includes(fmtInt(attrOf(m).all)), at + ' cycles', 'the text does not say how many cycles the trace covers');
    check(CyclesView.untracedPx > 0, at + ' cycles', 'the chart over time does not shade the untraced cycles');
  }
  for (const t of [m.loss.cut !== null ? Math.floor((m.loss.cut + m.cycles) / 2) : -1, m.loss.from > 0 ? Math.floor(m.loss.from / 2) : -1]) {
    if (t < 0) continue;
    const st = machineAt(m, t);
    check(st.untraced && st.units.every((u) => u.state === 'untraced') && Object.values(st.paths).every((x) => !x), at + ' floorplan', 'cycle ' + t + ' is not traced but shows unit states');
    await show({ view: 'floorplan', t });
    check(byId('fp-label').textContent.includes('not traced') && byId('fp-gap-text').textContent.startsWith('Not traced'), at + ' floorplan', 'cycle ' + t + ' does not say it is not traced: ' + byId('fp-gap-text').textContent);
    const W = m.windows, zero = TimelineView.stripValue;
    check(!traced(m, t) && (W.n === 0 || t >= W.we[W.n - 1] || t < W.ws[0]), at + ' timeline', 'strips have a window at untraced cycle ' + t);
  }
  // A ring's start is where its counter windows start, as `lens info` says.
  if (m.loss.wrapped && m.windows.n && !m.windows.synthesized) check(m.loss.from === m.windows.ws[0], at + ' trace loss', 'ring start ' + m.loss.from + ' is not the first counter window ' + m.windows.ws[0]);
  await show({ view: 'timeline', t: null });
  check(filterInstrs(m, 'open').length === m.openCount, at + ' timeline', 'open instructions: filter finds ' + filterInstrs(m, 'open').length + ' of ' + m.openCount);
  const open = filterInstrs(m, 'open');
  if (open.length) {
    const i = open[0];
    check(instrCard(m, i).rows.some(([k]) => k === 'trace'), at + ' timeline', 'the card of open #' + m.idx[i] + ' does not say it is open');
  }
}

async function selftestCompare(m, at, check, pi) {
  const c = compareOf(m), b = c.b, where = at + ' compare';
  // The instructions that moved most, ranked as lens diff ranks them.
  const key = (i) => { const j = c.match[i]; return [Math.abs((m.end[i] - m.start[i]) - (b.end[j] - b.start[j])), Math.abs(m.end[i] - b.end[j])]; };
  for (let k = 1; k < c.top.length; ++k) {
    const [x0, x1] = key(c.top[k - 1]), [y0, y1] = key(c.top[k]);
    if (!(x0 > y0 || (x0 === y0 && x1 >= y1))) { check(false, where, 'moved-most row ' + k + ' ranks above ' + (k - 1) + ' in lens diff'); break; }
  }
  // Different machines or work are said so.
  await show({ profile: pi, view: 'overview' });
  // The summary line at the top: cycles, efficiency and the first three of the ranking.
  const sum = byId('compare-summary');
  if (check(sum && sum === byId('view-overview').querySelector('h2').nextElementSibling, where, 'no summary line under the overview\'s title')) {
    check(sum.dataset.cycles === b.cycles + ',' + m.cycles && sum.textContent.includes(fmtInt(b.cycles) + ' → ' + fmtInt(m.cycles)), where, 'the summary line says cycles ' + sum.dataset.cycles);
    check(sum.dataset.top === c.top.slice(0, 3).map((i) => m.pc[i] + ':' + m.idx[i] + ':' + ((m.end[i] - m.start[i]) - (b.end[c.match[i]] - b.start[c.match[i]]))).join(','), where, 'the summary line\'s instructions ' + sum.dataset.top + ' are not the ranking\'s first three');
    check(sum.querySelectorAll('a').length === Math.min(3, c.top.length), where, 'the summary line links ' + sum.querySelectorAll('a').length + ' instructions');
  }
  const warn = document.querySelector('#compare-section .compare-warn');
  check(!!warn === compareMismatch(m, b).length > 0, where, 'the not-like-for-like warning is ' + (warn ? 'shown' : 'missing') + ' for ' + JSON.stringify(compareMismatch(m, b)));
  // The close button beside the baseline's name is on screen and on top.
  const close = byId('close-baseline'), r = close && close.getBoundingClientRect();
  check(r && r.width > 0 && r.right <= window.innerWidth && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === close, where, 'the baseline\'s close button cannot be clicked');
  let bad = 0;
  for (let i = 0; i < m.n && bad < 3; ++i) {
    const j = c.match[i];
    if (j >= 0 && b.pc[j] !== m.pc[i]) { check(false, where, '#' + m.idx[i] + ' (pc ' + m.pc[i] + ') matched baseline pc ' + b.pc[j]); bad++; }
  }
  check(c.matched + c.onlyNew === m.n && c.matched + c.onlyBase === b.n, where, 'match counts do not add up');
  await show({ profile: pi, view: 'overview' });
  const t = byId('compare-table');
  check(t && t.rows[1].cells[3].textContent.startsWith(fmtDelta(m.cycles - b.cycles)), where, 'the overview\'s Δ cycles reads ' + (t && t.rows[1].cells[3].textContent));
  await show({ view: 'cycles' });
  if (b.hasTrace) {
    // The baseline's bar gives the baseline's own shares.
    for (const d of document.querySelectorAll('#cycles-bar-base > div')) {
      const k = kCauses.find((q) => d.title.startsWith(q.label + ':'));
      if (k) check(d.title === k.label + ': ' + fmtPct(attrOf(b).totals[k.key] / Math.max(1, attrOf(b).all)), where, 'the baseline bar says ' + d.title);
    }
    const head = byId('cycles-table').rows[0].textContent;
    check(head.includes('Δ cycles'), where, 'where the cycles went has no Δ column');
    const tot = byId('cycles-table').rows[kCauses.length + 1].cells[4].textContent;
    check(tot.startsWith(fmtDelta(attrOf(m).all - attrOf(b).all)), where, 'the Δ total reads ' + tot);
  }
  await show({ view: 'instructions', filter: null });
  const I = InstructionsView, k = I.table.columns.findIndex((col) => col.label === 'Δ busy');
  if (check(k >= 0, where, 'the instructions table has no Δ busy column')) {
    const rowEl = I.table.body.querySelector('.vr');
    if (rowEl) {
      const i = +rowEl.dataset.i;
      check(rowEl.children[k].textContent === fmtDelta(deltaOf(c, i, 'busy')), where, 'Δ busy of #' + m.idx[i] + ' reads ' + rowEl.children[k].textContent);
    }
  }
  await show({ view: 'instructions', filter: 'changed' });
  check(I.table.rows.length === c.changed, where, 'filter changed kept ' + I.table.rows.length + ' of ' + c.changed);
  await show({ view: 'timeline', filter: null, range: null, pin: null });
  const T = TimelineView, base = T.rows.filter((r) => r.base);
  check(base.length === b.lanes.reduce((a, l) => a + l.length, 0), where, 'the timeline has ' + base.length + ' baseline lanes');
  // A baseline bar has its card, on the same cycle axis.
  const r0 = base.find((r) => r.lane.idx.length);
  if (r0) {
    const j = r0.lane.idx[0];
    T.setRange(b.s[j] - 4, b.e[j] + 4, true);
    const x = Math.round(T.X((b.s[j] + b.e[j]) / 2)), rect = T.canvas.getBoundingClientRect();
    mouse(T.canvas, 'mousemove', rect.left + x, rect.top + r0.y + 10);
    check(hoverCard.text().startsWith('baseline #' + fmtInt(b.idx[j]) + ' '), where, 'the baseline bar\'s card reads ' + hoverCard.text().slice(0, 60));
    mouse(T.canvas, 'mouseleave', 0, 0);
  }
  await show({ view: 'overview' });
}

async function selftestFloorplan(m, at, check, pi) {
  const F = FloorplanView, where = at + ' floorplan';
  const moments = new Set([0, Math.floor(m.cycles / 4), Math.floor(m.cycles / 2), Math.floor(3 * m.cycles / 4), Math.max(0, m.cycles - 1)]);
  const mm = m.names.indexOf('MM');
  for (let i = 0; i < m.n && mm >= 0; ++i) if (m.nameId[i] === mm) { moments.add(m.s[i]); break; }
  for (const i of sampleInstrs(m).slice(0, 3)) moments.add(Math.min(m.s[i], Math.max(0, m.cycles - 1)));
  await show({ profile: pi, view: 'floorplan', t: 0 });
  // The roofline-gap bar's labels stay inside their parts of the bar.
  for (const t of moments) {
    await show({ t });
    for (const e of document.querySelectorAll('#fp-gap [data-gap-label]')) check(e.getComputedTextLength() + 5 <= +e.dataset.gapW + 0.5, where, 'gap label "' + e.textContent + '" spills past its ' + Math.round(+e.dataset.gapW) + ' px at cycle ' + t);
  }
  await show({ t: 0 });
  const keys = F.keys();
  check(keys.length >= 20 + 2 * m.cfg.LANES + m.win, where, 'only ' + keys.length + ' elements');
  let first = true;
  for (const t of moments) {
    if (first) await show({ view: 'floorplan', t }); else F.setT(t);  // the hash once, then directly
    first = false;
    check(F.t === Math.max(0, Math.min(m.cycles - 1, t)), where, 't=' + t + ' shows cycle ' + F.t);
    for (const key of keys) {
      const el = F.els.get(key), info = elementInfo(m, F.state, key), w = where + ' t=' + t + ' ' + key;
      if (!check(info, w, 'no description')) continue;
      check(kStates[info.state], w, 'unknown state ' + info.state);
      const r = el.getBoundingClientRect();
      check(r.width > 0 || r.height > 0, w, 'is not on the page');
      mouse(el, 'mouseover', r.left + r.width / 2, r.top + r.height / 2);
      const card = hoverCard.text();
      check(card.startsWith(info.title), w, 'hover card reads: ' + card.slice(0, 60));
      check(!kBadText.test(card), w, 'hover card shows: ' + card);
      mouse(el, 'mouseout', 0, 0);
    }
    // A unit with nothing running is never "queued (unit busy)".
    for (const [u, us] of F.state.units.entries()) {
      if (us.state === 'queued') check(runningAt(m, u, F.t).length > 0, where + ' t=' + t, m.units[u] + ' is queued while idle');
    }
    // The FIFO's level text stays above its fill bar, even full.
    const fifoLine = F.box.querySelector('[data-line="fifo"]');
    if (fifoLine && fifoLine.textContent) {
      const bb = fifoLine.getBBox();
      check(bb.y + bb.height <= 340 - 94 + 0.5, where + ' t=' + t, 'the FIFO text overlaps its bar');
    }
    // The MXU block shows what runningAt says.
    const mxuBusy = runningAt(m, m.U.MXU, F.t).length > 0;
    // (Outside the traced cycles there is no state to show: an open instruction's drawn end is not a record.)
    if (!F.state.untraced) check(mxuBusy === ['busy', 'dram', 'arb'].includes(F.state.units[m.U.MXU].state), where + ' t=' + t, 'MXU state disagrees with its instructions');
    textOk(F.el, where + ' t=' + t, check);
  }
  // The scrubber moves the cycle.
  const mid = Math.floor(m.cycles / 2);
  F.scrub.value = mid;
  F.scrub.dispatchEvent(new Event('input'));
  check(F.t === Math.max(0, Math.min(m.cycles - 1, mid)), where, 'the scrubber set cycle ' + F.t + ', not ' + mid);
  // Controls: step in instruction mode, then play a few frames.
  F.mode.value = 'instrs'; F.fillSpeeds();
  F.setT(0);
  F.step(1);
  const next = m.startsSorted[upperBound(m.startsSorted, 0)];
  check(m.n === 0 || next === undefined || F.t === next, where, 'instruction step went to ' + F.t + ', not ' + next);
  F.mode.value = 'cycles'; F.fillSpeeds();
  F.setT(0);
  F.play();
  for (let k = 0; k < 4; ++k) await nextFrame();
  F.pause();
  check(m.cycles < 2 || F.t > 0, where, 'play did not advance the cycle');
}

// Every table of a view exports (CSV and Copy): an HTML table's CSV has its rows and cells as
// shown (numbers plain) and reads back field for field; a virtualised table's has every row of
// its filter (not only those drawn).
function selftestExports(el, where, check) {
  for (const t of el.querySelectorAll('table.plain')) {
    const name = where + ' table ' + (t.id || t.className);
    if (!check(t.querySelector(':scope > caption .export-csv') && t.querySelector(':scope > caption .export-copy'), name, 'has no CSV / Copy buttons')) continue;
    const d = htmlTableData(t), back = parseCsv(delimited(d, 'csv'));
    check(d.rows.length === t.rows.length - 1 && back.length === t.rows.length, name, 'exports ' + d.rows.length + ' rows of ' + (t.rows.length - 1));
    let same = true;
    for (let r = 0; r < t.rows.length && same; ++r) {
      const cells = Array.from(t.rows[r].cells);
      for (let k = 0; k < cells.length && same; ++k) {
        const shown = cells[k].textContent.replace(/\s*[▲▼]$/, '').trim(), got = back[r][k];
        if (got !== plainValue(shown) || (shown !== '–' && got.replace(/[,−-]/g, '') !== shown.replace(/[,−-]/g, ''))) {
          same = false;
          check(false, name, 'row ' + r + ' cell ' + k + ' shows "' + shown + '" but exports "' + got + '"');
        }
      }
    }
    check(!kBadText.test(delimited(d, 'csv')), name, 'exports NaN, undefined or an object');
  }
  for (const vt of el.querySelectorAll('.vt')) {
    check(vt.previousElementSibling && vt.previousElementSibling.querySelector('.export-csv'), where + ' ' + vt.id, 'has no CSV / Copy buttons');
  }
}

async function selftestTables(m, at, check, pi) {
  const I = InstructionsView, where = at + ' instructions';
  await show({ profile: pi, view: 'instructions', filter: null });
  const tb = I.table;
  // Headers are not cut, with the sort arrow shown.
  for (const [view, t] of [['instructions', () => I.table], ['source', () => SourceView.table]]) {
    await show({ view });
    const tt = t();
    if (!tt) continue;
    tt.sortBy(tt.columns.length - 1);
    for (const d of tt.head.querySelectorAll('div')) check(d.scrollWidth <= d.clientWidth + 1, at + ' ' + view, 'header "' + d.textContent + '" is cut');
  }
  await show({ view: 'instructions' });
  check(tb.rows.length === m.n, where, tb.rows.length + ' rows for ' + m.n + ' instructions');
  check(m.n === 0 || tb.renderedRows().length > 0, where, 'no rows rendered');
  const cols = tb.columns.map((c, k) => k).filter((k) => tb.columns[k].key);
  for (const k of m.n > 200000 ? cols.slice(0, 3) : cols) {
    tb.sortCol = -1;
    tb.sortBy(k);
    const key = tb.columns[k].key, rows = tb.rows;
    let sorted = true;
    // Amounts start largest first, positions in order.
    const sgn = tb.columns[k].firstDesc ? -1 : 1;
    check(tb.desc === !!tb.columns[k].firstDesc, where, 'column ' + tb.columns[k].label + ' first sorts ' + (tb.desc ? 'descending' : 'ascending'));
    for (let r = 1; r < Math.min(rows.length, 2000); ++r) if (sgn * key(rows[r - 1]) > sgn * key(rows[r])) { sorted = false; break; }
    check(sorted, where, 'column ' + tb.columns[k].label + ' is not sorted');
  }
  tb.body.scrollTop = 1e9;
  tb.paint();
  const shown = tb.renderedRows();
  check(m.n === 0 || shown[shown.length - 1] === tb.rows[tb.rows.length - 1], where, 'scrolling to the end does not show the last row');
  const mxu = m.U.MXU;
  const count = m.unit.reduce((a, u) => a + (u === mxu ? 1 : 0), 0);
  await show({ view: 'instructions', filter: 'unit:' + m.units[mxu] });
  check(I.table.rows.length === count, where, 'unit filter kept ' + I.table.rows.length + ' of ' + count);
  check(I.table.rows.every((i) => m.unit[i] === mxu), where, 'unit filter kept other units');
  // The export is every row of the filter, in the table's order, with the profile's own values.
  if (m.n <= 200000) {
    const x = I.table.exportData(), col = (label) => x.header.indexOf(label);
    check(x.rows.length === count, where, 'the CSV of unit:' + m.units[mxu] + ' has ' + x.rows.length + ' rows, not ' + count);
    let bad = 0;
    x.rows.forEach((r, k) => {
      const i = I.table.rows[k], ev = (a) => (a[i] >= 0 ? a[i] : '');
      if (r[col('#')] !== m.idx[i] || r[col('unit')] !== m.units[mxu] || r[col('start')] !== ev(m.start) || r[col('end')] !== ev(m.end) ||
          r[col('dispatch')] !== ev(m.dispatch) || r[col('port B')] !== m.portB[i]) bad++;
    });
    check(bad === 0, where, bad + ' exported rows differ from their instructions');
    const back = parseCsv(delimited(x, 'csv'));
    check(back.length === count + 1 && (count === 0 || back[1][col('#')] === String(x.rows[0][col('#')])), where, 'the CSV does not read back');
  }
  await show({ view: 'instructions', filter: null });
  I.filter.value = '';
  I.applyFilter(true);
  const rowEl = I.table.body.querySelector('.vr');
  if (m.n && rowEl) {
    const i = +rowEl.dataset.i;
    rowEl.click();
    check(app.view === TimelineView && TimelineView.pin === i, where, 'clicking a row did not open it in the timeline');
  }
  const S = SourceView;
  await show({ view: 'source' });
  check(S.table.rows.length === m.sourceRows.length + 1, at + ' source', 'source rows');
  const first = Array.from(S.table.body.querySelectorAll('.vr')).find((r) => r.dataset.i !== undefined && S.rows[+r.dataset.i].id >= -1);
  if (first) {
    const k = +first.dataset.i;
    first.click();
    check(app.view === InstructionsView && I.table.rows.length === S.rows[k].count, at + ' source', 'clicking a line listed ' + I.table.rows.length + ' instructions, not ' + S.rows[k].count);
  }
  await show({ view: 'overview', filter: null, pin: null, t: null });
}
