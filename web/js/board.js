// The board of any variant: drawn as SVG from a FEN, with an HTML grid of squares over it that
// takes the mouse, touch, drag-and-drop and the keyboard (arrow keys move among the squares,
// Enter or Space picks a piece up and puts it down, Escape lets go), each square named for a
// screen reader ("c3, white man"). The variant's layout (ui.js, from GET /api/variants) says
// the board's side (8, 10 or 12 squares), which cells pieces stand on (the dark ones, or all 64
// in Turkish draughts) and where each numbered square is.

import { svgEl as el, cellOf, squareAtCell, squareName, squareOf, layoutOf, FILES } from './ui.js';

// The board's squares fill 0..800 of the SVG whatever its side; the coordinates sit in a
// margin of their own (left and below), so they never overlap the square numbers or the pieces.
const MARGIN = 34;
const SIZE = 800;

// Pieces from FEN such as "W:W21,K30:B1,2" (squares by number, or by name as in Turkish
// "W:Wa2,Ka5:Ba7"; ranges such as "31-50" too): square number -> { color, king }.
export function piecesOf(fen, variant) {
  const pieces = new Map();
  const fields = String(fen || '').trim().replace(/\.$/, '').split(':');
  for (const field of fields.slice(1)) {
    const f = field.trim();
    const color = /^w/i.test(f) ? 'white' : 'black';
    for (const raw of f.slice(1).split(',')) {
      const item = raw.trim();
      if (!item) continue;
      const king = /^k/i.test(item);
      const body = king ? item.slice(1).trim() : item;
      const ends = body.split('-').map((t) => squareOf(t.trim(), variant));
      if (ends.some((n) => n === null) || ends.length > 2) continue;
      const [from, to] = ends.length === 2 ? [Math.min(...ends), Math.max(...ends)] : [ends[0], ends[0]];
      for (let n = from; n <= to; n++) pieces.set(n, { color, king });
    }
  }
  return pieces;
}

const reducedMotion = () => window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// A board in an <svg> with its grid of squares. `show(view)` draws a position: view is
// { key, fen, variant, flipped, lastMove, legal, movable, premovable, myColor, premove,
// arrows (routes, best first) };
// a new `key` drops the piece picked up. `actions` are the page's: move(m) plays a move,
// premove(p) queues one ({from, to}) or clears it (null), chooseRoute(moves, pick) asks which
// of several routes, clearChoice() takes that question away, say(text) tells the player
// something, announce(text) tells a screen reader.
export class Board {
  constructor(svg, grid, actions) {
    this.svg = svg;
    this.grid = grid;
    this.actions = actions;
    this.view = null;
    this.selected = null; // the route prefix being built (array of squares)
    this.premoveFrom = null; // while the opponent thinks: the piece picked for a premove
    this.variant = null; // the variant whose board the grid is laid out for
    this.side = 8;
    this.focus = { col: 0, row: 7 }; // the grid cell the keyboard is on, as shown
    this.drag = null;
    this.justDropped = false;
    svg.setAttribute('viewBox', `${-MARGIN} 0 ${SIZE + MARGIN} ${SIZE + MARGIN}`);
    this.listen();
    this.buildGrid('english');
  }

  // side × side cells in rows, laid out as shown; which square each is depends on the flip.
  buildGrid(variant) {
    const grid = this.grid;
    const side = layoutOf(variant).side;
    // The keyboard starts in the bottom left corner, and there again on a board of another size.
    if (side !== this.side || !this.cells) this.focus = { col: 0, row: side - 1 };
    this.variant = variant;
    this.side = side;
    this.cell = SIZE / side;
    grid.setAttribute('role', 'grid');
    grid.dataset.side = side;
    grid.replaceChildren();
    this.cells = [];
    for (let row = 0; row < side; row++) {
      const tr = document.createElement('div');
      tr.setAttribute('role', 'row');
      tr.className = 'cells-row';
      for (let col = 0; col < side; col++) {
        const cell = document.createElement('div');
        cell.setAttribute('role', 'gridcell');
        cell.className = 'cell';
        cell.tabIndex = -1;
        cell.dataset.col = col;
        cell.dataset.row = row;
        cell.addEventListener('focus', () => { this.focus = { col, row }; this.syncTabStop(); });
        tr.append(cell);
        this.cells.push(cell);
      }
      grid.append(tr);
    }
    this.syncTabStop();
  }

