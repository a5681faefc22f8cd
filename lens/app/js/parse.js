// A JSON parser for profile files that reads every profile's `instrs` rows straight into typed
// columns, with names, details and counter keys interned, instead of building a million small
// arrays as JSON.parse would (that took most of the load time and memory of a large profile).
// Everything else parses to ordinary values. Rows it cannot take on the fast path are parsed as
// plain JSON and checked by checkRow, so a malformed row gets the same message either way.

const kInstrColumns = 16;
// Row columns that are numbers (SPEC 6), read into Float64Array columns named here.
const kRowNumbers = { 0: 'slice', 1: 'idx', 2: 'pc', 3: 'unit', 6: 'dispatch', 7: 'ready', 8: 'release',
  9: 'start', 10: 'end', 11: 'source', 13: 'work', 14: 'portB', 15: 'portA' };
const kRowNumberColumns = Object.keys(kRowNumbers).map(Number);
const kMaxDepth = 128;  // base/json.h kMaxJsonDepth
const kNumberRe = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

// Strings interned by their bytes: a row's name or detail costs a hash and a compare, not a new
// string. An open-addressing table of byte entries (hash, where in the pool, string id).
class Interner {
  constructor() {
    this.strings = [];
    this.byString = new Map();
    this.slots = new Int32Array(1024);  // entry + 1; 0 = empty
    this.hashes = []; this.starts = []; this.lens = []; this.ids = [];
    this.pool = new Uint8Array(4096); this.used = 0;
  }
  // Id of the plain (ASCII, no escape) string in buf[a, b).
  bytes(buf, a, b) {
    let hash = 2166136261;
    for (let k = a; k < b; ++k) hash = Math.imul(hash ^ buf[k], 16777619);
    return this.hashed(buf, a, b, hash);
  }
  // The same, with `hash` = interHash over the bytes (computed while finding the string's end).
  hashed(buf, a, b, hash) {
    const len = b - a;
    hash = (hash ^ len) >>> 0;
    const mask = this.slots.length - 1, pool = this.pool;
    for (let s = hash & mask; ; s = (s + 1) & mask) {
      const e = this.slots[s] - 1;
      if (e < 0) return this.add(buf, a, b, hash, s);
      if (this.hashes[e] !== hash || this.lens[e] !== len) continue;
      const o = this.starts[e];
      let k = 0;
      while (k < len && pool[o + k] === buf[a + k]) ++k;
      if (k === len) return this.ids[e];
    }
  }
  add(buf, a, b, hash, slot) {
    const len = b - a;
    if (this.used + len > this.pool.length) {
      const bigger = new Uint8Array(Math.max(this.pool.length * 2, this.used + len));
      bigger.set(this.pool);
      this.pool = bigger;
    }
    this.pool.set(buf.subarray(a, b), this.used);
    const id = this.string(latin1(buf, a, b));
    this.hashes.push(hash); this.starts.push(this.used); this.lens.push(len); this.ids.push(id);
    this.used += len;
    this.slots[slot] = this.ids.length;
    if (2 * this.ids.length > this.slots.length) this.rehash();
    return id;
  }
  rehash() {
    const slots = new Int32Array(this.slots.length * 2), mask = slots.length - 1;
    for (let e = 0; e < this.ids.length; ++e) {
      let s = this.hashes[e] & mask;
      while (slots[s]) s = (s + 1) & mask;
      slots[s] = e + 1;
    }
    this.slots = slots;
  }
  // Id of a decoded string.
  string(s) {
    let id = this.byString.get(s);
    if (id === undefined) { id = this.strings.length; this.strings.push(s); this.byString.set(s, id); }
    return id;
  }
}

function latin1(buf, a, b) {
  if (b - a < 4096) return String.fromCharCode.apply(null, buf.subarray(a, b));
  let s = '';
  for (let k = a; k < b; k += 4096) s += String.fromCharCode.apply(null, buf.subarray(k, Math.min(b, k + 4096)));
  return s;
}

