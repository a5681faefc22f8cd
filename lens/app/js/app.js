// The page: header (profile selector, view tabs, open file), loading and error messages, the URL
// hash (view, t, profile, pin, range, filter) and keyboard shortcuts.

const kViews = [OverviewView, CyclesView, TimelineView, FloorplanView, InstructionsView, SourceView, ProgramView];

const app = {
  doc: null, name: '', models: [], m: null, view: null, params: {},
  timing: { start_ms: performance.now() },
};

// The hash the page shows: written to the URL at most every kHashWriteMs (writeHash), since
// chromium throttles a page that changes its history faster and then drops the writes.
const kHashWriteMs = 250;
const hashState = { text: null, timer: 0, last: -Infinity, push: false, writes: 0 };

function currentHash() { return hashState.text !== null ? hashState.text : location.hash; }

function parseHash() {
  const out = {};
  for (const part of currentHash().replace(/^#/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const k = decodeURIComponent(eq < 0 ? part : part.slice(0, eq));
    out[k] = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1));
  }
  return out;
}

// Updates hash parameters (null removes one); `push` adds a history entry; `apply` re-renders.
function setHash(updates, push = false, apply = true) {
  const p = Object.assign(parseHash(), updates);
  const order = ['selftest', 'profile', 'base', 'compare', 'view', 't', 'pin', 'range', 'sel', 'find', 'filter'];
  const keys = Object.keys(p).filter((k) => p[k] !== null && p[k] !== undefined)
    .sort((a, b) => ((order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99)));
  const text = '#' + keys.map((k) => (p[k] === '' ? encodeURIComponent(k) : encodeURIComponent(k) + '=' + encodeURIComponent(p[k]))).join('&');
  if (text !== currentHash()) {
    hashState.text = text;
    hashState.push = hashState.push || push;
    writeHash();
  }
  if (apply) applyHash();
}

// Writes the pending hash now when the last write is kHashWriteMs old, else once that much has
// passed (the latest state wins; a push asked for meanwhile makes that write a history entry).
function writeHash(now = false) {
  if (hashState.text === null || hashState.timer && !now) return;
  const wait = hashState.last + kHashWriteMs - performance.now();
  if (wait > 0 && !now) { hashState.timer = setTimeout(() => { hashState.timer = 0; writeHash(); }, wait); return; }
  if (hashState.timer) { clearTimeout(hashState.timer); hashState.timer = 0; }
  const text = hashState.text;
  hashState.text = null;
  if (text !== location.hash) {
    if (hashState.push) history.pushState(null, '', text); else history.replaceState(null, '', text);
    hashState.writes++;
    hashState.last = performance.now();
  }
  hashState.push = false;
}

// A time the loader took (timeOrigin + now, in a worker or the page) in ms since app.timing.start_ms.
function pageMs(at) { return at - performance.timeOrigin - app.timing.start_ms; }

function showMessage(kind, text) {
  const el = byId('message');
  el.className = kind;
  el.hidden = !text;
  el.textContent = '';
  if (text) el.append(h('b', {}, kind === 'error' ? 'Cannot open this profile. ' : ''), text);
}

// The model of profile `pi` (the worker sends each as it is built); throws the LoadError of a
// profile that could not be built, undefined while it is still on its way.
function modelOf(pi) {
  const m = app.models[pi];
  if (m && m.error) throw new LoadError(m.error);
  return m;
}

// The profile `profile=` names in a file of `count` profiles: out-of-range or malformed indices
// fall back to the first profile ({pi, bad}).
function profileIndex(text, count) {
  if (text === undefined || text === '') return { pi: 0, bad: false };
  const want = Number(text);
  const ok = Number.isInteger(want) && want >= 0 && want < count;
  return { pi: ok ? want : 0, bad: !ok };
}

