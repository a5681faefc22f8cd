// Floorplan replay: the machine as blocks (DRAM channels, ports, DMA, ACT RAM, MXU with FIFO and
// columns, quantizer, TMEM banks, VPU lanes, sequencer window slots) coloured by what each does at
// the current cycle, data paths in use, a roofline-gap bar; play/pause, step, speed, scrub, in a
// continuous or an instruction-by-instruction mode; hover cards explain each element live.

const FloorplanView = {
  needsTrace: true,
  key: 'floorplan', title: 'Floorplan',
  mount(el) {
    this.el = el;
    this.playing = false;
    this.playBtn = h('button', { class: 'primary', id: 'fp-play', onclick: () => this.toggle() }, '▶ Play');
    this.mode = h('select', { id: 'fp-mode', title: 'Replay mode', onchange: () => this.fillSpeeds() },
      h('option', { value: 'cycles' }, 'continuous'), h('option', { value: 'instrs' }, 'instruction by instruction'));
    this.speed = h('select', { id: 'fp-speed', title: 'Replay speed' });
    this.scrub = h('input', { type: 'range', id: 'fp-scrub', min: 0, max: 0, value: 0, style: { flex: '1', minWidth: '220px' },
      oninput: () => this.setT(+this.scrub.value) });
    this.label = h('span', { class: 'mono', id: 'fp-label', style: { minWidth: '300px' } });
    el.append(h('h2', {}, 'Floorplan replay'),
      h('div', { class: 'toolbar' }, this.playBtn,
        h('button', { title: 'Step back (←)', onclick: () => this.step(-1) }, '◀ Step'),
        h('button', { title: 'Step forward (→)', onclick: () => this.step(1) }, 'Step ▶'),
        this.mode, this.speed, this.scrub),
      h('div', { class: 'toolbar' }, this.label, h('span', { class: 'spacer', style: { flex: 1 } }),
        h('span', { class: 'legend', id: 'fp-legend' }, Object.values(kStates).filter((s) => s !== kStates.untraced).map((s) =>
          h('span', {}, h('span', { class: 'swatch', style: { background: s.color } }), (s.mark ? s.mark + ' ' : '') + s.label)))),
      this.box = h('div', { class: 'fp' }));
    this.fillSpeeds();
  },
  fillSpeeds() {
    const instrs = this.mode.value === 'instrs';
    const opts = instrs ? [1, 2, 5, 10, 30, 100] : [10, 100, 1000, 10000, 100000];
    const dflt = instrs ? 5 : 1000;
    this.speed.innerHTML = '';
    for (const v of opts) this.speed.append(h('option', { value: v, selected: v === dflt }, fmtInt(v) + (instrs ? ' instr/s' : ' cycles/s')));
  },
  onKey(e) {
    if (e.key === ' ') this.toggle();
    else if (e.key === 'ArrowRight') this.step(1);
    else if (e.key === 'ArrowLeft') this.step(-1);
    else if (e.key === 'Home') this.setT(0);
    else if (e.key === 'End') this.setT(this.m.cycles - 1);
    else return false;
    return true;
  },
  render(m, params) {
    if (this.m !== m) {
      this.m = m;
      this.build();
      this.t = 0;
      this.scrub.max = Math.max(0, m.cycles - 1);
    }
    if (params.t !== undefined && +params.t !== this.t) this.t = Math.max(0, Math.min(m.cycles - 1, +params.t || 0));
    this.update();
  },
  hide() { this.pause(); },
  // Element keys, in the order the self-test visits them.
  keys() { return Array.from(this.box.querySelectorAll('[data-el]'), (e) => e.dataset.el); },
  build() {
    const m = this.m, L = Math.max(1, Math.min(32, m.cfg.LANES | 0)), C = Math.max(1, Math.min(64, m.cfg.MCOLS | 0)), S = m.win;
    const p = [];
    // A block; its state line goes to the right of the title when the block is flat.
    const box = (key, x, y, w, hh, title, sub) => {
      const flat = hh < 60;
      p.push(`<g data-g="${key}"><rect class="el" data-el="${key}" x="${x}" y="${y}" width="${w}" height="${hh}" rx="6" fill="#E6E8EC" stroke="#7a8291" stroke-width="1.2"/>` +
        `<text x="${x + 10}" y="${y + 19}" font-size="14" font-weight="600">${esc(title)}</text>` +
        (sub ? `<text x="${x + 10}" y="${y + 36}" font-size="11.5">${esc(sub)}</text>` : '') +
        // The FIFO's level line sits under its title, above the fill bar (which grows from the bottom).
        `<text data-line="${key}" x="${flat ? x + w - 10 : x + 10}" y="${flat ? y + 19 : key === 'fifo' ? y + 38 : y + hh - 10}" text-anchor="${flat ? 'end' : 'start'}" font-size="${key === 'fifo' ? 11 : 12.5}"></text></g>`);
    };
    const path = (key, d) => p.push(`<path class="el fp-path" data-el="${key}" d="${d}" fill="none" stroke="#cfd4db" stroke-width="2.5" marker-end="url(#arrow)"/>`);
    p.push('<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#5d6575"/></marker></defs>');
    box('dram0', 20, 16, 330, 50, 'DRAM channel 0');
    box('dram1', 370, 16, 330, 50, 'DRAM channel 1');
    box('portB', 20, 106, 450, 42, 'Port B', m.cfg.D + ' B chunks');
    box('portA', 490, 106, 210, 42, 'Port A', '32-bit words');
    box('dma', 20, 196, 140, 140, 'DMA', 'LD / ST');
    box('fifo', 176, 196, 48, 150, 'FIFO');
    p.push(`<rect data-fill="fifo" x="181" y="340" width="38" height="0" fill="#56B4E9" pointer-events="none"/>`);
    box('mxu', 238, 196, 238, 150, 'MXU', m.cfg.MCOLS + ' cols × ' + m.cfg.D + ' deep');
    const cw = (238 - 20) / C;
    for (let k = 0; k < C; ++k) {
      p.push(`<rect class="el" data-el="mxcol${k}" x="${248 + k * cw}" y="250" width="${Math.max(2, cw - 4)}" height="60" rx="2" fill="#E6E8EC" stroke="#7a8291"/>`);
    }
    box('actram', 500, 196, 160, 62, 'ACT RAM', 'int8 activations');
    box('quant', 500, 284, 200, 62, 'Quantizer', 'QACT / QST');
    const bw = 680 / L;
    p.push('<text x="20" y="388" font-size="13" font-weight="600" fill="#1d2330">TMEM banks (fp32 scratchpad)</text>');
    for (let k = 0; k < L; ++k) {
      p.push(`<g data-g="tmem${k}"><rect class="el" data-el="tmem${k}" x="${20 + k * bw}" y="396" width="${bw - 6}" height="44" rx="4" fill="#E6E8EC" stroke="#7a8291"/>` +
        `<text x="${20 + k * bw + 8}" y="423" font-size="12">bank ${k}</text><text data-mark="tmem${k}" x="${20 + k * bw + bw - 22}" y="423" font-size="12" font-weight="700"></text></g>`);
    }
    p.push('<text x="20" y="488" font-size="13" font-weight="600" fill="#1d2330">VPU lanes</text>');
    for (let k = 0; k < L; ++k) {
      p.push(`<g data-g="vpu${k}"><rect class="el" data-el="vpu${k}" x="${20 + k * bw}" y="496" width="${bw - 6}" height="44" rx="4" fill="#E6E8EC" stroke="#7a8291"/>` +
        `<text x="${20 + k * bw + 8}" y="523" font-size="12">lane ${k}</text><text data-mark="vpu${k}" x="${20 + k * bw + bw - 22}" y="523" font-size="12" font-weight="700"></text></g>`);
    }
    p.push(`<text x="730" y="30" font-size="13" font-weight="600" fill="#1d2330">Sequencer window (${S} slots)</text>`);
    const sh = Math.min(30, 500 / S);
    for (let k = 0; k < S; ++k) {
      const y = 40 + k * sh;
      p.push(`<g data-g="slot${k}"><rect class="el" data-el="slot${k}" x="730" y="${y}" width="250" height="${sh - 3}" rx="3" fill="#E6E8EC" stroke="#7a8291"/>` +
        `<text x="738" y="${y + sh / 2 + 2}" font-size="11">${k}</text>` +
        `<text data-line="slot${k}" x="760" y="${y + sh / 2 + 2}" font-size="11.5"></text></g>`);
    }
    path('p-dram-b', 'M185,66 L185,104 M430,66 L430,104');
    path('p-dram-a', 'M600,66 L600,104 M330,66 L520,104');
    path('p-b-dma', 'M90,148 L90,194');
    path('p-b-fifo', 'M200,148 L200,194');
    path('p-fifo-mxu', 'M224,270 L236,270');
    path('p-a-mxu', 'M520,148 L460,194');
    path('p-act-mxu', 'M500,227 L478,227');
    path('p-mxu-tmem', 'M357,346 L357,394');
    path('p-dma-tmem', 'M90,336 L90,394');
    path('p-tmem-q', 'M600,396 L600,348');
    path('p-q-act', 'M580,284 L580,260');
    path('p-q-a', 'M680,284 L680,150');
    path('p-tmem-vpu', Array.from({ length: L }, (_, k) => `M${20 + k * bw + bw / 2 - 3},440 L${20 + k * bw + bw / 2 - 3},494`).join(' '));
    p.push('<text x="20" y="572" font-size="13" font-weight="600" fill="#1d2330">Roofline gap now</text><text id="fp-gap-text" x="160" y="572" font-size="12.5" fill="#1d2330"></text>');
    p.push('<g id="fp-gap"></g><rect class="el" data-el="gap" x="20" y="580" width="960" height="26" fill="transparent" stroke="#7a8291"/>');
    this.box.innerHTML = `<svg id="fp-svg" viewBox="0 0 1000 620" xmlns="http://www.w3.org/2000/svg">${p.join('')}</svg>`;
    this.els = new Map(Array.from(this.box.querySelectorAll('[data-el]'), (e) => [e.dataset.el, e]));
    this.lines = new Map(Array.from(this.box.querySelectorAll('[data-line]'), (e) => [e.dataset.line, e]));
    this.marks = new Map(Array.from(this.box.querySelectorAll('[data-mark]'), (e) => [e.dataset.mark, e]));
    this.texts = new Map(Array.from(this.box.querySelectorAll('[data-g]'), (g) => [g.dataset.g, Array.from(g.querySelectorAll('text'))]));
    for (const [key, e] of this.els) {
      e.addEventListener('mouseover', (ev) => { this.hoverKey = key; this.showCard(ev.clientX, ev.clientY); });
      e.addEventListener('mousemove', (ev) => this.showCard(ev.clientX, ev.clientY));
      e.addEventListener('mouseout', () => { this.hoverKey = null; hoverCard.hide(this); });
    }
  },
  showCard(x, y) {
    if (!this.hoverKey || !this.state) return;
    this.cardAt = [x, y];
    const info = elementInfo(this.m, this.state, this.hoverKey);
    if (info) hoverCard.show(this, x, y, info.title, info.desc, info.rows);
  },
  update() {
    const m = this.m;
    const s = this.state = machineAt(m, this.t);
    for (const [key, e] of this.els) {
      const info = elementInfo(m, s, key);
      if (!info) continue;
      if (key.startsWith('p-')) {
        e.setAttribute('stroke', info.state === 'busy' ? '#1d2330' : '#cfd4db');
        e.setAttribute('stroke-width', info.state === 'busy' ? 3.5 : 2);
        e.setAttribute('stroke-dasharray', info.state === 'busy' ? '' : '5 4');
      } else if (key !== 'gap') {
        e.setAttribute('fill', kStates[info.state].color);
        const light = ['busy', 'dram', 'arb'].includes(info.state);
        for (const t of this.texts.get(key) || []) t.setAttribute('fill', light ? '#ffffff' : '#1d2330');
      }
      const line = this.lines.get(key);
      if (line) line.textContent = info.line || '';
      const mark = this.marks.get(key);
      if (mark) mark.textContent = kStates[info.state].mark;
      if (key === 'fifo') {
        const f = this.box.querySelector('[data-fill="fifo"]'), hh = 94 * Math.min(1, info.level || 0);
        f.setAttribute('y', 340 - hh); f.setAttribute('height', hh);
      }
    }
    this.drawGap(s);
    this.scrub.value = this.t;
    const cur = this.currentInstr();
    this.label.textContent = 'cycle ' + fmtInt(this.t) + ' of ' + fmtInt(m.cycles) + ' (' + fmtTime(this.t, m.clock) + ')' +
      (s.untraced ? ' · not traced: only the run\'s totals are known here' : cur >= 0 ? ' · last started: #' + fmtInt(m.idx[cur]) + ' ' + m.names[m.nameId[cur]] + ' (' + m.units[m.unit[cur]] + ')' : '');
    if (this.hoverKey && this.cardAt) this.showCard(...this.cardAt);
  },
  drawGap(s) {
    const m = this.m, g = this.box.querySelector('#fp-gap');
    byId('fp-gap-text').textContent = gapHeadline(m, s);
    if (s.w < 0) { g.innerHTML = ''; return; }
    const n = Math.max(1, m.windows.col.n[s.w]);
    let x = 20;
    const parts = [];
    for (const k of kCauses) {
      const v = attrOf(m).per[k.key][s.w];
      if (v <= 0) continue;
      const w = 960 * v / n;
      // The cause's name where it fits inside its part of the bar, else its share, else nothing.
      const ctx = textMeasure('11.5px system-ui, sans-serif'), pct = fmtPct(v / n, 0);
      const label = ctx.measureText(k.label).width + 10 <= w ? k.label : ctx.measureText(pct).width + 10 <= w ? pct : '';
      parts.push(`<rect x="${x}" y="580" width="${w}" height="26" fill="${k.color}"/>` +
        (label ? `<text x="${x + 5}" y="597" font-size="11.5" fill="${['#F0E442', '#BBBBBB', '#E69F00', '#56B4E9'].includes(k.color) ? '#1d2330' : '#fff'}" data-gap-label="${k.key}" data-gap-w="${w}">${esc(label)}</text>` : ''));
      x += w;
    }
    g.innerHTML = parts.join('');
  },
  // The instruction that started last at or before the cursor (instruction-by-instruction mode).
  currentInstr() {
    const j = upperBound(this.m.startsSorted, this.t) - 1;
    return j >= 0 ? this.m.byStart[j] : -1;
  },
  setT(t, fromPlay) {
    const m = this.m;
    this.t = Math.max(0, Math.min(m.cycles - 1, Math.round(t)));
    if (!fromPlay) this.pause();
    this.update();
    const now = performance.now();
    if (!this.lastHash || now - this.lastHash > 250 || !fromPlay) { this.lastHash = now; setHash({ t: this.t }, false, false); }
  },
  step(dir) {
    const m = this.m;
    if (this.mode.value === 'instrs') {
      const ss = m.startsSorted;
      const j = dir > 0 ? upperBound(ss, this.t) : lowerBound(ss, this.t) - 1;
      if (j >= 0 && j < ss.length) this.setT(ss[j]);
      else this.setT(dir > 0 ? m.cycles - 1 : 0);
    } else this.setT(this.t + dir * Math.max(1, Math.round(+this.speed.value / 100)));
  },
  toggle() { if (this.playing) this.pause(); else this.play(); },
  play() {
    if (this.t >= this.m.cycles - 1) this.t = 0;
    this.playing = true;
    this.playBtn.textContent = '❚❚ Pause';
    let last = performance.now(), acc = 0;
    const tick = (now) => {
      if (!this.playing) return;
      const dt = Math.min(0.25, (now - last) / 1000);
      last = now;
      const speed = +this.speed.value;
      if (this.mode.value === 'instrs') {
        acc += dt * speed;
        while (acc >= 1) {
          acc -= 1;
          const j = upperBound(this.m.startsSorted, this.t);
          this.t = j < this.m.startsSorted.length ? this.m.startsSorted[j] : this.m.cycles - 1;
        }
        this.setT(this.t, true);
      } else {
        acc += dt * speed;
        const whole = Math.floor(acc);
        acc -= whole;
        if (whole) this.setT(this.t + whole, true);
      }
      if (this.t >= this.m.cycles - 1) { this.pause(); return; }
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  },
  pause() {
    this.playing = false;
    if (this.raf) cancelAnimationFrame(this.raf);
    if (this.playBtn) this.playBtn.textContent = '▶ Play';
  },
};