class ProfileParser {
  // bytes: the JSON text as UTF-8; name: the file, for messages; onProgress(fraction): sometimes.
  constructor(bytes, name, onProgress) {
    this.b = bytes; this.p = 0; this.name = name; this.onProgress = onProgress || null;
    this.decoder = new TextDecoder();
    this.depth = 0;
  }

  fail(msg) {
    throw new LoadError(this.name + ': invalid JSON at byte ' + this.p + ': ' + msg);
  }
  ws() {
    const b = this.b;
    let p = this.p, c = b[p];
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++p];
    this.p = p;
    return c;
  }
  expect(ch) {
    if (this.ws() !== ch) this.fail('expected \'' + String.fromCharCode(ch) + '\', found ' + this.found());
    this.p++;
  }
  found() { return this.p >= this.b.length ? 'the end of the data' : JSON.stringify(String.fromCharCode(this.b[this.p])); }

  // The whole file: an object whose `profiles` elements are read with profile().
  file() {
    if (this.ws() !== 123) {  // not an object: checkFile names what it is
      const v = this.value();
      if (this.ws() !== undefined) this.fail('unexpected data after the JSON value');
      return v;
    }
    const doc = this.object((key) => (key === 'profiles' && this.ws() === 91 ? this.array((i) => this.profile(i)) : this.value()));
    if (this.ws() !== undefined) this.fail('unexpected data after the JSON value');
    return doc;
  }
  // A profile object; its `instrs` becomes columns ({n, columns, names, details, counters}).
  // Its slices' bucket columns become Float64Arrays (numbers()).
  profile(i) {
    if (this.ws() !== 123) return this.value();
    return this.object((key) => {
      if (key === 'instrs' && this.ws() === 91) return this.instrs(i);
      if (key === 'slices' && this.ws() === 91) return this.array(() => this.slice());
      return this.value();
    });
  }
  slice() {
    if (this.ws() !== 123) return this.value();
    return this.object((key) => (key === 'buckets' && this.ws() === 123
      ? this.bucketColumns() || this.object(() => (this.ws() === 91 && this.numbers()) || this.value())
      : this.value()));
  }
  // The buckets object as lens writes it ({"c": [numbers], ...}: a long run's counter windows,
  // most of its file) through the browser's own JSON.parse, several times faster than reading
  // it here; null (nothing read) when it is anything else, and object() then reads it and names
  // what is wrong. The first '}' ends it exactly when JSON.parse takes the text up to there: one
  // inside a string or closing a nested object leaves the text unterminated. Every '"' must be
  // one of the keys' (no key given twice, no escaped quote), every value an array of numbers.
  bucketColumns() {
    const b = this.b, at = this.p, end = b.indexOf(125, at);
    if (end < 0) return null;
    let obj;
    try {
      obj = JSON.parse(this.decoder.decode(b.subarray(at, end + 1)));
    } catch (e) {
      return null;
    }
    const keys = Object.keys(obj);
    let quotes = 0;
    for (let q = b.indexOf(34, at); q >= 0 && q < end; q = b.indexOf(34, q + 1)) ++quotes;
    if (quotes !== 2 * keys.length || this.depth + 2 > kMaxDepth) return null;
    const out = {};
    for (const k of keys) {
      const a = obj[k];
      if (!Array.isArray(a)) return null;
      const col = out[k] = new Float64Array(a.length);
      for (let w = 0; w < a.length; ++w) {
        const x = a[w];
        if (typeof x !== 'number') return null;
        col[w] = x;
      }
    }
    this.p = end + 1;
    if (this.onProgress) this.onProgress(this.p / b.length);
    return out;
  }
  // An array of numbers as a Float64Array, or null (nothing read) when it holds anything else.
  numbers() {
    const at = this.p;
    this.p++;
    let out = new Float64Array(1024), n = 0;
    if (this.ws() === 93) { this.p++; return out.subarray(0, 0); }
    for (;;) {
      const c = this.ws();
      if (c !== 45 && !(c >= 48 && c <= 57)) { this.p = at; return null; }
      if (n === out.length) { const bigger = new Float64Array(2 * n); bigger.set(out); out = bigger; }
      out[n++] = this.number();
      const d = this.ws();
      this.p++;
      if (d === 93) return out.slice(0, n);
      if (d !== 44) { this.p = at; return null; }
    }
  }

  value() {
    const c = this.ws();
    if (c === 123) return this.object(() => this.value());
    if (c === 91) return this.array(() => this.value());
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (this.word('true')) return true;
    if (this.word('false')) return false;
    if (this.word('null')) return null;
    return this.fail('expected a value, found ' + this.found());
  }
  word(w) {
    for (let k = 0; k < w.length; ++k) if (this.b[this.p + k] !== w.charCodeAt(k)) return false;
    this.p += w.length;
    return true;
  }
  // Nesting as deep as the C++ readers allow (base/json.h), so a hostile file fails
  // with a message instead of the page's stack.
  enter() {
    if (++this.depth > kMaxDepth) this.fail('nested deeper than ' + kMaxDepth + ' levels');
  }
  // {…}: each member's value from member(key). A key given twice is an error, as in the C++
  // readers (which value would count is not defined).
  object(member) {
    this.ws();
    this.enter();
    this.expect(123);
    const out = {};
    if (this.ws() === 125) { this.p++; --this.depth; return out; }
    for (;;) {
      if (this.ws() !== 34) this.fail('expected a key, found ' + this.found());
      const at = this.p;
      const key = this.string();
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        this.p = at;
        this.fail('duplicate key ' + JSON.stringify(key.length > 64 ? key.slice(0, 64) + '...' : key));
      }
      this.expect(58);
      out[key] = member(key);
      const c = this.ws();
      this.p++;
      if (c === 125) { --this.depth; return out; }
      if (c !== 44) { this.p--; this.fail('expected \',\' or \'}\', found ' + this.found()); }
    }
  }
  array(element) {
    this.ws();
    this.enter();
    this.expect(91);
    const out = [];
    if (this.ws() === 93) { this.p++; --this.depth; return out; }
    for (;;) {
      out.push(element(out.length));
      const c = this.ws();
      this.p++;
      if (c === 93) { --this.depth; return out; }
      if (c !== 44) { this.p--; this.fail('expected \',\' or \']\', found ' + this.found()); }
    }
  }
  // End of the string starting at p (the opening quote) and whether it is plain ASCII.
  stringEnd() {
    const b = this.b, n = b.length;
    let p = this.p + 1, plain = true;
    for (;;) {
      if (p >= n) { this.p = n; this.fail('unterminated string'); }
      const c = b[p];
      if (c === 34) break;
      if (c === 92) { plain = false; p += 2; continue; }
      if (c >= 128 || c < 32) plain = false;
      ++p;
    }
    return { end: p, plain };
  }
  string() {
    const { end, plain } = this.stringEnd();
    const a = this.p;
    this.p = end + 1;
    if (plain) return latin1(this.b, a + 1, end);
    try {
      return JSON.parse(this.decoder.decode(this.b.subarray(a, end + 1)));
    } catch (e) {
      this.p = a;
      return this.fail('bad string (' + e.message + ')');
    }
  }
  number() {
    const b = this.b;
    let p = this.p, neg = false, v = 0, c = b[p];
    if (c === 45) { neg = true; c = b[++p]; }
    const first = p;
    while (c >= 48 && c <= 57) { v = v * 10 + (c - 48); c = b[++p]; }
    // Integers of up to 15 digits are exact as doubles; the rest take the general path.
    if (c !== 46 && c !== 101 && c !== 69 && p > first && p - first < 16 && (b[first] !== 48 || p - first === 1)) {
      this.p = p;
      return neg ? -v : v;
    }
    while ((c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45) c = b[++p];
    const text = latin1(b, this.p, p);
    if (!kNumberRe.test(text)) this.fail('bad number ' + JSON.stringify(text));
    this.p = p;
    return Number(text);
  }

  // `instrs` rows into columns. Unit and source ranges are checked later (adoptColumns in
  // model.js), when the profile's units and sources are known.
  instrs(pi) {
    this.expect(91);
    const t = new RowTable();
    if (this.ws() === 93) { this.p++; } else {
      for (let i = 0; ; ++i) {
        const at = this.p;
        if (i === t.cap) t.grow();
        if (!this.fastRow(t, i)) {
          this.p = at;
          this.slowRow(t, i, pi);
        }
        // Size the columns from the first row's length: rows are alike, growing copies them all.
        // The rest of the file may hold more than rows, so at most a million from the estimate.
        if (i === 0) t.reserve(Math.min(1 << 20, Math.ceil(1.05 * (this.b.length - at) / Math.max(16, this.p - at))));
        t.n = i + 1;
        if (this.onProgress && (i & 65535) === 65535) this.onProgress(this.p / this.b.length);
        const c = this.ws();
        this.p++;
        if (c === 93) break;
        if (c !== 44) { this.p--; this.fail('profiles[' + pi + '].instrs: expected \',\' or \']\', found ' + this.found()); }
      }
    }
    if (t.names.strings.length > 65535) throw new LoadError(this.name + ': profiles[' + pi + '].instrs: more than 65535 instruction names');
    return t.columns();
  }

  // One row in the shape lens writes (integers, two strings, a flat object of integers) straight
  // into the columns; false for anything else (the caller then reads it with slowRow).
  fastRow(t, i) {
    const b = this.b, num = t.num;
    let p = this.p, c = b[p];
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++p];
    if (c !== 91) return false;
    c = b[++p];
    for (let k = 0; k < kInstrColumns; ++k) {
      while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++p];
      if (k) {
        if (c !== 44) return false;
        c = b[++p];
        while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++p];
      }
      if (k === 4 || k === 5) {
        if (c !== 34) return false;
        const a = p + 1;
        let e = a, d = b[e], hash = 2166136261;
        while (d !== 34 && d !== 92 && d >= 32 && d < 128) { hash = Math.imul(hash ^ d, 16777619); d = b[++e]; }
        if (d !== 34) return false;  // escapes or non-ASCII: the slow path decodes it
        if (k === 4) t.nameId[i] = t.names.hashed(b, a, e, hash); else t.detailId[i] = t.details.hashed(b, a, e, hash);
        p = e + 1;
        c = b[p];
      } else if (k === 12) {
        this.p = p;
        if (!this.fastCounters(t, i)) return false;
        p = this.p;
        c = b[p];
      } else {
        const neg = c === 45;
        if (neg) c = b[++p];
        const first = p;
        let v = 0;
        while (c >= 48 && c <= 57) { v = v * 10 + (c - 48); c = b[++p]; }
        // Plain integers of up to 15 digits are exact; anything else takes the general path.
        if (p === first || p - first > 15 || c === 46 || c === 101 || c === 69 || (b[first] === 48 && p > first + 1)) {
          this.p = neg ? first - 1 : first;
          v = this.number();
          p = this.p;
          c = b[p];
          num[k][i] = v;
        } else num[k][i] = neg ? -v : v;
      }
    }
    while (c === 32 || c === 10 || c === 13 || c === 9) c = b[++p];
    if (c !== 93) return false;
    this.p = p + 1;
    return true;
  }
  fastCounters(t, i) {
    if (this.ws() !== 123) return false;
    this.p++;
    if (this.ws() === 125) { this.p++; return true; }
    for (;;) {
      if (this.ws() !== 34) return false;
      const { end, plain } = this.stringEnd();
      if (!plain) return false;
      const id = t.keys.bytes(this.b, this.p + 1, end);
      this.p = end + 1;
      if (this.ws() !== 58) return false;
      this.p++;
      const c = this.ws();
      if (c !== 45 && !(c >= 48 && c <= 57)) return false;
      t.counter(id)[i] = this.number();
      const d = this.ws();
      this.p++;
      if (d === 125) return true;
      if (d !== 44) return false;
    }
  }
  // Any other row: parsed as JSON, checked (a LoadError names the row), then stored.
  slowRow(t, i, pi) {
    const r = this.value();
    checkRow(r, 'profiles[' + pi + '].instrs[' + i + ']', this.name);
    for (const k of kRowNumberColumns) t.num[k][i] = r[k];
    t.nameId[i] = t.names.string(r[4]);
    t.detailId[i] = t.details.string(typeof r[5] === 'string' ? r[5] : '');
    for (const key of t.keys.strings) t.counter(t.keys.string(key))[i] = NaN;
    if (r[12] && typeof r[12] === 'object' && !Array.isArray(r[12])) {
      for (const [key, v] of Object.entries(r[12])) if (typeof v === 'number') t.counter(t.keys.string(key))[i] = v;
    }
  }
}

