// Shared helpers: formatting, DOM building, palettes, binary search, canvas set-up, hover card.

const kFormat = 'openTPU-profile';
const kVersion = 1;
const kDefaultUnits = ['DMA', 'MXU', 'QUANT', 'VPU', 'COLL'];
const kDefaultConfig = { S: 1, D: 32, MCOLS: 8, LANES: 8, CL: 2, ACT_BLOCKS: 128, TMEM_WORDS: 65536,
  DRAM_BYTES: 1073741824, IMEM_WORDS: 4096, FIFO_DEPTH: 128, WIN: 16, MEM: 'ideal' };

// Okabe-Ito: distinguishable with the common colour-vision deficiencies.
const kUnitColors = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#7F7F7F'];
const kAmber = '#E69F00';

// Unit and floorplan-element states, in the order the floorplan legend lists them.
const kStates = {
  busy: { label: 'busy', color: '#0072B2', mark: '' },
  dram: { label: 'stalled on DRAM', color: '#D55E00', mark: 'S' },
  arb: { label: 'lost TMEM arbitration', color: '#CC79A7', mark: 'A' },
  dep: { label: 'waiting on a dependency', color: '#E69F00', mark: 'D' },
  queued: { label: 'queued (unit busy)', color: '#F0E442', mark: 'Q' },
  ready: { label: 'ready, issuing (unit free)', color: '#FAF5C8', mark: 'R' },
  idle: { label: 'idle', color: '#E6E8EC', mark: '' },
  untraced: { label: 'not traced', color: '#F4F4F4', mark: '?' },
};

// A 2D context to measure text in `font` (labels that must fit their bar or column).
function textMeasure(font) {
  const ctx = textMeasure.ctx || (textMeasure.ctx = document.createElement('canvas').getContext('2d'));
  ctx.font = font;
  return ctx;
}

function byId(id) { return document.getElementById(id); }

