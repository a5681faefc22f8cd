// Getting a profile file into the page: embedded data (lens html), /profile (lens open), or a file
// picked or dropped; gzip inflated in the browser; format and version checked with clear messages
// (the same wording as the C++ reader, docs/profile.md).

class LoadError extends Error {}

// Bytes of the profile embedded by `lens html` (base64 of the gzip bytes) in element `id`
// (lens-data, or lens-baseline for the compare view's baseline), or null.
function embeddedBytes(id = 'lens-data') {
  const tag = byId(id);
  const text = tag ? tag.textContent.trim() : '';
  if (!text || text.startsWith('<!' + '--')) return null;  // the unreplaced marker
  try {
    if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
    const bin = atob(text);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
    return bytes;
  } catch (e) {
    throw new LoadError((id === 'lens-data' ? 'embedded profile' : 'embedded baseline') + ': the page\'s base64 data is damaged (' + e.message + ')');
  }
}

// The first profile source available at start-up: {bytes, name}, or null when there is none.
async function initialSource() {
  const embedded = embeddedBytes();
  if (embedded) return { bytes: embedded, name: byId('lens-data').dataset.name || 'embedded profile' };
  if (location.protocol === 'http:' || location.protocol === 'https:') {
    let r;
    try {
      r = await fetch('/profile', { cache: 'no-store' });
    } catch (e) {
      throw new LoadError('/profile: the Lens server did not answer (' + e.message + '); is `lens open` still running?');
    }
    if (r.status === 404) return null;
    const name = r.headers.get('X-Lens-File') || '/profile';
    if (!r.ok) throw new LoadError(name + ': the server answered HTTP ' + r.status + ': ' + (await r.text()));
    return { bytes: new Uint8Array(await r.arrayBuffer()), name };
  }
  return null;
}

function isGzip(bytes) { return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b; }

// Inflates gzip bytes with the browser's DecompressionStream into one buffer sized from the gzip
// trailer (ISIZE, the length mod 2^32), grown if the data is longer; onProgress(fraction).
async function gunzip(bytes, name, onProgress) {
  if (typeof DecompressionStream === 'undefined') {
    throw new LoadError(name + ': this browser cannot inflate gzip (no DecompressionStream); ' +
                        'use a current Chromium or Firefox, or open the plain JSON (zcat FILE > FILE.json)');
  }
  const n = bytes.length;
  const isize = n >= 18 ? (bytes[n - 4] | bytes[n - 3] << 8 | bytes[n - 2] << 16 | bytes[n - 1] << 24) >>> 0 : 0;
  // A damaged trailer must not ask for gigabytes: DEFLATE expands at most about 1032 times.
  let out = new Uint8Array(isize && isize <= 1032 * n ? Math.min(isize, 1 << 30) : 4 * n + (1 << 16));
  let used = 0;
  try {
    const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip')).getReader();
    for (let chunks = 1; ; ++chunks) {
      const { done, value } = await reader.read();
      if (done) break;
      if (used + value.length > out.length) {
        const bigger = new Uint8Array(Math.max(2 * out.length, used + value.length));
        bigger.set(out.subarray(0, used));
        out = bigger;
      }
      out.set(value, used);
      used += value.length;
      if (onProgress && chunks % 64 === 0 && isize) onProgress(Math.min(1, used / isize));
    }
  } catch (e) {
    throw new LoadError(name + ': corrupt or truncated gzip data (' + e.message + ')');
  }
  return out.subarray(0, used);
}

// Inflates (if gzip), parses and checks a profile file's bytes. Throws LoadError.
// progress(stage, fraction) reports the stages 'inflating' and 'parsing'.
async function decodeProfileFile(bytes, name, progress) {
  const t0 = performance.now();
  const raw = isGzip(bytes) ? await gunzip(bytes, name, (f) => progress('inflating', f)) : bytes;
  const t1 = performance.now();
  progress('parsing', 0);
  const doc = parseProfileJson(raw, name, (f) => progress('parsing', f));
  const t2 = performance.now();
  checkFile(doc, name);
  return { doc, timing: { inflate_ms: t1 - t0, parse_ms: t2 - t1, bytes: bytes.length, json_bytes: raw.length } };
}

const kKinds = ['rtl', 'isa', 'board', 'hw'];

// The header and each profile's required keys; rows are checked as the model is built.
function checkFile(doc, name) {
  const fail = (msg) => { throw new LoadError(name + ': ' + msg); };
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) fail('not an openTPU profile (not a JSON object)');
  if (doc.format !== kFormat) fail('not an openTPU profile (format ' + JSON.stringify(doc.format) + ')');
  if (!Number.isInteger(doc.version)) fail('version: expected an integer, got ' + JSON.stringify(doc.version));
  if (doc.version > kVersion) {
    fail('version ' + doc.version + ' is newer than this reader (' + kVersion + '); open it with a newer Lens');
  }
  if (!Array.isArray(doc.profiles)) fail('profiles: expected an array');
  if (doc.profiles.length === 0) fail('profiles: the file holds no profile');
  doc.profiles.forEach((p, i) => {
    const at = 'profiles[' + i + ']';
    if (typeof p !== 'object' || p === null || Array.isArray(p)) fail(at + ': expected an object');
    if (!kKinds.includes(p.kind)) fail(at + '.kind: expected one of ' + kKinds.join(', ') + ', got ' + JSON.stringify(p.kind));
    if (typeof p.name !== 'string') fail(at + '.name: expected a string');
    if (!Number.isFinite(p.cycles) || p.cycles < 0) fail(at + '.cycles: expected a non-negative integer');
    for (const key of ['slices', 'sources', 'notes', 'programs', 'units', 'mxu_gaps']) {
      if (p[key] !== undefined && !Array.isArray(p[key])) fail(at + '.' + key + ': expected an array');
    }
    // parse.js turns an `instrs` array into columns; anything else is not an array.
    if (p.instrs !== undefined && !(p.instrs instanceof Object && p.instrs.nameId instanceof Uint16Array)) {
      fail(at + '.instrs: expected an array');
    }
  });
}
