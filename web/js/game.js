// One game: board, players and clocks, status, controls.

import { send } from './net.js';
import { app, navigate, showView } from './state.js';
import { store, seatKey, inviteKey } from './store.js';
import { toast, showBanner, variantLabel, squareName, announce, errorWords } from './ui.js';
import { Board } from './board.js';
import { playSound, soundOn, setSound } from './sound.js';
import { reviewOf, renderReview, renderMoves } from './review.js';
import { renderRules, initRules } from './rules.js';
import { account } from './account.js';

let board = null;

function theBoard() {
  if (!board) {
    board = new Board(document.getElementById('board'), document.getElementById('cells'), {
      move: playMove,
      premove: setPremove,
      chooseRoute: showRouteChoice,
      clearChoice: hideRouteChoice,
      say: (text) => { toast(text); announce(text); },
      announce,
    });
  }
  return board;
}

export function showGame(id) {
  showView('game');
  if (app.gameId !== id) {
    app.state = null;
    app.flipped = null;
    app.myColor = null;
    app.premove = null;
    app.lowWarned = {};
  }
  app.gameId = id;
  document.title = 'Game ' + id + ' · Checkers Online';
  drawBoard();
  watchGame(id);
}

export function watchGame(id) {
  const token = store.get(seatKey(id));
  send({ t: 'watch', game: id, token: token || undefined }, (reply) => {
    if (reply.t === 'watching') app.myColor = reply.color;
    else if (reply.t === 'error' && reply.code === 'not_found' && app.gameId === id) { showView('missing'); return; }
    else if (reply.t === 'error') showBanner(reply.message, 'bad');
    renderGame();
  });
}

// A game's state pushed by the server.
export function onState(game) {
  const before = app.state;
  app.state = game;
  // A rematch both agreed to: the same seat token holds a seat there too; go there, and
  // spectators follow.
  if (game.rematch_game && before && before.id === game.id && !before.rematch_game) {
    if (app.myColor && myToken()) store.set(seatKey(game.rematch_game), myToken());
    navigate('/g/' + game.rematch_game);
    return;
  }
  app.receivedAt = performance.now();
  tellChange(before, game);
  renderGame();
  playPremove(game);
}

// Says what changed (a move, whose turn, the end) in the live region, with a sound.
function tellChange(before, s) {
  if (!before || before.id !== s.id) return;
  const seated = holdsSeat();
  if (s.ply > before.ply && s.last_move) {
    const mover = s.turn === 'white' ? 'Black' : 'White';
    const turn = s.status !== 'playing' ? '' : seated ? (s.turn === app.myColor ? ' Your move.' : ' Opponent to move.')
      : ' ' + (s.turn === 'white' ? 'White' : 'Black') + ' to move.';
    announce(mover + ' played ' + s.last_move.text + '.' + turn);
    playSound(s.last_move.captured.length ? 'capture' : 'move');
  }
  if (s.status === 'finished' && before.status !== 'finished') {
    announce('Game over. ' + (s.message || ''));
    playSound('end');
  }
}

// A premove queued while the opponent thought: played as soon as it is my move, if it is
// legal then (the only move from that square to that one, or the shortest such route).
function playPremove(s) {
  const p = app.premove;
  if (!p || !canMove()) return;
  app.premove = null;
  const fits = s.legal.filter((m) => m.from === p.from && m.to === p.to).sort((a, b) => a.route.length - b.route.length);
  if (fits.length === 1 || (fits.length > 1 && fits[0].route.length < fits[1].route.length)) playMove(fits[0]);
  else {
    const text = fits.length ? 'Premove cancelled: several routes, choose one' : 'Premove cancelled: not a legal move now';
    toast(text);
    announce(text);
    renderGame();
  }
}

function setPremove(p) {
  app.premove = p;
  renderGame();
}

export function myToken() { return app.gameId ? store.get(seatKey(app.gameId)) : null; }

// Whether this page plays a seat: by its seat token, or by the account logged in, which holds
// its seats on every device (messages without a token then mean the account's seat).
function holdsSeat() { return !!(app.myColor && (myToken() || account.name)); }

export function isFlipped() {
  if (app.flipped !== null) return app.flipped;
  return app.myColor === 'black';
}

function canPremove() {
  const s = app.state;
  return !!(s && s.status === 'playing' && holdsSeat() && s.turn !== app.myColor && app.viewPly === null);
}

function canMove() {
  const s = app.state;
  return !!(s && s.status === 'playing' && holdsSeat() && s.turn === app.myColor);
}

// The state the board shows: the game as it stands, or in a reviewed game the position
// after the move being looked at.
function shownState() {
  const s = app.state;
  const reviewed = s && reviewOf(s);
  if (!reviewed || app.viewPly === null) return s;
  if (app.viewPly < 0) return { ...s, fen: s.start_fen, last_move: null, legal: [] };
  const m = reviewed.moves[app.viewPly];
  return { ...s, fen: m.fen, last_move: { route: m.route }, legal: [] };
}

