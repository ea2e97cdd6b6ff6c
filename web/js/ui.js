// Small pieces of the page shared by every view: the toast, the banner, elements, labels.
// Every text that comes from other people is put on the page with textContent, never as HTML.

const SVG_NS = 'http://www.w3.org/2000/svg';

// An SVG element with attributes, appended to `parent` if given.
export function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

export function span(text, cls) {
  const e = document.createElement('span');
  e.className = cls;
  e.textContent = text;
  return e;
}

export function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

// Tells a screen reader something through the page's live region (moves, whose turn, low
// time, the end of the game). The same text twice in a row is still read: it is cleared first.
export function announce(text) {
  const region = document.getElementById('announcer');
  if (!region) return;
  region.textContent = '';
  setTimeout(() => { region.textContent = text; }, 30);
}

export function showBanner(text, cls) {
  const b = document.getElementById('banner');
  b.textContent = text;
  b.className = 'banner ' + (cls || '');
  b.hidden = !text;
}

export function copy(inputId) {
  const input = document.getElementById(inputId);
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(() => toast('Copied'), () => {});
  else document.execCommand('copy');
}

export function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

export function clockLabel(clock) {
  if (!clock) return 'untimed';
  const minutes = clock.base_ms / 60000;
  const base = minutes >= 1 ? minutes + ' min' : clock.base_ms / 1000 + ' s';
  return clock.increment_ms ? base + ' + ' + clock.increment_ms / 1000 + ' s' : base;
}

// The variants and their boards, as GET /api/variants gives them (main.js loads them before
// the first board is drawn): each one's `name`, `title`, `first` (the side that moves first,
// whose win `1-0` is), `side` (8, 10 or 12), `full` (pieces on every square: Turkish),
// `notation` (`numbers` or `names`: how its players write squares) and `squares` (square n's
// [file, rank] at n-1, file 0 the left edge and rank 0 White's back row as White sees it) and
// `start_fen` (the start position).
export const FILES = 'abcdefghijkl';

// English, the default: what the page knows without the server.
const ENGLISH = {
  name: 'english', title: 'English checkers', first: 'black', side: 8, full: false, notation: 'numbers',
  squares: Array.from({ length: 32 }, (_, i) => {
    const row = Math.floor(i / 4);
    return [2 * (i % 4) + (row % 2 === 0 ? 1 : 0), 7 - row];
  }),
  start_fen: 'B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12',
};

// A variant's layout with its lookups: by cell (`rank * side + file`) and by name.
function withLookups(v) {
  const at = new Map();
  const byName = new Map();
  v.squares.forEach(([file, rank], i) => {
    at.set(rank * v.side + file, i + 1);
    byName.set(FILES[file] + (rank + 1), i + 1);
  });
  return { ...v, count: v.squares.length, at, byName };
}

const layouts = new Map([['english', withLookups(ENGLISH)]]);

// Takes the server's list of variants (a malformed entry is left out).
export function setVariants(list) {
  for (const v of list || []) {
    const fine = v && typeof v.name === 'string' && [8, 10, 12].includes(v.side) && Array.isArray(v.squares) && v.squares.length;
    if (fine) layouts.set(v.name, withLookups(v));
  }
}

// Every variant known, in the server's order.
export function variantList() { return [...layouts.values()]; }

// A variant's layout; English's for a variant not known.
export function layoutOf(variant) { return layouts.get(variant) || layouts.get('english'); }

export function knownVariant(variant) { return layouts.has(variant); }

// Square number -> board cell (col from the left, row from the top) as White sees it.
export function cellOf(n, variant) {
  const layout = layoutOf(variant);
  const [file, rank] = layout.squares[n - 1] || [0, 0];
  return { col: file, row: layout.side - 1 - rank };
}

// The square at a board cell as White sees it (col from the left, row from the top), or null
// on a square no piece stands on.
export function squareAtCell(col, row, variant) {
  const layout = layoutOf(variant);
  return layout.at.get((layout.side - 1 - row) * layout.side + col) || null;
}

// A square's name by its file and rank ("c3"), whatever the variant's notation.
export function coordName(n, variant) {
  const [file, rank] = layoutOf(variant).squares[n - 1] || [0, 0];
  return FILES[file] + (rank + 1);
}

// A square as the variant's players write it: 21 in English, c3 in Russian.
export function squareName(n, variant) {
  return layoutOf(variant).notation === 'names' ? coordName(n, variant) : String(n);
}

// A square of a FEN (a number, or a name such as "a5"), or null.
export function squareOf(text, variant) {
  const layout = layoutOf(variant);
  const n = /^\d+$/.test(text) ? Number(text) : layout.byName.get(text.toLowerCase());
  return n >= 1 && n <= layout.count ? n : null;
}

// Who moves first in the variant, and who second: ['Black', 'White'] in English.
export function sidesInOrder(variant) {
  return layoutOf(variant).first === 'black' ? ['Black', 'White'] : ['White', 'Black'];
}

// A PDN result in words. The first figure is the score of the side that moves first in the
// variant (Black in English checkers and pool, White in the others), as the game's PDN writes
// it; the International set (2-0, 1-1, 0-2) is read too.
export function resultWords(result, variant) {
  const [first, second] = sidesInOrder(variant);
  return ({
    '1-0': first + ' won', '2-0': first + ' won', '0-1': second + ' won', '0-2': second + ' won',
    '1/2-1/2': 'Draw', '1-1': 'Draw', '0-0': 'Both lost',
  })[result] || '';
}

// The PDN mark with its words beside it: "1-0 (Black won)".
export function resultLabel(result, variant) {
  const words = resultWords(result, variant);
  return words ? result + ' (' + words + ')' : result || '';
}

// A variant by its title: "English checkers", "International draughts", "Frysk!".
export function variantLabel(v) {
  const layout = layouts.get(v);
  return layout ? layout.title : v ? v.charAt(0).toUpperCase() + v.slice(1) : '';
}

export function reasonLabel(code) {
  return ({
    no_legal_move: 'no legal move', resignation: 'resignation', time: 'time', agreement: 'agreement',
    threefold_repetition: 'repetition', forty_move_rule: '40-move rule', aborted: 'withdrawn',
    abandoned: 'a player left',
  })[code] || (code ? code.replace(/_/g, ' ') : '');
}

// A refusal from the server in the player's words: the codes of accounts, rated games and the
// site's game rules said plainly, any other code by the server's own sentence.
export function errorWords(reply) {
  return ({
    login_required: 'Log in first: rated games and challenges are for players with an account.',
    not_rateable: 'This game cannot be rated: ' + (reply.message || 'a rated game needs two accounts and a clock.'),
    abort_refused: 'Too late to abort: both sides have moved.',
    claim_refused: 'Cannot claim the game: ' + (reply.message || 'your opponent has not been gone long enough.'),
    takeback_refused: 'No takeback: ' + (reply.message || 'not possible now.'),
  })[reply.code] || reply.message || 'The server refused.';
}
