// The engine's review of a finished game: verdicts in the move list, stepping through the
// positions, and the engine's best lines in each.

import { fetchJson } from './net.js';
import { app } from './state.js';
import { toast, span, plural, resultLabel, svgEl, sidesInOrder } from './ui.js';
import { renderGame } from './game.js';

// The fetched review of this game, if any.
export function reviewOf(s) {
  return app.review && app.review.game === s.id ? app.review.data : null;
}

// Steps through a reviewed game: -1 the start, then each move; past the last, the end.
export function viewMove(ply) {
  const reviewed = app.state && reviewOf(app.state);
  if (!reviewed) return;
  const last = reviewed.moves.length - 1;
  app.viewPly = ply === null || ply >= last ? null : Math.max(-1, ply);
  renderGame();
}

function fetchReview() {
  const id = app.state && app.state.id;
  if (!id || app.reviewing) return;
  app.reviewing = true;
  renderGame();
  fetchJson('/games/' + id + '/review')
    .then((data) => { app.review = { game: id, data }; app.viewPly = null; })
    .catch((e) => toast('Review: ' + e.message))
    .finally(() => { app.reviewing = false; renderGame(); });
}

export function renderReview(s) {
  const reviewed = reviewOf(s);
  const review = document.getElementById('btn-review');
  review.hidden = !(s.status === 'finished' && s.reason !== 'aborted' && s.moves.length > 0) || !!reviewed;
  review.disabled = app.reviewing;
  review.textContent = app.reviewing ? 'Reviewing…' : 'Review with the engine';
  const summary = document.getElementById('review-summary');
  summary.hidden = !reviewed;
  document.getElementById('review-download').hidden = !reviewed;
  document.getElementById('review-pdn-link').href = '/games/' + s.id + '/review.pdn';
  if (reviewed) {
    const counted = (c) => (c.mistakes + c.blunders === 0 ? 'no mistakes'
      : plural(c.mistakes, 'mistake') + ', ' + plural(c.blunders, 'blunder'))
      + ' (' + c.average_loss.toFixed(2) + ' a move lost on average)';
    // The side that moves first in the variant first: Black in English checkers.
    const [first, second] = sidesInOrder(s.variant);
    summary.textContent = 'Engine review: ' + first + ': ' + counted(reviewed[first.toLowerCase()]) + '; '
      + second + ': ' + counted(reviewed[second.toLowerCase()]) + '. ? a mistake, ?? a blunder. Click a move (or use ← →) to see its position.';
  }
  const viewed = document.getElementById('review-move');
  const judged = reviewed && app.viewPly !== null && app.viewPly >= 0 ? reviewed.moves[app.viewPly] : null;
  viewed.hidden = !(reviewed && app.viewPly !== null);
  viewed.textContent = judged ? 'After ' + judged.text + ': ' + judged.comment + '.' : 'The start position.';
  renderLines(s, reviewed);
  renderGraph(reviewed);
}

// Scores past this many men are drawn at the edge of the graph.
const GRAPH_CAP = 5;
const GRAPH_WIDTH = 600;
const GRAPH_HEIGHT = 120;

// A reviewed move's score for White, in men (wins and won endings at the cap). The score is
// for the side that played the move: the side not to move in the position after it.
function whiteScore(m) {
  const forMover = /^(wins|a won)/.test(m.score) ? GRAPH_CAP : /^(loses|a lost)/.test(m.score) ? -GRAPH_CAP
    : Math.max(-GRAPH_CAP, Math.min(GRAPH_CAP, parseFloat(m.score) || 0));
  return m.fen[0] === 'B' ? forMover : -forMover;
}

// The evaluation over the reviewed game, White's advantage up; a click shows the position
// after the move nearest it.
function renderGraph(reviewed) {
  const svg = document.getElementById('eval-graph');
  // An SVG element has no `hidden` property: the attribute itself.
  const hidden = !reviewed || reviewed.moves.length === 0;
  svg.toggleAttribute('hidden', hidden);
  if (hidden) return;
  svg.replaceChildren();
  const n = reviewed.moves.length;
  const x = (i) => (n === 1 ? GRAPH_WIDTH / 2 : (i * GRAPH_WIDTH) / (n - 1));
  const y = (score) => GRAPH_HEIGHT / 2 - (score / GRAPH_CAP) * (GRAPH_HEIGHT / 2 - 4);
  const points = reviewed.moves.map((m, i) => [x(i), y(whiteScore(m))]);
  // Black's share dark, White's light below the curve: the higher the curve, the better for White.
  svgEl('rect', { x: 0, y: 0, width: GRAPH_WIDTH, height: GRAPH_HEIGHT, class: 'eval-black' }, svg);
  const line = points.map((p) => p.join(',')).join(' ');
  svgEl('polygon', { points: `0,${GRAPH_HEIGHT} ${points[0][0]},${points[0][1]} ${line} ${GRAPH_WIDTH},${points[n - 1][1]} ${GRAPH_WIDTH},${GRAPH_HEIGHT}`, class: 'eval-area' }, svg);
  svgEl('line', { x1: 0, x2: GRAPH_WIDTH, y1: GRAPH_HEIGHT / 2, y2: GRAPH_HEIGHT / 2, class: 'eval-mid' }, svg);
  svgEl('polyline', { points: line, class: 'eval-line' }, svg);
  reviewed.moves.forEach((m, i) => {
    if (m.verdict !== 'good') svgEl('circle', { cx: points[i][0], cy: points[i][1], r: 4, class: 'eval-' + m.verdict, 'data-ply': i }, svg);
  });
  const shown = app.viewPly === null ? n - 1 : app.viewPly;
  if (shown >= 0) svgEl('line', { x1: x(shown), x2: x(shown), y1: 0, y2: GRAPH_HEIGHT, class: 'eval-now' }, svg);
  const best = Math.max(...reviewed.moves.map((m) => Math.abs(whiteScore(m))));
  svg.setAttribute('aria-label', 'Evaluation graph over ' + plural(n, 'move') + ', White above the middle line; the largest advantage '
    + best.toFixed(2) + ' men. Click a point to see that position.');
}

