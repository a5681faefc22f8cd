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
  res.errors = window.__lensErrors.slice();
  res.ok = res.failures.length === 0 && res.errors.length === 0;
  res.elapsed_ms = Math.round(performance.now() - t0);
  res.timing = app.timing;
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
    for (const k of kCauses) { s += m.attr.per[k.key][w]; if (m.attr.per[k.key][w] < 0) check(false, at, 'negative ' + k.key + ' in window ' + w); }
    if (Math.abs(s - W.col.n[w]) > 1e-6) { check(false, at, 'window ' + w + ' causes add to ' + s + ', not ' + W.col.n[w]); break; }
  }
  check(Math.abs(m.attr.all - W.pre.n[W.n]) < 1e-6, at, 'attribution total differs from the windows\' cycles');
  m.busy.forEach((b, u) => check(b <= m.cycles + 1, at, m.units[u] + ' busy ' + b + ' exceeds the run\'s ' + m.cycles + ' cycles'));

  for (const v of kViews) {
    const ms = await show({ profile: pi, view: v.key, pin: null, range: null, filter: null, t: null }, true);
    res.view_ms[pi + ':' + v.key] = Math.round(ms);
    check(!v.el.hidden, at, v.key + ' view is hidden after selecting it');
    textOk(v.el, at + ' ' + v.key, check);
  }
  for (const [name, part] of [['overview', selftestOverview], ['timeline', selftestTimeline], ['floorplan', selftestFloorplan], ['tables', selftestTables]]) {
    const t0 = performance.now();
    await part(m, at, check, pi);
    res.view_ms[pi + ':test ' + name] = Math.round(performance.now() - t0);
  }
}

async function selftestOverview(m, at, check, pi) {
  await show({ profile: pi, view: 'overview' });
  const rows = byId('class-table').querySelectorAll('tr').length - 1;
  check(rows === m.names.length, at + ' overview', 'class table has ' + rows + ' rows for ' + m.names.length + ' classes');
  check(!!byId('roofline').querySelector('svg polyline'), at + ' overview', 'roofline chart has no ceilings');
  // The run and every class that does MACs (and moves DRAM bytes) are points; the rest are named.
  const plotted = new Set(Array.from(byId('roofline').querySelectorAll('circle[data-point]'), (c) => c.dataset.point));
  check(plotted.has('run') === (m.macs > 0 && m.bytes > 0), at + ' overview', 'roofline: the run is ' + (plotted.has('run') ? '' : 'not ') + 'a point');
  for (const c of m.classes) {
    const onChart = c.macs > 0 && c.portB * m.cfg.D + c.portA * 4 > 0 && c.busy > 0;
    check(plotted.has(c.name) === onChart, at + ' overview', 'roofline: class ' + c.name + (onChart ? ' is not a point' : ' is a point without MACs'));
    if (!onChart) check(byId('roofline').textContent.includes(c.name), at + ' overview', 'roofline: class ' + c.name + ' is neither plotted nor listed');
  }
  await show({ view: 'cycles' });
  check(byId('cycles-table').querySelectorAll('tr').length === kCauses.length + 2, at + ' cycles', 'cause table rows');
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
    check(T.v0 <= m.s[i] && m.e[i] <= T.v1 + 1, where, 'pinned #' + m.idx[i] + ' is not in view');
    const row = T.rows.find((r) => r.type === 'lane' && r.u === m.unit[i] && r.k === m.lane[i]);
    if (!check(row, where, 'no lane row for #' + m.idx[i])) continue;
    // Mouse events carry whole pixels: zoom so the bar is wide enough to hit at one.
    T.setRange(m.s[i] - 4, m.e[i] + 4, true);
    const x = Math.round(T.X((m.s[i] + m.e[i]) / 2)), y = row.y + 10;
    mouse(T.canvas, 'mousemove', rect().left + x, rect().top + y);
    const card = hoverCard.text();
    check(T.instrAt(x, y) === i, where, 'hit test at #' + m.idx[i] + ' found ' + T.instrAt(x, y));
    check(card.includes('#' + fmtInt(m.idx[i]) + ' '), where, 'hover card for #' + m.idx[i] + ' reads: ' + card.slice(0, 80));
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

async function selftestFloorplan(m, at, check, pi) {
  const F = FloorplanView, where = at + ' floorplan';
  const moments = new Set([0, Math.floor(m.cycles / 4), Math.floor(m.cycles / 2), Math.floor(3 * m.cycles / 4), Math.max(0, m.cycles - 1)]);
  const mm = m.names.indexOf('MM');
  for (let i = 0; i < m.n && mm >= 0; ++i) if (m.nameId[i] === mm) { moments.add(m.s[i]); break; }
  for (const i of sampleInstrs(m).slice(0, 3)) moments.add(Math.min(m.s[i], Math.max(0, m.cycles - 1)));
  await show({ profile: pi, view: 'floorplan', t: 0 });
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
    // The MXU block shows what runningAt says.
    const mxuBusy = runningAt(m, m.U.MXU, F.t).length > 0;
    check(mxuBusy === ['busy', 'dram', 'arb'].includes(F.state.units[m.U.MXU].state), where + ' t=' + t, 'MXU state disagrees with its instructions');
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

async function selftestTables(m, at, check, pi) {
  const I = InstructionsView, where = at + ' instructions';
  await show({ profile: pi, view: 'instructions', filter: null });
  const tb = I.table;
  check(tb.rows.length === m.n, where, tb.rows.length + ' rows for ' + m.n + ' instructions');
  check(m.n === 0 || tb.renderedRows().length > 0, where, 'no rows rendered');
  const cols = tb.columns.map((c, k) => k).filter((k) => tb.columns[k].key);
  for (const k of m.n > 200000 ? cols.slice(0, 3) : cols) {
    tb.sortCol = -1;
    tb.sortBy(k);
    const key = tb.columns[k].key, rows = tb.rows;
    let sorted = true;
    for (let r = 1; r < Math.min(rows.length, 2000); ++r) if (key(rows[r - 1]) > key(rows[r])) { sorted = false; break; }
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
  check(S.table.rows.length === m.sourceRows.length, at + ' source', 'source rows');
  const first = S.table.body.querySelector('.vr');
  if (first) {
    const k = +first.dataset.i;
    first.click();
    check(app.view === InstructionsView && I.table.rows.length === m.sourceRows[k].count, at + ' source', 'clicking a line listed ' + I.table.rows.length + ' instructions, not ' + m.sourceRows[k].count);
  }
  await show({ view: 'overview', filter: null, pin: null, t: null });
}
