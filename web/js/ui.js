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

// Square number (1-32) -> board cell (col from the left, row from the top) as White sees it.
export function cellOf(n) {
  const idx = n - 1;
  const row = Math.floor(idx / 4);
  return { col: 2 * (idx % 4) + (row % 2 === 0 ? 1 : 0), row };
}

// A square as the variant's players write it: 21 in English, a3 in Russian.
export function squareName(n, variant) {
  if (variant !== 'russian') return String(n);
  const { col, row } = cellOf(n);
  return 'abcdefgh'[col] + (8 - row);
}

// A PDN result in words. The first figure is the score of the side that moves first in the
// variant (Black in English checkers, White in Russian draughts), as the game's PDN writes it.
export function resultWords(result, variant) {
  const [first, second] = variant === 'russian' ? ['White', 'Black'] : ['Black', 'White'];
  return ({ '1-0': first + ' won', '0-1': second + ' won', '1/2-1/2': 'Draw', '0-0': 'Both lost' })[result] || '';
}

// The PDN mark with its words beside it: "1-0 (Black won)".
export function resultLabel(result, variant) {
  const words = resultWords(result, variant);
  return words ? result + ' (' + words + ')' : result || '';
}

export function variantLabel(v) { return v === 'russian' ? 'Russian' : 'English'; }

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