function graphClick(event) {
  const reviewed = app.state && reviewOf(app.state);
  if (!reviewed || !reviewed.moves.length) return;
  const box = event.currentTarget.getBoundingClientRect();
  const n = reviewed.moves.length;
  const ply = Math.round(((event.clientX - box.left) / box.width) * (n - 1));
  viewMove(Math.max(0, Math.min(n - 1, ply)));
}

// The engine's three best moves in the position a reviewed game is stepped to, each with
// its score and line (asked of the server once per position).
function renderLines(s, reviewed) {
  const list = document.getElementById('review-lines');
  list.replaceChildren();
  list.hidden = !(reviewed && app.viewPly !== null);
  if (list.hidden) return;
  const ply = app.viewPly + 1;  // moves played before the position shown
  if (!app.lines || app.lines.game !== s.id) app.lines = { game: s.id, byPly: {} };
  const known = app.lines.byPly[ply];
  if (known === undefined) fetchLines(s.id, ply);
  const note = (text) => {
    const li = document.createElement('li');
    li.className = 'note';
    li.textContent = text;
    list.append(li);
  };
  if (known === undefined || known === 'pending') return note('The engine is looking at this position…');
  if (known === 'failed') return note('The engine’s lines are not available just now.');
  if (known.lines.length === 0) return note('No move here: the game is over.');
  for (const line of known.lines) {
    const li = document.createElement('li');
    const move = document.createElement('b');
    move.textContent = line.move;
    // The first ten plies: enough to see the idea, short enough to read at a glance.
    const plies = line.line.split(' ');
    const shown = plies.slice(0, 10).join(' ') + (plies.length > 10 ? ' …' : '');
    li.append(move, ' ' + line.score + ': ' + shown);
    list.append(li);
  }
}

// Asked only once the position has been shown a moment (stepping through a game with the
// arrow keys held asks for none of the positions passed), and asked again after a failure
// (the server refuses when many reviews wait) once the position is shown again.
function fetchLines(id, ply) {
  app.lines.byPly[ply] = 'pending';
  const current = () => app.lines && app.lines.game === id;
  const settle = (value) => { if (current()) app.lines.byPly[ply] = value; };
  setTimeout(() => {
    if (!current()) return;
    if (app.viewPly === null || app.viewPly + 1 !== ply || !app.state || app.state.id !== id) {
      delete app.lines.byPly[ply];
      return;
    }
    fetchJson('/games/' + id + '/lines?ply=' + ply)
      .then(settle)
      .catch(() => {
        settle('failed');
        setTimeout(() => { if (current() && app.lines.byPly[ply] === 'failed') delete app.lines.byPly[ply]; }, 5000);
      })
      .finally(() => renderGame());
  }, 250);
}

export function renderMoves(s) {
  const reviewed = reviewOf(s);
  const list = document.getElementById('moves');
  list.replaceChildren();
  // A game set up with the second side to move starts its first move's line with "…".
  const startTurnIsFirst = !s.start_fen || s.start_fen[0].toUpperCase() === sidesInOrder(s.variant)[0][0];
  let offset = startTurnIsFirst ? 0 : 1;
  let li = null;
  s.moves.forEach((text, i) => {
    const ply = i + offset;
    if (ply % 2 === 0 || !li) {
      li = document.createElement('li');
      li.value = Math.floor(ply / 2) + 1;
      if (ply % 2 === 1) li.append(span('…', 'mv'));
      list.append(li);
    }
    const last = i === s.moves.length - 1;
    const judged = reviewed && reviewed.moves[i];
    const mark = !judged ? '' : judged.verdict === 'blunder' ? '??' : judged.verdict === 'mistake' ? '?' : '';
    const viewing = judged && (app.viewPly === null ? last : app.viewPly === i);
    const shown = span(text + mark, 'mv' + (last ? ' last' : '') + (judged ? ' ' + judged.verdict : '')
      + (viewing ? ' viewing' : ''));
    if (judged) {
      shown.title = judged.comment;
      shown.onclick = () => viewMove(i);
    } else if (last && s.last_move && s.last_move.book) shown.title = 'from the opening book';
    li.append(shown);
  });
  if (s.result) {
    const end = document.createElement('li');
    end.className = 'result';
    end.textContent = resultLabel(s.result, s.variant);
    list.append(end);
  }
  keepInView(list);
}

// The move being viewed in a review stays in sight in the list; otherwise the list shows its
// end, the moves just played.
function keepInView(list) {
  if (app.viewPly === -1) { list.scrollTop = 0; return; }
  const viewing = app.viewPly === null ? null : list.querySelector('.mv.viewing');
  if (!viewing) { list.scrollTop = list.scrollHeight; return; }
  const top = viewing.offsetTop;
  const bottom = top + viewing.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = Math.max(0, top - 8);
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 8;
}

// The review's buttons and keys: ← → step through the moves, Home the start, End the end.
export function initReview() {
  document.getElementById('btn-review').onclick = fetchReview;
  document.getElementById('eval-graph').addEventListener('click', graphClick);
  document.addEventListener('keydown', (e) => {
    if (app.view !== 'game' || !app.state || !reviewOf(app.state) || e.target.closest('input, textarea, select')) return;
    const end = app.state.moves.length - 1;
    const at = app.viewPly === null ? end : app.viewPly;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: -1, End: null }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    viewMove(to);
  });
}
