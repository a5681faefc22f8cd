// Every table exports: **CSV** as a download and **Copy** (tab-separated, as spreadsheets paste
// it) to the clipboard, from the same rows. HTML tables get the two buttons in a caption
// (exportable()); the virtualised tables (Instructions, Source, Program) in a bar above their
// header, exporting every row of the current filter and order, not only those drawn; the
// timeline's selection exports the instructions overlapping it. Numbers are written plain
// (1234567, not 1,234,567; -5, not −5) and a missing value ("–") as an empty field.

// The last export, for the self-test and the browser test: {name, kind: 'csv'|'tsv', text, rows}.
const exportState = { last: null, count: 0 };

// A displayed cell's text as a field value: thousands separators dropped, a typographic minus
// made ASCII, the "did not happen" dash empty, a header's sort arrow dropped. Other text
// (percentages, names) is kept.
function plainValue(text) {
  const s = String(text).replace(/\s*[▲▼]$/, '').trim();
  if (s === '–') return '';
  const g = /^([+\-−]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$/.exec(s);
  if (!g) return s.replace(/−/g, '-');
  return (g[1] === '' ? '' : g[1] === '+' ? '+' : '-') + g[2].replace(/,/g, '') + (g[3] || '');
}

// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
function csvField(v) {
  const s = String(v);
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

// A tab-separated field: tabs and line breaks would split it, so they become spaces.
function tsvField(v) { return String(v).replace(/[\t\r\n]+/g, ' '); }

// {header: [...], rows: [[...], ...]} as CSV (CRLF line ends, as RFC 4180 has) or TSV.
function delimited(data, kind) {
  const f = kind === 'csv' ? csvField : tsvField, sep = kind === 'csv' ? ',' : '\t', eol = kind === 'csv' ? '\r\n' : '\n';
  const out = [data.header.map(f).join(sep)];
  for (const r of data.rows) out.push(r.map(f).join(sep));
  return out.join(eol) + eol;
}

// The rows of an HTML table: the first row's cells are the header, every other row a record
// (header rows further down, like a "total", are records too). The caption is not data.
function htmlTableData(table) {
  const trs = Array.from(table.rows);
  const cells = (tr) => Array.from(tr.cells).flatMap((c) => {
    const v = plainValue(c.textContent);
    return c.colSpan > 1 ? [v].concat(new Array(c.colSpan - 1).fill('')) : [v];
  });
  return { header: trs.length ? cells(trs[0]) : [], rows: trs.slice(1).map(cells) };
}

// A file name from the profile's name and the table's: "mlp-small-instructions.csv".
function exportName(what) {
  const m = app.m, base = m ? String(m.name || 'profile') : 'lens';
  return (base + '-' + what).replace(/[^\w.+-]+/g, '_').replace(/^_+|_+$/g, '') + '.csv';
}

// Downloads `text` as `name` (a blob: link clicked; works from file:// and from lens open).
function downloadText(name, text, type = 'text/csv') {
  const url = URL.createObjectURL(new Blob([text], { type: type + ';charset=utf-8' }));
  const a = h('a', { href: url, download: name, style: { display: 'none' } });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// Copies `text` to the clipboard: the async Clipboard API where the page may use it, else the
// older copy command on a hidden text area (a page from file:// in some browsers).
async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) { await navigator.clipboard.writeText(text); return true; }
  } catch (e) { /* fall through to the copy command */ }
  const ta = h('textarea', { style: { position: 'fixed', left: '-9999px', top: '0' } });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  let ok = false;
  try { ok = document.execCommand('copy'); } catch (e) { ok = false; }
  ta.remove();
  return ok;
}

// Runs one export of `data()` ({header, rows}) named `what`: a CSV download or a TSV copy.
// Shows what it did beside the buttons (`status`).
async function runExport(what, data, kind, status) {
  const d = data(), text = delimited(d, kind), name = exportName(what);
  exportState.last = { name, kind, text, rows: d.rows.length };
  exportState.count++;
  let said;
  if (kind === 'csv') { downloadText(name, text); said = fmtInt(d.rows.length) + ' rows → ' + name; } else {
    const ok = await copyText(text);
    said = ok ? fmtInt(d.rows.length) + ' rows copied (tab-separated)' : 'the browser refused the clipboard; use CSV';
  }
  if (status) { status.textContent = said; clearTimeout(status.timer); status.timer = setTimeout(() => { status.textContent = ''; }, 4000); }
}

// The two buttons for a table named `what` whose rows `data()` gives.
function exportButtons(what, data) {
  const status = h('span', { class: 'muted export-status' });
  return h('span', { class: 'export', 'data-export': what },
    h('button', { class: 'export-csv', title: 'Download this table as CSV', onclick: () => runExport(what, data, 'csv', status) }, 'CSV'),
    h('button', { class: 'export-copy', title: 'Copy this table to the clipboard (tab-separated, pastes into a spreadsheet)', onclick: () => runExport(what, data, 'tsv', status) }, 'Copy'),
    status);
}

// Gives an HTML table its export buttons (in its caption); returns the table.
function exportable(table, what) {
  const cap = h('caption', { class: 'export-caption' }, exportButtons(what, () => htmlTableData(table)));
  table.prepend(cap);
  return table;
}

// Instructions `rows` (model indices, in order) with `columns` (a VirtualTable's column list):
// each column's exact value where it has one (value(i)), else its text made plain.
function columnData(columns, rows) {
  const vals = columns.map((c) => c.value || ((i) => plainValue(c.text(i))));
  const out = new Array(rows.length);
  for (let r = 0; r < rows.length; ++r) {
    const i = rows[r], row = new Array(vals.length);
    for (let k = 0; k < vals.length; ++k) row[k] = vals[k](i);
    out[r] = row;
  }
  return { header: columns.map((c) => c.label), rows: out };
}

// Splits CSV text (RFC 4180, as delimited() writes it) into rows of fields; for the self-test.
function parseCsv(text) {
  const rows = [];
  let row = [], f = '', q = false;
  for (let k = 0; k < text.length; ++k) {
    const c = text[k];
    if (q) {
      if (c === '"' && text[k + 1] === '"') { f += '"'; ++k; } else if (c === '"') q = false; else f += c;
    } else if (c === '"') q = true;
    else if (c === ',') { row.push(f); f = ''; } else if (c === '\r') { /* CRLF */ } else if (c === '\n') { row.push(f); rows.push(row); row = []; f = ''; } else f += c;
  }
  if (f !== '' || row.length) { row.push(f); rows.push(row); }
  return rows;
}