  // The grid's own events, once: they find the cell under the pointer themselves.
  listen() {
    const grid = this.grid;
    grid.addEventListener('keydown', (e) => this.key(e));
    grid.addEventListener('pointerdown', (e) => this.pointerDown(e));
    grid.addEventListener('pointermove', (e) => this.pointerMove(e));
    grid.addEventListener('pointerup', (e) => this.pointerUp(e));
    grid.addEventListener('pointercancel', () => this.endDrag());
    // A press that moves would otherwise start the browser's own drag of whatever is selected.
    grid.addEventListener('dragstart', (e) => e.preventDefault());
    grid.addEventListener('contextmenu', (e) => { if (this.view && this.view.premove) { e.preventDefault(); this.actions.premove(null); } });
  }

  // The square shown at a grid cell (null on a light one).
  squareOfCell(col, row) {
    const flipped = this.view && this.view.flipped;
    const last = this.side - 1;
    return flipped ? squareAtCell(last - col, last - row, this.variant) : squareAtCell(col, row, this.variant);
  }

  show(view) {
    const before = this.view;
    if (!view || !before || view.key !== before.key) this.selected = null;
    if (!view || !view.premovable) this.premoveFrom = null;
    this.view = view;
    // Another variant: another board (its side, its squares).
    if (view && view.variant !== this.variant) {
      const refocus = this.grid.contains(document.activeElement);
      this.buildGrid(view.variant);
      if (refocus) this.cells[this.focus.row * this.side + this.focus.col].focus();
    }
    this.draw();
    this.label();
    if (view && before && view.key !== before.key && view.lastMove && before.fen !== view.fen && !this.justDropped) {
      this.animate(view.lastMove.route);
    }
    this.justDropped = false;
  }

  // The centre of square n on the board as shown, in board units.
  centre(n) {
    const { col, row } = cellOf(n, this.variant);
    const flipped = this.view && this.view.flipped;
    const last = this.side - 1;
    const c = flipped ? last - col : col;
    const r = flipped ? last - row : row;
    return { x: (c + 0.5) * this.cell, y: (r + 0.5) * this.cell };
  }

