// The analysis board: a position pasted as FEN or PDN (or opened from a finished game),
// played for both sides, with the engine's three best lines drawn as arrows. The server
// gives each position's legal moves with the position after each (POST /api/analysis), so
// the page needs no rules of its own.

import { postJson } from './net.js';
import { app, showView } from './state.js';
import { announce, toast, knownVariant, layoutOf } from './ui.js';
import { Board } from './board.js';

const analysis = {
  board: null,
  variant: 'english',
  data: null,     // the server's answer for the position shown
  played: [],     // moves played on the board: { text, before } (before: the answer they left)
  flipped: false,
  asking: 0,      // the latest request, so that a late answer to an older one is dropped
};

function theBoard() {
  if (!analysis.board) {
    analysis.board = new Board(document.getElementById('analysis-board'), document.getElementById('analysis-cells'), {
      move: playMove,
      premove: () => {},
      chooseRoute: (moves, pick) => pick(moves[0]),
      clearChoice: () => {},
      say: toast,
      announce,
    });
  }
  return analysis.board;
}

// The analysis view; `#variant=V&fen=F` in the address opens that position.
export function showAnalysis() {
  showView('analysis');
  app.gameId = null;
  document.title = 'Analysis · Checkers Online';
  const given = new URLSearchParams(location.hash.slice(1));
  const form = document.getElementById('analysis-form');
  if (given.get('fen')) {
    form.elements.variant.value = knownVariant(given.get('variant')) ? given.get('variant') : 'english';
    form.elements.position.value = given.get('fen');
  }
  theBoard();
  if (!analysis.data) load(request(form), []);
  else render();
}

// What the form asks for: a PDN game if the text has moves or tags, a FEN otherwise, or the
// variant's start position when the box is empty.
function request(form) {
  const text = form.elements.position.value.trim();
  const variant = form.elements.variant.value;
  if (!text) return { variant, fen: layoutOf(variant).start_fen };
  if (/^\s*\[|\d\.\s/.test(text)) return { pdn: text };
  return { variant, fen: text };
}

function load(body, played) {
  const ask = ++analysis.asking;
  document.getElementById('analysis-status').textContent = 'The engine is looking at this position…';
  postJson('/api/analysis', body)
    .then((data) => {
      if (ask !== analysis.asking) return;
      analysis.data = data;
      analysis.variant = data.variant;
      analysis.played = played;
      render();
    })
    .catch((e) => {
      if (ask !== analysis.asking) return;
      document.getElementById('analysis-status').textContent = e.message;
      toast(e.message);
    });
}

function playMove(m) {
  const d = analysis.data;
  announce('Played ' + m.text);
  load({ variant: d.variant, fen: m.fen }, analysis.played.concat([{ text: m.text, before: d, route: m.route }]));
}

function takeBack() {
  const last = analysis.played[analysis.played.length - 1];
  if (!last) return;
  analysis.asking++;
  analysis.data = last.before;
  analysis.played = analysis.played.slice(0, -1);
  render();
}

function render() {
  const d = analysis.data;
  if (!d) return;
  const last = analysis.played[analysis.played.length - 1];
  theBoard().show({
    key: 'analysis:' + d.variant + ':' + d.fen,
    fen: d.fen,
    variant: d.variant,
    flipped: analysis.flipped,
    lastMove: last ? { route: last.route } : null,
    legal: d.legal,
    movable: d.legal.length > 0,
    premovable: false,
    arrows: d.lines.map((l) => l.route),
  });
  document.getElementById('analysis-form').elements.variant.value = d.variant;
  const turn = d.turn === 'white' ? 'White' : 'Black';
  document.getElementById('analysis-status').textContent = d.legal.length
    ? turn + ' to move (you play both sides) · the engine searched ' + d.nodes.toLocaleString('en') + ' nodes, depth ' + d.depth
    : turn + ' has no move: the game is over here.';
  const lines = document.getElementById('analysis-lines');
  lines.replaceChildren();
  for (const line of d.lines) {
    const li = document.createElement('li');
    const move = document.createElement('b');
    move.textContent = line.move;
    const plies = line.line.split(' ');
    li.append(move, ' ' + line.score + ': ' + plies.slice(0, 12).join(' ') + (plies.length > 12 ? ' …' : ''));
    lines.append(li);
  }
  document.getElementById('analysis-moves').textContent = analysis.played.map((p) => p.text).join(' ');
  document.getElementById('analysis-back').disabled = analysis.played.length === 0;
}

export function initAnalysis() {
  const form = document.getElementById('analysis-form');
  // The same rules to choose from as for a new game, in the same groups.
  const rules = document.querySelector('#create-form select[name=variant]');
  form.elements.variant.replaceChildren(...[...rules.children].map((o) => o.cloneNode(true)));
  form.addEventListener('submit', (e) => { e.preventDefault(); load(request(form), []); });
  document.getElementById('analysis-back').onclick = takeBack;
  document.getElementById('analysis-flip').onclick = () => { analysis.flipped = !analysis.flipped; render(); };
}
