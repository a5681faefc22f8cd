// Getting a profile file into the page: embedded data (lens html), /profile (lens open), or a file
// picked or dropped; gzip inflated in the browser; format and version checked with clear messages
// (the same wording as the C++ reader, docs/profile.md).

class LoadError extends Error {}

// Bytes of the profile embedded by `lens html` (base64 of the gzip bytes), or null.
function embeddedBytes() {
  const tag = byId('lens-data');
  const text = tag ? tag.textContent.trim() : '';
  if (!text || text.startsWith('<!' + '--')) return null;  // the unreplaced marker
  let bin;
  try {
    bin = atob(text);
  } catch (e) {
    throw new LoadError('embedded profile: the page\'s base64 data is damaged (' + e.message + ')');
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
  return bytes;
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

async function gunzip(bytes, name) {
  if (typeof DecompressionStream === 'undefined') {
    throw new LoadError(name + ': this browser cannot inflate gzip (no DecompressionStream); ' +
                        'use a current Chromium or Firefox, or open the plain JSON (zcat FILE > FILE.json)');
  }
  try {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw new LoadError(name + ': corrupt or truncated gzip data (' + e.message + ')');
  }
}

// Parses and checks a profile file's bytes (gzip or plain JSON). Throws LoadError.
async function decodeProfileFile(bytes, name) {
  const t0 = performance.now();
  const raw = isGzip(bytes) ? await gunzip(bytes, name) : bytes;
  const t1 = performance.now();
  let doc;
  try {
    doc = JSON.parse(new TextDecoder().decode(raw));
  } catch (e) {
    throw new LoadError(name + ': invalid JSON: ' + e.message);
  }
  const t2 = performance.now();
  checkFile(doc, name);
  return { doc, name, timing: { inflate_ms: t1 - t0, parse_ms: t2 - t1, bytes: bytes.length, json_bytes: raw.length } };
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
    for (const key of ['instrs', 'slices', 'sources', 'notes', 'programs', 'units', 'mxu_gaps']) {
      if (p[key] !== undefined && !Array.isArray(p[key])) fail(at + '.' + key + ': expected an array');
    }
  });
}