function drawBoard() {
  const s = shownState();
  theBoard().show(s && {
    key: s.id + ':' + s.ply + ':' + (app.viewPly === null ? '' : app.viewPly),
    fen: s.fen,
    variant: s.variant,
    flipped: isFlipped(),
    lastMove: s.last_move,
    legal: s.legal,
    movable: canMove() && s === app.state,
    premovable: canPremove(),
    myColor: app.myColor,
    premove: app.premove,
  });
}

function showRouteChoice(moves, pick) {
  const box = document.getElementById('route-choice');
  const buttons = document.getElementById('route-buttons');
  buttons.replaceChildren();
  for (const m of moves) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.text + ' (takes ' + m.captured.map((sq) => squareName(sq, app.state.variant)).join(', ') + ')';
    b.onclick = () => { hideRouteChoice(); pick(m); };
    buttons.append(b);
  }
  box.hidden = false;
}

function hideRouteChoice() { document.getElementById('route-choice').hidden = true; }

function playMove(m) {
  const s = app.state;
  send({ t: 'move', game: s.id, token: myToken(), from: m.from, to: m.to, captured: m.captured, ply: s.ply }, (reply) => {
    if (reply.t === 'error') { toast(reply.message); renderGame(); }
  });
}

function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (ms / 1000).toFixed(1);
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h ? h + ':' + String(m).padStart(2, '0') + ':' + sec : m + ':' + sec;
}

function clockNow(color) {
  const c = app.state && app.state.clock;
  if (!c) return null;
  let ms = c[color + '_ms'];
  if (c.running === color) ms -= performance.now() - app.receivedAt;
  return ms;
}

// Time left under which a clock shows red, and a player is told once a turn.
const LOW_TIME_MS = 10000;

function warnLowTime(color, low) {
  if (!app.lowWarned) app.lowWarned = {};
  if (!low) { app.lowWarned[color] = false; return; }
  if (app.lowWarned[color]) return;
  app.lowWarned[color] = true;
  const mine = app.myColor === color && holdsSeat();
  if (!mine && app.myColor) return;
  announce((mine ? 'You have' : (color === 'white' ? 'White has' : 'Black has')) + ' less than ten seconds left.');
  if (mine) playSound('low');
}

export function renderClocks() {
  if (app.view !== 'game' || !app.state) return;
  const bottomColor = isFlipped() ? 'black' : 'white';
  for (const [id, color] of [['player-bottom', bottomColor], ['player-top', bottomColor === 'white' ? 'black' : 'white']]) {
    const box = document.getElementById(id);
    const ms = clockNow(color);
    const clock = box.querySelector('.clock');
    clock.textContent = ms === null ? '' : formatClock(ms);
    clock.classList.toggle('running', !!(app.state.clock && app.state.clock.running === color));
    const low = ms !== null && ms < LOW_TIME_MS;
    clock.classList.toggle('low', low);
    warnLowTime(color, low && app.state.clock.running === color);
  }
}

function playerLabel(p, color) {
  const who = p.kind === 'computer' ? 'Computer · level ' + p.level
    : p.name ? p.name : p.seated ? 'Anonymous' : 'waiting for a player…';
  const rating = p.rating != null ? ' (' + p.rating + (p.provisional ? '?' : '') + ')' : '';
  return (color === 'white' ? '⚪ ' : '⚫ ') + who + rating + (app.myColor === color ? ' (you)' : '');
}

export function renderGame() {
  if (app.view !== 'game') return;
  const s = app.state;
  drawBoard();
  if (!s) return;
  const bottomColor = isFlipped() ? 'black' : 'white';
  const topColor = bottomColor === 'white' ? 'black' : 'white';
  document.querySelector('#player-bottom .name').textContent = playerLabel(s.players[bottomColor], bottomColor);
  document.querySelector('#player-top .name').textContent = playerLabel(s.players[topColor], topColor);
  document.getElementById('player-bottom').classList.toggle('to-move', s.status === 'playing' && s.turn === bottomColor);
  document.getElementById('player-top').classList.toggle('to-move', s.status === 'playing' && s.turn === topColor);
  renderClocks();
  const seated = holdsSeat();
  renderStatus(s, seated);
  renderControls(s, seated);
  renderReview(s);
  renderMoves(s);
}

