// The board: drawn as SVG from a FEN, with the moves a player may pick among.

import { svgEl as el, cellOf } from './ui.js';

// Pieces from FEN such as "W:W21,K30:B1,2".
export function piecesOf(fen) {
  const pieces = new Map();
  const fields = fen.split(':');
  for (const field of fields.slice(1)) {
    const color = field[0] === 'W' ? 'white' : 'black';
    for (const item of field.slice(1).split(',')) {
      if (!item) continue;
      const king = item[0] === 'K';
      const n = Number(king ? item.slice(1) : item);
      if (n >= 1 && n <= 32) pieces.set(n, { color, king });
    }
  }
  return pieces;
}

// A board in an <svg>. `show(view)` draws a position: view is { key, fen, flipped, lastMove,
// legal, movable }; a new `key` drops the piece picked up. `actions` are the page's:
// move(m) plays a move, chooseRoute(moves, pick) asks which of several routes, clearChoice()
// takes that question away, say(text) tells the player something.
export class Board {
  constructor(svg, actions) {
    this.svg = svg;
    this.actions = actions;
    this.view = null;
    this.selected = null; // the route prefix being built (array of squares)
  }

  show(view) {
    if (!view || !this.view || view.key !== this.view.key) this.selected = null;
    this.view = view;
    this.draw();
  }

  centre(n) {
    const { col, row } = cellOf(n);
    const flipped = this.view && this.view.flipped;
    const c = flipped ? 7 - col : col;
    const r = flipped ? 7 - row : row;
    return { x: c * 100 + 50, y: r * 100 + 50 };
  }

  candidates() {
    const v = this.view;
    if (!v || !this.selected) return [];
    const path = this.selected;
    return v.legal.filter((m) => path.every((sq, i) => m.route[i] === sq));
  }

  draw() {
    const svg = this.svg;
    svg.replaceChildren();
    const v = this.view;
    const flipped = !!(v && v.flipped);
    const squares = el('g', {}, svg);
    for (let row = 0; row < 8; row++) {
      for (let col = 0; col < 8; col++) {
        const dark = (row + col) % 2 === 1;
        const x = (flipped ? 7 - col : col) * 100;
        const y = (flipped ? 7 - row : row) * 100;
        el('rect', { x, y, width: 100, height: 100, class: dark ? 'sq dark' : 'sq light' }, squares);
      }
    }
    for (let n = 1; n <= 32; n++) {
      const { x, y } = this.centre(n);
      const label = el('text', { x: x - 44, y: y - 32, class: 'sqnum' }, squares);
      label.textContent = String(n);
    }
    const files = 'abcdefgh';
    for (let i = 0; i < 8; i++) {
      const f = el('text', { x: (flipped ? 7 - i : i) * 100 + 92, y: 794, class: 'coord' }, squares);
      f.textContent = files[i];
      const r = el('text', { x: 3, y: (flipped ? i : 7 - i) * 100 + 14, class: 'coord' }, squares);
      r.textContent = String(i + 1);
    }
    if (!v) return;
    this.drawHighlights(v);
    this.drawPieces(v);
    this.drawTargets();
    // One transparent hit area per dark square, on top, for mouse and touch alike.
    const hits = el('g', {}, svg);
    for (let n = 1; n <= 32; n++) {
      const { x, y } = this.centre(n);
      const hit = el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'hit', 'data-hit': n }, hits);
      hit.addEventListener('click', () => this.click(n));
    }
  }

  drawHighlights(v) {
    const highlights = el('g', {}, this.svg);
    const polyline = (route) => route.map((sq) => { const c = this.centre(sq); return c.x + ',' + c.y; }).join(' ');
    if (v.lastMove) {
      for (const sq of v.lastMove.route) {
        const { x, y } = this.centre(sq);
        el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'lastmove' }, highlights);
      }
    }
    if (this.selected) {
      for (const sq of this.selected) {
        const { x, y } = this.centre(sq);
        el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'selected' }, highlights);
      }
      // Routes the selected piece may take, faint, so several captures can be told apart.
      for (const m of this.candidates()) el('polyline', { points: polyline(m.route), class: 'route' }, highlights);
    }
    if (v.lastMove && v.lastMove.route.length > 1) {
      el('polyline', { points: polyline(v.lastMove.route), class: 'lastroute' }, highlights);
    }
  }

  drawPieces(v) {
    const movable = new Set(v.movable ? v.legal.map((m) => m.from) : []);
    const layer = el('g', {}, this.svg);
    for (const [sq, piece] of piecesOf(v.fen)) {
      const { x, y } = this.centre(sq);
      const g = el('g', { class: 'piece ' + piece.color + (movable.has(sq) ? ' movable' : '') + (piece.king ? ' king' : ''), 'data-square': sq }, layer);
      el('circle', { cx: x, cy: y + 4, r: 38, class: 'shadow' }, g);
      el('circle', { cx: x, cy: y, r: 38, class: 'body' }, g);
      el('circle', { cx: x, cy: y, r: 26, class: 'ring' }, g);
      if (piece.king) {
        el('path', { d: `M${x - 20},${y + 10} L${x - 22},${y - 12} L${x - 10},${y} L${x},${y - 18} L${x + 10},${y} L${x + 22},${y - 12} L${x + 20},${y + 10} Z`, class: 'crown' }, g);
      }
    }
  }

  // Destination markers: the next stops of the routes still possible.
  drawTargets() {
    const targets = el('g', {}, this.svg);
    if (!this.selected) return;
    const cands = this.candidates();
    const depth = this.selected.length;
    const next = new Set();
    for (const m of cands) {
      if (m.route.length > depth) next.add(m.route[depth]);
      next.add(m.to);
    }
    for (const sq of next) {
      if (this.selected.includes(sq) && sq !== cands[0]?.to) continue;
      const { x, y } = this.centre(sq);
      el('circle', { cx: x, cy: y, r: 16, class: 'target', 'data-square': sq }, targets);
    }
  }

  click(n) {
    const v = this.view;
    if (!v || !v.movable) return;
    this.actions.clearChoice();
    if (this.selected) {
      const depth = this.selected.length;
      const cands = this.candidates();
      const ending = cands.filter((m) => m.to === n);
      const through = cands.filter((m) => m.route.length > depth + 1 && m.route[depth] === n);
      if (through.length === 0 && ending.length === 1) { this.play(ending[0]); return; }
      if (through.length === 0 && ending.length > 1) {
        // Several routes end here: the stops clicked so far may already decide.
        const exact = ending.filter((m) => m.route.length === depth + 1);
        if (exact.length === 1) { this.play(exact[0]); return; }
        this.actions.chooseRoute(ending, (m) => this.play(m));
        return;
      }
      if (through.length && ending.length === 0) {
        this.selected = this.selected.concat([n]);
        this.draw();
        return;
      }
      if (through.length && ending.length) { this.actions.chooseRoute(ending.concat(through), (m) => this.play(m)); return; }
    }
    const fromHere = v.legal.filter((m) => m.from === n);
    if (fromHere.length) {
      const again = this.selected && this.selected.length === 1 && this.selected[0] === n;
      this.selected = again ? null : [n];
    } else {
      if (!this.selected && v.legal.length && v.legal.every((m) => m.captured.length)) this.actions.say('A capture is compulsory');
      this.selected = null;
    }
    this.draw();
  }

  play(m) {
    this.selected = null;
    this.draw();
    this.actions.move(m);
  }
}
