// Loading a profile off the page's thread: a Web Worker made from this very script (a Blob of the
// page's own script text, so the page stays one file that works from file:// and from `lens
// open`) inflates, parses and indexes the file and hands each profile's model to the page,
// its typed arrays transferred rather than copied. Where a worker cannot start, the same steps
// run in the page.

// The page's script text, for the worker (empty inside the worker itself).
const kScriptText = typeof document !== 'undefined' && document.currentScript ? document.currentScript.textContent : '';

// Inflates, parses and checks `bytes`, then builds every profile's model, `first` first.
// post(message, transfers) receives, in order:
//   {type: 'progress', stage: 'inflating'|'parsing'|'indexing', fraction}
//   {type: 'file', profiles: [{name, kind, cycles}], timing}
//   {type: 'model', pi, model} or {type: 'model-error', pi, message} per profile
//   {type: 'done', timing}, or {type: 'error', message} when the file cannot be read.
async function loadPipeline(bytes, name, first, post) {
  const progress = (stage, fraction) => post({ type: 'progress', stage, fraction });
  const began = performance.timeOrigin + performance.now();  // the page places it on its clock
  let doc, timing;
  try {
    ({ doc, timing } = await decodeProfileFile(bytes, name, progress));
  } catch (e) {
    post({ type: 'error', message: e instanceof LoadError ? e.message : 'internal error: ' + (e && e.stack || e), internal: !(e instanceof LoadError) });
    return;
  }
  const count = doc.profiles.length;
  timing.began = began;
  post({ type: 'file', profiles: doc.profiles.map((p) => ({ name: p.name, kind: p.kind, cycles: p.cycles })), timing });
  const order = [Math.max(0, Math.min(count - 1, first | 0))];
  for (let pi = 0; pi < count; ++pi) if (pi !== order[0]) order.push(pi);
  const t0 = performance.now();
  for (const [k, pi] of order.entries()) {
    progress('indexing', k / count);
    try {
      const model = buildModel(doc, pi);
      doc.profiles[pi] = null;  // its columns now belong to the model (and move to the page)
      model.postedAt = performance.timeOrigin + performance.now();
      post({ type: 'model', pi, model }, transfersOf(model));
    } catch (e) {
      post({ type: 'model-error', pi, message: e instanceof LoadError ? e.message : 'internal error: ' + (e && e.stack || e) });
    }
  }
  post({ type: 'done', timing: { model_ms: performance.now() - t0 } });
}

// Every ArrayBuffer under a model (typed arrays in objects and arrays of objects), once each.
function transfersOf(model) {
  const out = new Set();
  const walk = (v) => {
    if (!v || typeof v !== 'object') return;
    if (ArrayBuffer.isView(v)) { out.add(v.buffer); return; }
    if (Array.isArray(v)) {
      // Long arrays of strings or numbers (names, details) hold no buffers: skip them quickly.
      if (v.length && (typeof v[0] !== 'object' || v[0] === null)) return;
      for (const x of v) walk(x);
      return;
    }
    for (const k in v) walk(v[k]);
  };
  walk(model);
  return Array.from(out);
}

// Worker side: one file per worker, the model messages posted back as the pipeline goes.
function workerMain() {
  self.onmessage = (e) => {
    const { bytes, name, first } = e.data;
    loadPipeline(bytes, name, first, (msg, transfers) => self.postMessage(msg, transfers || []));
  };
}

// Page side: loads `bytes` (a Uint8Array), in a worker unless `inPageOnly`, and calls
// on[message.type](message, 'worker' | 'page') for each message of loadPipeline.
// Returns {done: Promise, cancel()}; cancel() stops a load that is no longer wanted.
function loadProfileBytes(bytes, name, first, inPageOnly, on) {
  let cancelled = false, worker = null, finish;
  const done = new Promise((resolve) => { finish = resolve; });
  const handle = (msg) => {
    if (cancelled) return;
    if (on[msg.type]) on[msg.type](msg, worker ? 'worker' : 'page');
    if (msg.type === 'done' || msg.type === 'error') {
      if (worker) worker.terminate();
      bytes = null;  // kept only for a fallback to the page's thread
      finish();
    }
  };
  // Started from a timer: the caller gets its handle before the first message, and the page
  // paints its progress message before the work begins.
  const inPage = () => setTimeout(() => {
    loadPipeline(bytes, name, first, handle).catch((e) => handle({ type: 'error', message: 'internal error: ' + (e && e.stack || e), internal: true }));
  }, 0);
  try {
    if (!inPageOnly && kScriptText && typeof Worker !== 'undefined') {
      const url = URL.createObjectURL(new Blob([kScriptText], { type: 'text/javascript' }));
      worker = new Worker(url);
      done.then(() => URL.revokeObjectURL(url));
    }
  } catch (e) {
    worker = null;  // e.g. a browser that refuses workers from blob: URLs of a file:// page
  }
  if (!worker) {
    inPage();
  } else {
    let heard = false;
    worker.onmessage = (e) => { heard = true; handle(e.data); };
    // A worker that fails before its first message (refused, or killed) leaves the load to the page.
    worker.onerror = (e) => {
      e.preventDefault();
      worker.terminate();
      if (heard) handle({ type: 'error', message: 'internal error in the loader: ' + e.message, internal: true });
      else { worker = null; inPage(); }
    };
    // A copy, not a transfer: the page keeps the bytes in case it has to load them itself.
    worker.postMessage({ bytes, name, first });
  }
  return { done, cancel() { cancelled = true; if (worker) worker.terminate(); finish(); } };
}