function renderStatus(s, seated) {
  const status = document.getElementById('status');
  const rules = variantLabel(s.variant);
  if (s.status === 'waiting') status.textContent = rules + ' · waiting for an opponent';
  else if (s.status === 'playing') {
    const turn = s.turn === 'white' ? 'White' : 'Black';
    status.textContent = rules + ' · ' + (seated ? (s.turn === app.myColor ? 'your move' : 'opponent to move') : turn + ' to move')
      + (s.last_move && s.last_move.book ? ' · the computer played ' + s.last_move.text + ' from its opening book' : '');
  } else status.textContent = rules + ' · game over';

  if (s.status === 'finished') {
    let text = s.message || 'Game over';
    if (seated && s.winner) text = (s.winner === app.myColor ? 'You won. ' : 'You lost. ') + text;
    else if (seated && s.result === '1/2-1/2') text = 'Draw. ' + text.replace(/^Draw: /, '');
    showBanner(text, s.winner && seated ? (s.winner === app.myColor ? 'good' : 'bad') : 'info');
  } else if (s.draw_offer && seated && s.draw_offer !== app.myColor) {
    showBanner('Your opponent offers a draw.', 'info');
  } else if (s.draw_offer && seated) {
    showBanner('You offered a draw.', 'info');
  } else showBanner('', '');
}

function renderControls(s, seated) {
  const link = location.origin + '/g/' + s.id;
  const freeSeat = s.status === 'waiting' && !(s.players.white.seated && s.players.black.seated);
  // A friend game (not in the lobby) is joined with its invitation only, which the page that
  // created it keeps; an open game by its plain link.
  const invite = store.get(inviteKey(s.id));
  const friendLink = !s.listed && invite ? link + '#invite=' + invite : '';
  document.getElementById('invite').hidden = !(freeSeat && seated && (s.listed || friendLink));
  document.getElementById('invite-link').value = s.listed ? link : friendLink;
  document.getElementById('join-box').hidden = !(freeSeat && !seated);
  document.getElementById('resume-link').value = seated && myToken() ? link + '#t=' + myToken() : '';
  document.querySelector('.resume').hidden = !(seated && myToken());

  const playing = s.status === 'playing' && seated;
  const offered = s.draw_offer && s.draw_offer !== app.myColor;
  document.getElementById('btn-draw').hidden = !playing || offered;
  document.getElementById('btn-accept').hidden = !(playing && offered);
  document.getElementById('btn-decline').hidden = !(playing && offered);
  document.getElementById('btn-resign').hidden = !(seated && (s.status === 'playing' || s.status === 'waiting'));
  document.getElementById('btn-resign').textContent = s.status === 'waiting' ? 'Cancel game' : 'Resign';
  const rematch = document.getElementById('btn-rematch');
  rematch.hidden = !(seated && s.status === 'finished' && s.reason !== 'aborted');
  rematch.textContent = s.rematch_game ? 'Go to rematch' : s.rematch_offers[app.myColor] ? 'Rematch asked…' : 'Rematch';
  document.getElementById('pdn-link').href = '/games/' + s.id + '.pdn';
  // A finished game's position opens on the analysis board (never a game in play).
  const analyse = document.getElementById('analysis-link');
  analyse.hidden = !(s.status === 'finished' && s.reason !== 'aborted');
  analyse.href = '/analysis#' + new URLSearchParams({ variant: s.variant, fen: shownState().fen });
  renderRules(s, seated, app.myColor);
}

function action(msg) {
  const s = app.state;
  if (!s) return;
  send(Object.assign({ game: s.id, token: myToken() }, msg), (reply) => {
    if (reply.t === 'error') toast(errorWords(reply));
    if (reply.t === 'rematch' && reply.new_game && app.gameId !== reply.new_game) {
      store.set(seatKey(reply.new_game), myToken());
      navigate('/g/' + reply.new_game);
    }
  });
}

// The game view's buttons.
export function initGame() {
  document.getElementById('btn-flip').onclick = () => { app.flipped = !isFlipped(); renderGame(); };
  const sound = document.getElementById('btn-sound');
  const showSound = () => { sound.setAttribute('aria-pressed', String(soundOn())); sound.textContent = soundOn() ? 'Sound on' : 'Sound off'; };
  sound.onclick = () => { setSound(!soundOn()); showSound(); if (soundOn()) playSound('move'); };
  showSound();
  document.getElementById('btn-draw').onclick = () => action({ t: 'draw', action: 'offer' });
  document.getElementById('btn-accept').onclick = () => action({ t: 'draw', action: 'accept' });
  document.getElementById('btn-decline').onclick = () => action({ t: 'draw', action: 'decline' });
  document.getElementById('btn-resign').onclick = () => {
    const waiting = app.state && app.state.status === 'waiting';
    if (confirm(waiting ? 'Cancel this game?' : 'Resign this game?')) action({ t: 'resign' });
  };
  document.getElementById('btn-rematch').onclick = () => {
    const s = app.state;
    if (s && s.rematch_game) { store.set(seatKey(s.rematch_game), myToken()); navigate('/g/' + s.rematch_game); return; }
    action({ t: 'rematch' });
  };
  initRules(action);
  setInterval(renderClocks, 100);
}