function applyHash() {
  const params = app.params = parseHash();
  if (!app.doc) return;
  const count = app.doc.profiles.length;
  const { pi, bad } = profileIndex(params.profile, count);
  byId('profile-select').value = String(pi);
  let m;
  try {
    m = modelOf(pi);
  } catch (e) {
    showError(e);
    return;
  }
  if (!m) {  // the worker is still indexing it: the 'model' message applies the hash again
    showProgress(app.name, 'indexing', 0, 'profile ' + pi);
    return;
  }
  if (app.error || app.showingProgress || app.badProfile) {
    showMessage('', '');
    app.error = null;
    app.showingProgress = false;
    app.badProfile = false;
  }
  if (bad) {
    showMessage('info', 'profile=' + params.profile + ': this file has ' + count + ' profile' + (count === 1 ? '' : 's') +
      ' (0–' + (count - 1) + '); showing profile 0.');
    app.badProfile = true;
  }
  byId('views').hidden = false;
  byId('profile-info').textContent = app.name + ' · ' + m.kind + ' · ' + fmtInt(m.n) + ' instructions';
  byId('profile-info').title = byId('profile-info').textContent;
  const view = kViews.find((v) => v.key === params.view) || kViews[0];
  if (app.view !== view || app.m !== m) {
    if (app.view && app.view.hide) app.view.hide();
    hoverCard.hide();
  }
  app.m = m;
  app.view = view;
  for (const v of kViews) v.el.hidden = v !== view;
  byId('tabs').querySelectorAll('a').forEach((a) => a.classList.toggle('active', a.dataset.view === view.key));
  document.title = 'Lens · ' + m.name + ' · ' + view.title;
  // A view that needs a trace says so plainly on a counters-only profile, instead of an empty frame.
  const noTrace = !!view.needsTrace && !m.hasTrace;
  view.el.classList.toggle('no-trace', noTrace);
  view.noTraceEl.innerHTML = '';
  if (noTrace) {
    view.noTraceEl.append(h('h2', {}, view.title), noTraceNote(m, 'The ' + view.title.toLowerCase() + ' view needs the instructions of a trace; the overview and the program show what this profile has.'));
    showCompareInfo();
    return;
  }
  view.render(m, params);
  showCompareInfo();
}

// The loading message: file, stage and a progress bar (stages share the bar in this order).
function showProgress(name, stage, fraction, what) {
  const order = ['reading', 'inflating', 'parsing', 'indexing'], weight = [0.02, 0.18, 0.4, 0.4];
  const k = order.indexOf(stage);
  const done = weight.slice(0, k).reduce((a, b) => a + b, 0) + weight[k] * Math.max(0, Math.min(1, fraction));
  const el = byId('message');
  el.className = 'info';
  el.hidden = false;
  el.textContent = '';
  el.append(h('b', {}, 'Opening ' + name + ' … '), stage + (what ? ' ' + what : ''),
    h('div', { class: 'progress', id: 'load-progress', role: 'progressbar', 'aria-valuenow': Math.round(100 * done) },
      h('span', { style: { width: (100 * done).toFixed(1) + '%' } })));
  byId('views').hidden = true;
  app.showingProgress = true;
}

function showError(e) {
  if (!(e instanceof LoadError)) console.error(e);
  showMessage('error', e instanceof LoadError ? e.message : 'internal error: ' + (e && e.stack || e));
  byId('views').hidden = true;
  app.error = e instanceof LoadError ? e.message : String(e);
}

// Opens a profile file's bytes: the worker checks and indexes it while the page shows progress;
// the view in the hash appears as soon as its profile's model arrives. Resolves true once the
// shown profile is on screen (or false with the error shown); app.loaded settles when every
// profile's model has arrived.
function openBytes(bytes, name) {
  if (app.load) app.load.cancel();
  Object.assign(app, { doc: null, name, models: [], m: null, error: null });
  showProgress(name, 'reading', 1);
  let shown, resolveShown;
  const onScreen = new Promise((resolve) => { resolveShown = resolve; });
  const settle = (ok) => {
    if (shown !== undefined) return;
    shown = ok && app.load === load;  // a load replaced by a newer one never counts as shown
    if (shown) app.timing.ready_ms = performance.now() - app.timing.start_ms;
    resolveShown(shown);
  };
  // The profile the hash names, clamped as applyHash does once the file's profiles are known.
  const current = () => (app.doc ? profileIndex(parseHash().profile, app.doc.profiles.length).pi : Math.max(0, parseInt(parseHash().profile, 10) || 0));
  // `loader=page` in the hash loads on the page's thread, as a browser without workers does.
  const load = app.load = loadProfileBytes(bytes, name, current(), parseHash().loader === 'page', {
    progress: (msg) => { if (!app.doc || !app.models[current()]) showProgress(name, msg.stage, msg.fraction); },
    file: (msg, where) => {
      const { began, ...timing } = msg.timing;
      // When the loader began (after the page decoded the bytes and started the worker).
      Object.assign(app.timing, timing, { loaded_in: where, decode_at_ms: Math.round(pageMs(began)) });
      app.doc = { profiles: msg.profiles };
      const sel = byId('profile-select');
      sel.innerHTML = '';
      msg.profiles.forEach((p, k) => sel.append(h('option', { value: k }, k + ': ' + p.name + ' (' + p.kind + ', ' + fmtInt(p.cycles) + ' cycles)')));
      sel.hidden = msg.profiles.length < 2;
    },
    model: (msg) => {
      app.models[msg.pi] = msg.model;
      app.timing.model_ms = (app.timing.model_ms || 0) + msg.model.buildMs;
      if (!app.timing.model_steps) app.timing.model_steps = msg.model.buildSteps;
      if (msg.pi === current()) {
        // When the first model arrived and how long its first view took to render (the bench).
        const t0 = performance.now();
        app.timing.model_at_ms = Math.round(t0 - app.timing.start_ms);
        // Between posting the model and its arrival: moving it to the page.
        app.timing.model_posted_ms = Math.round(pageMs(msg.model.postedAt));
        applyHash();
        app.timing.render_ms = Math.round(performance.now() - t0);
        settle(true);
      }
    },
    'model-error': (msg) => {
      app.models[msg.pi] = { error: msg.message };
      if (msg.pi === current()) { applyHash(); settle(false); }
    },
    error: (msg) => {
      if (msg.internal) console.error(msg.message);
      showMessage('error', msg.message);
      byId('views').hidden = true;
      app.error = msg.message;
      app.showingProgress = false;
      settle(false);
    },
  });
  app.loaded = load.done.then(() => settle(!app.error));
  return onScreen;
}

