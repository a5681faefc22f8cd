// The page: header (profile selector, view tabs, open file), loading and error messages, the URL
// hash (view, t, profile, pin, range, filter) and keyboard shortcuts.

const kViews = [OverviewView, CyclesView, TimelineView, FloorplanView, InstructionsView, SourceView];

const app = {
  doc: null, name: '', models: [], m: null, view: null, params: {},
  timing: { start_ms: performance.now() },
};

function parseHash() {
  const out = {};
  for (const part of location.hash.replace(/^#/, '').split('&')) {
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
  const order = ['selftest', 'profile', 'view', 't', 'pin', 'range', 'filter'];
  const keys = Object.keys(p).filter((k) => p[k] !== null && p[k] !== undefined)
    .sort((a, b) => ((order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99)));
  const text = '#' + keys.map((k) => (p[k] === '' ? encodeURIComponent(k) : encodeURIComponent(k) + '=' + encodeURIComponent(p[k]))).join('&');
  if (text !== location.hash) {
    if (push) history.pushState(null, '', text); else history.replaceState(null, '', text);
  }
  if (apply) applyHash();
}

function showMessage(kind, text) {
  const el = byId('message');
  el.className = kind;
  el.hidden = !text;
  el.textContent = '';
  if (text) el.append(h('b', {}, kind === 'error' ? 'Cannot open this profile. ' : ''), text);
}

// The model of profile `pi`, built on first use.
function modelOf(pi) {
  if (!app.models[pi]) {
    const t0 = performance.now();
    app.models[pi] = buildModel(app.doc, pi);
    app.timing.model_ms = (app.timing.model_ms || 0) + performance.now() - t0;
  }
  return app.models[pi];
}

function applyHash() {
  const params = app.params = parseHash();
  if (!app.doc) return;
  const pi = Math.max(0, Math.min(app.doc.profiles.length - 1, parseInt(params.profile, 10) || 0));
  let m;
  try {
    m = modelOf(pi);
  } catch (e) {
    showError(e);
    return;
  }
  byId('profile-select').value = String(pi);
  byId('profile-info').textContent = app.name + ' · ' + m.kind + ' · ' + fmtInt(m.n) + ' instructions';
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
  view.render(m, params);
}

function showError(e) {
  if (!(e instanceof LoadError)) console.error(e);
  showMessage('error', e instanceof LoadError ? e.message : 'internal error: ' + (e && e.stack || e));
  byId('views').hidden = true;
  app.error = e instanceof LoadError ? e.message : String(e);
}

// Opens a profile file's bytes: checks it, fills the selector and shows the view in the hash.
async function openBytes(bytes, name) {
  try {
    const { doc, timing } = await decodeProfileFile(bytes, name);
    Object.assign(app.timing, timing);
    app.doc = doc;
    app.name = name;
    app.models = [];
    app.m = null;
    app.error = null;
    const sel = byId('profile-select');
    sel.innerHTML = '';
    doc.profiles.forEach((p, k) => sel.append(h('option', { value: k }, k + ': ' + p.name + ' (' + p.kind + ', ' + fmtInt(p.cycles) + ' cycles)')));
    sel.hidden = doc.profiles.length < 2;
    showMessage('', '');
    byId('views').hidden = false;
    applyHash();
    app.timing.ready_ms = performance.now() - app.timing.start_ms;
    return true;
  } catch (e) {
    showError(e);
    return false;
  }
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
  showMessage('info', 'Opening ' + file.name + ' …');
  app.timing.start_ms = performance.now();
  const ok = await openBytes(new Uint8Array(await file.arrayBuffer()), file.name);
  if (ok) setHash({ profile: null, pin: null, range: null, filter: null, t: null });
}

function setupChrome() {
  const nav = byId('tabs');
  kViews.forEach((v, k) => {
    const sec = h('section', { class: 'view', id: 'view-' + v.key, hidden: true });
    byId('views').append(sec);
    v.mount(sec);
    v.el = sec;
    nav.append(h('a', { href: '#view=' + v.key, 'data-view': v.key, title: v.title + ' (' + (k + 1) + ')',
      onclick: (e) => { e.preventDefault(); setHash({ view: v.key }, true); } }, v.title));
  });
  byId('profile-select').addEventListener('change', (e) => setHash({ profile: e.target.value, pin: null, range: null, t: null }, true));
  byId('open-file').addEventListener('click', () => byId('file-input').click());
  byId('file-input').addEventListener('change', (e) => { if (e.target.files[0]) openFileObject(e.target.files[0]); });
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
  window.addEventListener('hashchange', () => applyHash());
  window.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, select, textarea')) return;
    if (e.ctrlKey || e.metaKey || e.altKey || !app.m) return;
    const k = '123456'.indexOf(e.key);
    if (k >= 0 && kViews[k]) { setHash({ view: kViews[k].key }, true); e.preventDefault(); return; }
    if (app.view && app.view.onKey && app.view.onKey(e)) e.preventDefault();
  });
}

async function main() {
  setupChrome();
  let src = null;
  try {
    src = await initialSource();
  } catch (e) {
    showError(e);
  }
  if (src) await openBytes(src.bytes, src.name);
  else if (!app.error) welcome();
  document.body.dataset.ready = app.doc ? 'profile' : (app.error ? 'error' : 'empty');
  if ('selftest' in parseHash()) await runSelftest();
}

window.lens = { app, summary: (pi) => summaryOf(modelOf(pi || 0)), setHash };
main().catch((e) => { showError(e); document.body.dataset.ready = 'error'; });