  // A length given for the 8x8 board's 100-unit squares, on this board's.
  scaled(units) { return (units * this.cell) / 100; }

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
    const layout = layoutOf(this.variant);
    const side = this.side;
    const cell = this.cell;
    svg.dataset.side = side;
    const squares = el('g', {}, svg);
    for (let row = 0; row < side; row++) {
      for (let col = 0; col < side; col++) {
        // Pieces stand on the dark squares (on every one of Turkish draughts' plain board).
        const cls = layout.full ? 'sq full' : squareAtCell(col, row, this.variant) ? 'sq dark' : 'sq light';
        el('rect', { x: col * cell, y: row * cell, width: cell, height: cell, class: cls }, squares);
      }
    }
    // Files below the board and ranks to its left, in the margin.
    const coordSize = { 8: 26, 10: 23, 12: 20 }[side] || 20;
    for (let i = 0; i < side; i++) {
      const f = el('text', { x: ((flipped ? side - 1 - i : i) + 0.5) * cell, y: SIZE + MARGIN - 8, class: 'coord', 'text-anchor': 'middle', 'font-size': coordSize }, svg);
      f.textContent = FILES[i];
      const r = el('text', { x: -MARGIN / 2, y: ((flipped ? i : side - 1 - i) + 0.5) * cell + coordSize / 3, class: 'coord', 'text-anchor': 'middle', 'font-size': coordSize }, svg);
      r.textContent = String(i + 1);
    }
    if (!v) return;
    this.drawHighlights(v);
    // Where the variant's players number the squares, each number in its square's corner,
    // clear of the piece (where they name them, as in Russian, the coordinates say it all).
    if (layout.notation === 'numbers') {
      const numbers = el('g', {}, svg);
      const size = Math.max(17, this.scaled(24));
      for (let n = 1; n <= layout.count; n++) {
        const { x, y } = this.centre(n);
        el('text', { x: x - this.scaled(46), y: y - this.scaled(28), class: 'sqnum', 'font-size': size, 'stroke-width': size / 6 }, numbers).textContent = String(n);
      }
    }
    this.drawPieces(v);
    this.drawTargets();
    if (v.arrows) this.drawArrows(v.arrows);
  }

  // The engine's best moves as arrows along their routes, the best the widest.
  drawArrows(routes) {
    const head = this.svg.id + '-head';
    const defs = el('defs', {}, this.svg);
    const marker = el('marker', { id: head, viewBox: '0 0 10 10', refX: 6, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }, marker);
    const layer = el('g', { class: 'arrows' }, this.svg);
    routes.forEach((route, i) => {
      if (!route || route.length < 2) return;
      const points = route.map((sq) => { const c = this.centre(sq); return c.x + ',' + c.y; }).join(' ');
      el('polyline', { points, class: 'arrow', 'stroke-width': this.scaled([16, 11, 8][i] || 8), 'marker-end': `url(#${head})` }, layer);
    });
  }

  drawHighlights(v) {
    const highlights = el('g', {}, this.svg);
    const polyline = (route) => route.map((sq) => { const c = this.centre(sq); return c.x + ',' + c.y; }).join(' ');
    const half = this.cell / 2;
    const mark = (sq, cls) => { const { x, y } = this.centre(sq); el('rect', { x: x - half, y: y - half, width: this.cell, height: this.cell, class: cls }, highlights); };
    if (v.lastMove) for (const sq of v.lastMove.route) mark(sq, 'lastmove');
    if (v.premove) { mark(v.premove.from, 'premove'); mark(v.premove.to, 'premove'); }
    if (this.premoveFrom) mark(this.premoveFrom, 'premove');
    if (this.selected) {
      for (const sq of this.selected) mark(sq, 'selected');
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
    const k = this.cell / 100;
    for (const [sq, piece] of piecesOf(v.fen, this.variant)) {
      const { x, y } = this.centre(sq);
      const g = el('g', { class: 'piece ' + piece.color + (movable.has(sq) ? ' movable' : '') + (piece.king ? ' king' : ''), 'data-square': sq }, layer);
      el('circle', { cx: x, cy: y + 4 * k, r: 38 * k, class: 'shadow' }, g);
      el('circle', { cx: x, cy: y, r: 38 * k, class: 'body' }, g);
      el('circle', { cx: x, cy: y, r: 26 * k, class: 'ring' }, g);
      if (piece.king) {
        const crown = [[-20, 10], [-22, -12], [-10, 0], [0, -18], [10, 0], [22, -12], [20, 10]];
        el('path', { d: 'M' + crown.map(([dx, dy]) => (x + dx * k) + ',' + (y + dy * k)).join(' L') + ' Z', class: 'crown' }, g);
      }
    }
  }

  // The next stops of the routes still possible from the piece picked up.
  nextStops() {
    if (!this.selected) return new Set();
    const cands = this.candidates();
    const depth = this.selected.length;
    const next = new Set();
    for (const m of cands) {
      if (m.route.length > depth) next.add(m.route[depth]);
      next.add(m.to);
    }
    for (const sq of next) if (this.selected.includes(sq) && sq !== cands[0]?.to) next.delete(sq);
    return next;
  }

  // Destination markers.
  drawTargets() {
    const targets = el('g', {}, this.svg);
    for (const sq of this.nextStops()) {
      const { x, y } = this.centre(sq);
      el('circle', { cx: x, cy: y, r: this.scaled(16), class: 'target', 'data-square': sq }, targets);
    }
  }

  // Names every cell for a screen reader: "c3, white man", "d4, empty, a destination".
  label() {
    const v = this.view;
    const pieces = v ? piecesOf(v.fen, this.variant) : new Map();
    const movable = new Set(v && v.movable ? v.legal.map((m) => m.from) : []);
    const stops = this.nextStops();
    for (const cell of this.cells) {
      const col = Number(cell.dataset.col);
      const row = Number(cell.dataset.row);
      const sq = this.squareOfCell(col, row);
      const file = this.view && this.view.flipped ? this.side - 1 - col : col;
      const rank = this.view && this.view.flipped ? row + 1 : this.side - row;
      cell.dataset.sq = sq || '';
      if (!sq) { cell.setAttribute('aria-label', FILES[file] + rank + ', light square'); continue; }
      const piece = pieces.get(sq);
      let text = squareName(sq, v && v.variant) + ', ' + (piece ? piece.color + ' ' + (piece.king ? 'king' : 'man') : 'empty');
      if (this.selected && this.selected[0] === sq) text += ', picked up';
      else if (this.premoveFrom === sq) text += ', picked up for a premove';
      else if (stops.has(sq)) text += ', a destination';
      else if (movable.has(sq)) text += ', can move';
      cell.setAttribute('aria-label', text);
      cell.setAttribute('aria-selected', String(!!(this.selected && this.selected.includes(sq))));
    }
  }

  syncTabStop() {
    for (const cell of this.cells) {
      const on = Number(cell.dataset.col) === this.focus.col && Number(cell.dataset.row) === this.focus.row;
      cell.tabIndex = on ? 0 : -1;
    }
  }

  key(e) {
    const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (step) {
      e.preventDefault();
      e.stopPropagation(); // not the review's stepping through moves
      const last = this.side - 1;
      const col = Math.min(last, Math.max(0, this.focus.col + step[0]));
      const row = Math.min(last, Math.max(0, this.focus.row + step[1]));
      this.focus = { col, row };
      this.syncTabStop();
      this.cells[row * this.side + col].focus();
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      const sq = this.squareOfCell(this.focus.col, this.focus.row);
      if (sq) this.click(sq);
    } else if (e.key === 'Escape' && (this.selected || this.premoveFrom || (this.view && this.view.premove))) {
      e.preventDefault();
      this.selected = null;
      this.premoveFrom = null;
      if (this.view && this.view.premove) this.actions.premove(null);
      this.redraw();
      this.actions.announce('Put down');
    }
  }

  redraw() {
    this.draw();
    this.label();
  }

  // The square under a point of the screen, or null.
  squareAtPoint(x, y) {
    const box = this.grid.getBoundingClientRect();
    const col = Math.floor(((x - box.left) / box.width) * this.side);
    const row = Math.floor(((y - box.top) / box.height) * this.side);
    if (col < 0 || col >= this.side || row < 0 || row >= this.side) return null;
    return this.squareOfCell(col, row);
  }

  // A press on the board: a click once released where it began, a drag if the pointer moves
  // off with a piece that may move.
  pointerDown(e) {
    if (e.button !== 0) return;
    const sq = this.squareAtPoint(e.clientX, e.clientY);
    this.drag = { from: sq, x: e.clientX, y: e.clientY, moving: false, id: e.pointerId };
    try { this.grid.setPointerCapture(e.pointerId); } catch (err) { /* a synthetic pointer */ }
  }

  pointerMove(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    if (!d.moving) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 8 || !this.canPickUp(d.from)) return;
      d.moving = true;
      if (!this.selected || this.selected[0] !== d.from || this.selected.length > 1) this.pickUp(d.from);
    }
    const piece = this.svg.querySelector(`.piece[data-square="${d.from}"]`);
    if (!piece) return;
    const scale = SIZE / this.grid.getBoundingClientRect().width;
    piece.classList.add('dragging');
    piece.setAttribute('transform', `translate(${(e.clientX - d.x) * scale} ${(e.clientY - d.y) * scale})`);
  }

  pointerUp(e) {
    const d = this.drag;
    if (!d || d.id !== e.pointerId) return;
    this.drag = null;
    const sq = this.squareAtPoint(e.clientX, e.clientY);
    if (!d.moving) { if (sq) this.click(sq); return; }
    if (sq && sq !== d.from) {
      this.justDropped = true;
      this.click(sq);
      if (this.view && this.selected) this.justDropped = false;
    } else this.redraw();
  }

  endDrag() {
    if (this.drag && this.drag.moving) this.redraw();
    this.drag = null;
  }

  // Whether the piece on `sq` may be picked up now: to move, or to premove.
  canPickUp(sq) {
    const v = this.view;
    if (!v || !sq) return false;
    if (v.movable) return v.legal.some((m) => m.from === sq);
    if (v.premovable) { const p = piecesOf(v.fen, this.variant).get(sq); return !!(p && p.color === v.myColor); }
    return false;
  }

  pickUp(sq) {
    if (this.view.movable) this.selected = [sq];
    else this.premoveFrom = sq;
    this.redraw();
    this.actions.announce(squareName(sq, this.view.variant) + ' picked up');
  }

  click(n) {
    const v = this.view;
    if (!v) return;
    if (!v.movable) { if (v.premovable) this.premoveClick(n); return; }
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
        this.redraw();
        this.actions.announce('Through ' + squareName(n, v.variant) + '; go on');
        return;
      }
      if (through.length && ending.length) { this.actions.chooseRoute(ending.concat(through), (m) => this.play(m)); return; }
    }
    const fromHere = v.legal.filter((m) => m.from === n);
    if (fromHere.length) {
      const again = this.selected && this.selected.length === 1 && this.selected[0] === n;
      if (again) { this.selected = null; this.redraw(); this.actions.announce('Put down'); } else this.pickUp(n);
      return;
    }
    if (!this.selected && v.legal.length && v.legal.every((m) => m.captured.length)) this.actions.say('A capture is compulsory');
    if (this.selected) this.actions.announce('Put down');
    this.selected = null;
    this.redraw();
  }

  // While the opponent thinks: one of my pieces, then the square it should go to; played
  // when my turn comes if it is legal then.
  premoveClick(n) {
    const v = this.view;
    const mine = (sq) => { const p = piecesOf(v.fen, this.variant).get(sq); return !!(p && p.color === v.myColor); };
    if (this.premoveFrom && this.premoveFrom !== n && !mine(n)) {
      const from = this.premoveFrom;
      this.premoveFrom = null;
      this.actions.premove({ from, to: n });
      this.actions.announce('Premove ' + squareName(from, v.variant) + ' to ' + squareName(n, v.variant) + ' queued');
      return;
    }
    if (v.premove) this.actions.premove(null);
    if (mine(n) && this.premoveFrom !== n) this.pickUp(n);
    else { this.premoveFrom = null; this.redraw(); }
  }

  play(m) {
    this.selected = null;
    this.redraw();
    this.actions.move(m);
  }

  // The last move's piece slides from square to square along its route (not with
  // prefers-reduced-motion).
  animate(route) {
    if (reducedMotion() || !route || route.length < 2 || !this.svg.animate) return;
    const piece = this.svg.querySelector(`.piece[data-square="${route[route.length - 1]}"]`);
    if (!piece || !piece.animate) return;
    const end = this.centre(route[route.length - 1]);
    const frames = route.map((sq) => { const c = this.centre(sq); return { transform: `translate(${c.x - end.x}px, ${c.y - end.y}px)` }; });
    piece.animate(frames, { duration: 160 * (route.length - 1), easing: 'ease-in-out' });
  }
}