function welcome() {
  showMessage('info', '');
  const el = byId('message');
  el.hidden = false;
  el.className = 'info welcome';
  el.innerHTML = '';
  el.append(h('b', {}, 'No profile loaded.'), ' Open an .otpuprof file with the button above or drop it on this page. ',
    'From a shell: ', h('span', { class: 'mono' }, 'lens open FILE'), ' serves it here, ',
    h('span', { class: 'mono' }, 'lens html FILE -o page.html'), ' writes a standalone page.',
    h('div', { class: 'drop' }, 'Drop a profile here (gzip or plain JSON)'));
  byId('views').hidden = true;
}

async function openFileObject(file) {
  app.timing = { start_ms: performance.now() };
  // A new file starts at its first profile, with nothing pinned or filtered.
  setHash({ profile: null, pin: null, range: null, filter: null, t: null }, false, false);
  await openBytes(new Uint8Array(await file.arrayBuffer()), file.name);
}

// Every key the page answers, by where it works: the `?` help shows this table, and
// docs/lens-app.md's "Keyboard and mouse" lists the same (the browser test compares them).
const kKeyHelp = [
  ['anywhere', '1 … 7', 'switch view (in tab order)'],
  ['anywhere', '?', 'this help (Esc or ? closes it)'],
  ['timeline', 'W S', 'zoom in, out (around the pointer)'],
  ['timeline', 'A D', 'pan left, right by a fifth'],
  ['timeline', '← →', 'pan by an eighth'],
  ['timeline', '+ −', 'zoom in, out'],
  ['timeline', '0', 'the whole run'],
  ['timeline', 'Enter, Shift-Enter', 'next, previous highlight match (in the search box too)'],
  ['timeline', 'Esc', 'clear the selection, else unpin'],
  ['floorplan', 'Space', 'play / pause'],
  ['floorplan', '← →', 'step back, forward'],
  ['floorplan', 'Home End', 'first, last cycle'],
];

// The keyboard help (`?`): an overlay over the page, closed by Esc, `?` or a click.
const keyHelp = {
  el: null,
  get open() { return !!this.el && !this.el.hidden; },
  toggle(show = !this.open) {
    if (!this.el) {
      this.el = h('div', { id: 'key-help', role: 'dialog', 'aria-label': 'Keyboard shortcuts', hidden: true, onclick: (e) => { if (e.target === this.el) this.toggle(false); } },
        h('div', { class: 'kh-box' }, h('h2', {}, 'Keyboard'),
          exportable(h('table', { class: 'plain', id: 'key-help-table' }, h('tr', {}, h('th', { class: 'l' }, 'where'), h('th', { class: 'l' }, 'key'), h('th', { class: 'l' }, 'action')),
            kKeyHelp.map(([where, keys, what]) => h('tr', {}, h('td', { class: 'l' }, where),
              h('td', { class: 'l' }, keys.split(/(, | )/).map((k) => (k === ' ' || k === ', ' ? k : h('kbd', {}, k)))), h('td', { class: 'l' }, what)))), 'keys'),
          h('p', { class: 'muted' }, 'Mouse: timeline wheel zooms, drag pans, shift-drag selects, double-click shows the whole run, click pins; tables sort by a click on a header.'),
          h('button', { onclick: () => this.toggle(false) }, 'Close')));
      document.body.append(this.el);
    }
    this.el.hidden = !show;
  },
};