// The instruction rows being read: a Float64Array per number column (indexed by row column), name
// and detail ids, and a column per counter key (NaN where a row lacks it); grown by doubling.
class RowTable {
  constructor() {
    this.n = 0;
    this.cap = 1024;
    this.num = Array.from({ length: kInstrColumns }, (_, k) => (kRowNumbers[k] ? new Float64Array(this.cap) : null));
    this.nameId = new Uint16Array(this.cap);
    this.detailId = new Uint32Array(this.cap);
    this.counters = [];
    this.names = new Interner(); this.details = new Interner(); this.keys = new Interner();
  }
  grow() { this.reserve(this.cap * 2); }
  reserve(cap) {
    if (cap <= this.cap) return;
    const bigger = (a, fill) => { const x = new a.constructor(cap); if (fill !== undefined) x.fill(fill, this.cap); x.set(a); return x; };
    this.num = this.num.map((a) => a && bigger(a));
    this.nameId = bigger(this.nameId);
    this.detailId = bigger(this.detailId);
    this.counters = this.counters.map((a) => bigger(a, NaN));
    this.cap = cap;
  }
  counter(id) {
    while (id >= this.counters.length) this.counters.push(new Float64Array(this.cap).fill(NaN));
    return this.counters[id];
  }
  // {n, <column name>: Float64Array, nameId, names, detailId, details, counterKeys, counters}.
  columns() {
    // A view of a nearly full column; a copy of one the estimate made much too long.
    const n = this.n, cut = (a) => (a.length === n ? a : (a.length > 1.25 * n + 1024 ? a.slice(0, n) : a.subarray(0, n)));
    const out = { n, nameId: cut(this.nameId), names: this.names.strings, detailId: cut(this.detailId),
      details: this.details.strings, counterKeys: this.keys.strings, counters: this.counters.map(cut) };
    for (const k of kRowNumberColumns) out[kRowNumbers[k]] = cut(this.num[k]);
    return out;
  }
}

// Checks one row's shape and its number columns; unit and source ranges come later.
function checkRow(r, at, name) {
  const bad = (msg) => { throw new LoadError(name + ': ' + at + ': ' + msg); };
  if (!Array.isArray(r)) bad('expected an array of ' + kInstrColumns + ' columns');
  if (r.length !== kInstrColumns) bad('expected ' + kInstrColumns + ' columns, got ' + r.length);
  if (typeof r[4] !== 'string') bad('name: expected a string');
  for (const c of kRowNumberColumns) {
    if (typeof r[c] !== 'number' || !Number.isFinite(r[c])) bad('column ' + c + ': expected a number, got ' + JSON.stringify(r[c]));
  }
}

// Parses a profile file's JSON bytes. Throws LoadError naming the file and the byte.
function parseProfileJson(bytes, name, onProgress) {
  // A UTF-8 byte order mark is not JSON, but some editors write one.
  const start = bytes[0] === 0xEF && bytes[1] === 0xBB && bytes[2] === 0xBF ? 3 : 0;
  const parser = new ProfileParser(start ? bytes.subarray(start) : bytes, name, onProgress);
  return parser.file();
}