// h('div', {class: 'x', onclick: f}, child, 'text'): a DOM element.
function h(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else if (k === 'html') e.innerHTML = v;
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

// One formatter for every number: toLocaleString builds a new one at each call, which made
// painting tables and cards slow.
const kIntFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

function fmtInt(n) {
  if (!Number.isFinite(n)) return '–';
  return kIntFormat.format(Math.round(n));
}

function fmtPct(x, digits = 1) {
  if (!Number.isFinite(x)) return '–';
  return (100 * x).toFixed(digits) + '%';
}

// 1234 -> "1.23k", for tight spaces (axes).
function fmtShort(n) {
  const a = Math.abs(n);
  if (a >= 1e9) return (n / 1e9).toFixed(a >= 1e10 ? 0 : 1) + 'G';
  if (a >= 1e6) return (n / 1e6).toFixed(a >= 1e7 ? 0 : 1) + 'M';
  if (a >= 1e4) return (n / 1e3).toFixed(0) + 'k';
  if (a >= 1e3) return (n / 1e3).toFixed(1) + 'k';
  return String(Math.round(n * 100) / 100);
}

function fmtNum(x, digits = 2) {
  if (!Number.isFinite(x)) return '–';
  return x >= 100 ? fmtInt(x) : x.toFixed(digits);
}

// Cycles as time at the profile's clock.
function fmtTime(cycles, mhz) {
  const us = cycles / (mhz || 100);
  if (!Number.isFinite(us)) return '–';
  if (us >= 1e6) return (us / 1e6).toFixed(3) + ' s';
  if (us >= 1e3) return (us / 1e3).toFixed(3) + ' ms';
  if (us >= 1) return us.toFixed(us >= 100 ? 1 : 2) + ' µs';
  return (us * 1e3).toFixed(0) + ' ns';
}

// First index in sorted `a[lo, hi)` whose value is >= x.
function lowerBound(a, x, lo = 0, hi = a.length) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// First index in sorted `a[lo, hi)` whose value is > x.
function upperBound(a, x, lo = 0, hi = a.length) {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// 0, 1, …, n-1.
function iota(n) {
  const out = new Uint32Array(n);
  for (let i = 0; i < n; ++i) out[i] = i;
  return out;
}

// `indices` ordered by keyOf(index) (ties keep their order), using one native numeric sort of
// packed keys; indices already in order come back as they are.
function sortIndices(indices, keyOf, descending = false) {
  const n = indices.length;
  let inOrder = true;
  for (let j = 1; j < n && inOrder; ++j) {
    const a = keyOf(indices[j - 1]), b = keyOf(indices[j]);
    if (descending ? a < b : a > b) inOrder = false;
  }
  if (inOrder) return indices;
  const packed = new Float64Array(n);
  let min = Infinity, max = -Infinity, integral = true;
  for (let j = 0; j < n; ++j) {
    const k = keyOf(indices[j]);
    if (k < min) min = k;
    if (k > max) max = k;
    if (!Number.isInteger(k)) integral = false;
  }
  const range = max - min;
  // key * n + position stays exact below 2^53; fall back to a comparator when it would not.
  if (n > 0 && integral && (range + 1) * n < 2 ** 52) {
    for (let j = 0; j < n; ++j) {
      const k = keyOf(indices[j]) - min;
      packed[j] = (descending ? range - k : k) * n + j;
    }
    packed.sort();
    const out = new Uint32Array(n);
    for (let j = 0; j < n; ++j) out[j] = indices[packed[j] % n];
    return out;
  }
  const keys = new Float64Array(n);
  for (let j = 0; j < n; ++j) keys[j] = keyOf(indices[j]);
  const pos = new Uint32Array(n).map((_, j) => j);
  pos.sort((a, b) => (descending ? keys[b] - keys[a] : keys[a] - keys[b]) || a - b);
  return pos.map((j) => indices[j]);
}

// Sizes a canvas for the device pixel ratio; returns its 2D context in CSS pixels.
function setupCanvas(canvas, width, height) {
  const dpr = window.devicePixelRatio || 1;
  canvas.style.width = width + 'px';
  canvas.style.height = height + 'px';
  canvas.width = Math.max(1, Math.round(width * dpr));
  canvas.height = Math.max(1, Math.round(height * dpr));
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}

// A tick label: short form unless the ticks are closer than its rounding.
function fmtTick(v, ticks) {
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1e9;
  return step < 1000 || (Math.abs(v) >= 1e4 && step < 10000) ? fmtInt(v) : fmtShort(v);
}

// "Nice" axis ticks covering [a, b] with about `count` steps.
function niceTicks(a, b, count) {
  const span = Math.max(b - a, 1e-9);
  const raw = span / Math.max(count, 1);
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw) || 10 * p;
  const ticks = [];
  for (let v = Math.ceil(a / step) * step; v <= b + 1e-9; v += step) ticks.push(Math.round(v * 1e6) / 1e6);
  return ticks;
}

// The one floating card that explains what the pointer is over.
const hoverCard = {
  owner: null,
  show(owner, x, y, title, desc, rows) {
    const el = byId('hover-card');
    this.owner = owner;
    el.innerHTML = '';
    el.append(h('div', { class: 't' }, title));
    if (desc) el.append(h('div', { class: 'd' }, desc));
    if (rows && rows.length) {
      el.append(h('table', {}, rows.map(([k, v]) => h('tr', {}, h('td', {}, k), h('td', {}, v)))));
    }
    el.hidden = false;
    const w = el.offsetWidth, ht = el.offsetHeight;
    const left = x + 16 + w > window.innerWidth ? Math.max(4, x - 16 - w) : x + 16;
    const top = y + 16 + ht > window.innerHeight ? Math.max(4, y - 16 - ht) : y + 16;
    el.style.left = left + 'px';
    el.style.top = top + 'px';
  },
  hide(owner) {
    if (owner && owner !== this.owner) return;
    byId('hover-card').hidden = true;
    this.owner = null;
  },
  text() { return byId('hover-card').hidden ? '' : byId('hover-card').textContent; },
};

// Resolves after the browser has drawn the next frame.
function nextFrame() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