function setupChrome() {
  const nav = byId('tabs');
  kViews.forEach((v, k) => {
    const sec = h('section', { class: 'view', id: 'view-' + v.key, hidden: true });
    byId('views').append(sec);
    v.mount(sec);
    v.el = sec;
    v.noTraceEl = h('div', { class: 'notrace-slot' });
    sec.prepend(v.noTraceEl);
    nav.append(h('a', { href: '#view=' + v.key, 'data-view': v.key, title: v.title + ' (' + (k + 1) + ')',
      onclick: (e) => { e.preventDefault(); setHash({ view: v.key }, true); } }, v.title));
  });
  byId('profile-select').addEventListener('change', (e) => setHash({ profile: e.target.value, pin: null, range: null, t: null }, true));
  byId('open-file').addEventListener('click', () => byId('file-input').click());
  byId('file-input').addEventListener('change', (e) => { if (e.target.files[0]) openFileObject(e.target.files[0]); });
  byId('open-baseline').addEventListener('click', () => byId('baseline-input').click());
  byId('baseline-input').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    setHash({ base: null, compare: null }, false, false);
    app.baseLoaded = openBaseline(new Uint8Array(await f.arrayBuffer()), f.name);
  });
  let depth = 0;
  window.addEventListener('dragenter', (e) => { e.preventDefault(); depth++; byId('drop-hint').hidden = false; });
  window.addEventListener('dragleave', () => { if (--depth <= 0) { depth = 0; byId('drop-hint').hidden = true; } });
  window.addEventListener('dragover', (e) => e.preventDefault());
  window.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    byId('drop-hint').hidden = true;
    const f = e.dataTransfer && e.dataTransfer.files[0];
    if (f) openFileObject(f);
  });
  // The user edited the URL (or went back): that hash replaces any write still pending.
  window.addEventListener('hashchange', () => {
    if (hashState.timer) clearTimeout(hashState.timer);
    Object.assign(hashState, { text: null, timer: 0, push: false });
    applyHash();
  });
  window.addEventListener('pagehide', () => writeHash(true));
  window.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    // The help works before a profile is open too; while it is open, Esc closes it, not a pin.
    if (e.key === '?' || (e.key === 'Escape' && keyHelp.open)) { keyHelp.toggle(e.key === '?' ? undefined : false); e.preventDefault(); return; }
    if (!app.m) return;
    const k = '1234567'.indexOf(e.key);
    if (k >= 0 && kViews[k]) { setHash({ view: kViews[k].key }, true); e.preventDefault(); return; }
    if (app.view && app.view.onKey && app.view.onKey(e)) e.preventDefault();
  });
}

// Measures how long the page's thread was busy at a stretch while a profile loads (the longest
// gap between 20 ms timer ticks, in app.timing.max_stall_ms): the page must stay responsive.
function watchStalls(until) {
  let last = performance.now(), worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 20);
    last = now;
  }, 20);
  until.then(() => { clearInterval(timer); app.timing.max_stall_ms = Math.round(worst); });
}

async function main() {
  setupChrome();
  let src = null;
  try {
    src = await initialSource();
  } catch (e) {
    showError(e);
  }
  if (src) {
    const shown = openBytes(src.bytes, src.name);
    watchStalls(shown);
    await shown;
    // The compare view's baseline (`--baseline`), after the profile is on screen.
    let base = null;
    try {
      base = embeddedBaseline();
    } catch (e) {
      compare.name = 'baseline';
      compare.error = e.message;
      showCompareInfo();
    }
    if (base) app.baseLoaded = openBaseline(base.bytes, base.name);
  } else if (!app.error) welcome();
  document.body.dataset.ready = app.doc && !app.error ? 'profile' : (app.error ? 'error' : 'empty');
  if ('selftest' in parseHash()) {
    await app.loaded;
    if (app.baseLoaded) await app.baseLoaded;
    await runSelftest();
  }
}

if (typeof document === 'undefined') {
  workerMain();
} else {
  // For the browser test: the app's state, the analysis it shares with `lens summary`, and the parser.
  window.lens = { app, exportState, parseCsv, keyHelp, kKeyHelp, filterInstrs, compare, compareOf, depsOf, hashState, flushHash: () => writeHash(true), summary: (pi) => summaryOf(modelOf(pi || 0)), setHash,
    parse: (text, name) => parseProfileJson(new TextEncoder().encode(text), name || 'test.json') };
  main().catch((e) => { showError(e); document.body.dataset.ready = 'error'; });
}
