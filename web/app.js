// Checkers Online: the page. Plain JavaScript, no build step. It talks to the server over one
// WebSocket (protocol in docs/protocol.md) and draws the board as SVG.
// Every text that comes from other people is put on the page with textContent, never as HTML.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const store = {
  get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private mode */ } },
};
const seatKey = (id) => 'checkers.seat.' + id;
// A friend game's invitation secret, kept by its creator (to show the link) and by whoever
// opened the link (to join with it).
const inviteKey = (id) => 'checkers.invite.' + id;

// ---- connection -------------------------------------------------------------------------

const conn = {
  ws: null,
  nextId: 1,
  pending: new Map(), // request id -> callback(reply)
  retry: 500,
  queue: [],
};

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const ws = new WebSocket(scheme + location.host + '/ws');
  conn.ws = ws;
  setConn('connecting…', 'wait');
  ws.onopen = () => {
    conn.retry = 500;
    setConn('online', 'ok');
    onConnected();
    const queued = conn.queue.splice(0);
    for (const text of queued) ws.send(text);
  };
  ws.onmessage = (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch (e) { return; }
    if (msg.re != null && conn.pending.has(msg.re)) {
      const callback = conn.pending.get(msg.re);
      conn.pending.delete(msg.re);
      callback(msg);
    }
    onMessage(msg);
  };
  ws.onclose = () => {
    setConn('offline, reconnecting…', 'bad');
    conn.pending.clear();
    setTimeout(connect, conn.retry);
    conn.retry = Math.min(conn.retry * 2, 8000);
  };
}

// Sends a message; `callback` gets the reply that names it.
function send(msg, callback) {
  const id = conn.nextId++;
  msg.id = id;
  if (callback) conn.pending.set(id, callback);
  const text = JSON.stringify(msg);
  if (conn.ws && conn.ws.readyState === WebSocket.OPEN) conn.ws.send(text);
  else conn.queue.push(text);
}

function setConn(text, cls) {
  const el = document.getElementById('conn');
  el.textContent = text;
  el.className = 'conn ' + cls;
}

function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { el.hidden = true; }, 4000);
}

// ---- routing ----------------------------------------------------------------------------

const app = {
  view: null,
  gameId: null,
  state: null,       // last game state from the server
  receivedAt: 0,     // performance.now() when it arrived
  myColor: null,
  flipped: null,     // null: follow my colour
  selected: null,    // the route prefix being built (array of squares)
  lastPly: -1,
  review: null,      // the engine's review of a finished game: { game, data } once fetched
  reviewing: false,  // a review is being fetched
  viewPly: null,     // in a reviewed game, the move whose position the board shows (-1: the start)
  lines: null,       // the engine's best lines in a reviewed game's positions, fetched as shown:
                     // { game, byPly: { ply: data | 'pending' | 'failed' } }
};

function route() {
  const path = location.pathname;
  const match = path.match(/^\/g\/([A-Za-z0-9]{1,32})$/);
  // A seat token (#t=...) or a friend game's invitation (#invite=...) may come in the link:
  // keep it and take it out of the address bar.
  if (match && location.hash.length > 1) {
    const given = new URLSearchParams(location.hash.slice(1));
    const token = given.get('t');
    const invite = given.get('invite');
    if (token && /^[0-9a-f]{32}$/.test(token)) store.set(seatKey(match[1]), token);
    if (invite && /^[0-9a-f]{32}$/.test(invite)) store.set(inviteKey(match[1]), invite);
    history.replaceState(null, '', path);
  }
  if (match) showGame(match[1]);
  else if (path === '/games') showGames();
  else showLobby();
}

function navigate(path) {
  history.pushState(null, '', path);
  route();
}

function showView(name) {
  for (const v of document.querySelectorAll('.view')) v.hidden = v.id !== 'view-' + name;
  app.view = name;
}

function onConnected() {
  if (app.view === 'game' && app.gameId) watchGame(app.gameId);
  if (app.view === 'lobby') send({ t: 'lobby' });
  if (app.view === 'lobby' || app.view === 'games') send({ t: 'games' });
}

function onMessage(msg) {
  if (msg.t === 'state' && msg.game && msg.game.id === app.gameId) {
    const before = app.state;
    app.state = msg.game;
    // A rematch both agreed to: the same seat token holds a seat there too; go there.
    if (msg.game.rematch_game && before && !before.rematch_game && app.myColor && myToken()) {
      store.set(seatKey(msg.game.rematch_game), myToken());
      navigate('/g/' + msg.game.rematch_game);
      return;
    }
    app.receivedAt = performance.now();
    if (msg.game.ply !== app.lastPly) { app.selected = null; app.lastPly = msg.game.ply; }
    renderGame();
  } else if (msg.t === 'lobby') {
    renderLobby(msg.games || []);
  } else if (msg.t === 'games') {
    // The server pushes the games in play (and just finished) as they change.
    if (app.view === 'lobby') renderLiveGames(msg.games || []);
    else if (app.view === 'games') mergeGames(msg.games || []);
  } else if (msg.t === 'error' && msg.re == null) {
    toast(msg.message);
  }
}

// ---- lobby ------------------------------------------------------------------------------

function showLobby() {
  showView('lobby');
  app.gameId = null;
  document.title = 'Checkers Online';
  const form = document.getElementById('create-form');
  form.elements.name.value = store.get('checkers.name') || '';
  send({ t: 'lobby' });
  send({ t: 'games' });
}

function clockLabel(clock) {
  if (!clock) return 'untimed';
  const minutes = clock.base_ms / 60000;
  const base = minutes >= 1 ? minutes + ' min' : clock.base_ms / 1000 + ' s';
  return clock.increment_ms ? base + ' + ' + clock.increment_ms / 1000 + ' s' : base;
}

function variantLabel(v) { return v === 'russian' ? 'Russian' : 'English'; }

function renderLobby(games) {
  const list = document.getElementById('lobby-list');
  list.replaceChildren();
  document.getElementById('lobby-empty').hidden = games.length > 0;
  for (const g of games) {
    const li = document.createElement('li');
    const text = document.createElement('span');
    const creator = g.name || 'Anonymous';
    text.textContent = creator + ' · ' + variantLabel(g.variant) + ' · ' + clockLabel(g.clock) +
      ' · you play ' + (g.creator_color === 'white' ? 'Black' : 'White');
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Join';
    button.className = 'primary';
    button.onclick = () => joinGame(g.id, store.get('checkers.name') || '');
    li.append(text, button);
    list.append(li);
  }
}

function renderLiveGames(games) {
  const list = document.getElementById('live-list');
  list.replaceChildren();
  for (const g of games.filter((g) => g.status === 'playing').slice(0, 20)) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = '/g/' + g.id;
    a.dataset.nav = '';
    a.textContent = (g.white || 'Anonymous') + ' vs ' + (g.black || 'Anonymous') + ' · ' +
      variantLabel(g.variant) + ' · move ' + (Math.floor(g.plies / 2) + 1);
    li.append(a);
    list.append(li);
  }
  if (!list.children.length) {
    const li = document.createElement('li');
    li.className = 'hint';
    li.textContent = 'No games in progress.';
    list.append(li);
  }
}

function createGame(event) {
  event.preventDefault();
  const f = event.target.elements;
  const opponent = f.opponent.value;
  const msg = { t: 'create', opponent, variant: f.variant.value, color: f.color.value, name: f.name.value };
  store.set('checkers.name', f.name.value);
  if (opponent === 'computer') msg.level = Number(f.level.value);
  if (f.clock.value) {
    const [base, increment] = f.clock.value.split('+').map(Number);
    msg.clock = { base, increment };
  }
  send(msg, (reply) => {
    if (reply.t === 'seated') {
      store.set(seatKey(reply.game), reply.token);
      if (reply.invite) store.set(inviteKey(reply.game), reply.invite);
      app.myColor = reply.color;
      navigate('/g/' + reply.game);
    } else if (reply.t === 'error') toast(reply.message);
  });
}

function joinGame(id, name) {
  const invite = store.get(inviteKey(id));
  send({ t: 'join', game: id, name, invite: invite || undefined }, (reply) => {
    if (reply.t === 'seated') {
      store.set(seatKey(reply.game), reply.token);
      app.myColor = reply.color;
      if (app.gameId === id) watchGame(id); else navigate('/g/' + id);
    } else if (reply.t === 'error') toast(reply.message);
  });
}

// ---- games list -------------------------------------------------------------------------

async function showGames() {
  showView('games');
  app.gameId = null;
  document.title = 'Games · Checkers Online';
  app.games = [];
  renderGames();
  send({ t: 'games' });
  let data;
  try { data = await (await fetch('/api/games')).json(); } catch (e) { toast('Cannot load the games'); return; }
  mergeGames(data.games, true);
}

// Keeps the newer of each game's entries (the stored list and the pushed ones), live games
// first, then the most recently changed.
function mergeGames(games, stored) {
  const byId = new Map((app.games || []).map((g) => [g.id, g]));
  for (const g of games) {
    const known = byId.get(g.id);
    if (!known || !stored || g.updated_ms > known.updated_ms) byId.set(g.id, g);
  }
  app.games = [...byId.values()].sort((a, b) =>
    (a.status === 'finished') - (b.status === 'finished') || b.updated_ms - a.updated_ms).slice(0, 100);
  renderGames();
}

function renderGames() {
  const body = document.getElementById('games-body');
  body.replaceChildren();
  for (const g of app.games) {
    const tr = document.createElement('tr');
    const cell = (text) => { const td = document.createElement('td'); td.textContent = text; tr.append(td); return td; };
    const link = document.createElement('a');
    link.href = '/g/' + g.id;
    link.dataset.nav = '';
    link.textContent = g.id;
    cell('').append(link);
    cell(variantLabel(g.variant));
    cell(g.white || '—');
    cell(g.black || '—');
    cell(String(g.plies));
    cell(g.status === 'finished' ? (g.result || '') + ' ' + reasonLabel(g.reason) : g.status);
    const pdn = document.createElement('a');
    pdn.href = '/games/' + g.id + '.pdn';
    pdn.textContent = 'PDN';
    cell('').append(pdn);
    body.append(tr);
  }
}

function reasonLabel(code) {
  return ({
    no_legal_move: 'no legal move', resignation: 'resignation', time: 'time', agreement: 'agreement',
    threefold_repetition: 'repetition', forty_move_rule: '40-move rule', aborted: 'withdrawn',
  })[code] || (code ? code.replace(/_/g, ' ') : '');
}

// ---- a game -----------------------------------------------------------------------------

function showGame(id) {
  showView('game');
  if (app.gameId !== id) {
    app.state = null;
    app.selected = null;
    app.lastPly = -1;
    app.flipped = null;
    app.myColor = null;
  }
  app.gameId = id;
  document.title = 'Game ' + id + ' · Checkers Online';
  drawBoard();
  watchGame(id);
}

function watchGame(id) {
  const token = store.get(seatKey(id));
  send({ t: 'watch', game: id, token: token || undefined }, (reply) => {
    if (reply.t === 'watching') app.myColor = reply.color;
    else if (reply.t === 'error') showBanner(reply.message, 'bad');
    renderGame();
  });
}

function myToken() { return app.gameId ? store.get(seatKey(app.gameId)) : null; }

// Square number (1-32) -> board cell (col, row from top) as White sees it.
function cellOf(n) {
  const idx = n - 1;
  const rowFromTop = Math.floor(idx / 4);
  const col = 2 * (idx % 4) + (rowFromTop % 2 === 0 ? 1 : 0);
  return { col, row: rowFromTop };
}

function isFlipped() {
  if (app.flipped !== null) return app.flipped;
  return app.myColor === 'black';
}

function centre(n) {
  const { col, row } = cellOf(n);
  const c = isFlipped() ? 7 - col : col;
  const r = isFlipped() ? 7 - row : row;
  return { x: c * 100 + 50, y: r * 100 + 50 };
}

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.append(node);
  return node;
}

// Pieces from FEN such as "W:W21,K30:B1,2".
function piecesOf(fen) {
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

function candidates() {
  const s = app.state;
  if (!s || !app.selected) return [];
  const path = app.selected;
  return s.legal.filter((m) => path.every((sq, i) => m.route[i] === sq));
}

function canMove() {
  const s = app.state;
  return s && s.status === 'playing' && app.myColor && s.turn === app.myColor && myToken();
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

// Steps through a reviewed game: -1 the start, then each move; past the last, the end.
function viewMove(ply) {
  const reviewed = app.state && reviewOf(app.state);
  if (!reviewed) return;
  const last = reviewed.moves.length - 1;
  app.viewPly = ply === null || ply >= last ? null : Math.max(-1, ply);
  renderGame();
}

function drawBoard() {
  const svg = document.getElementById('board');
  svg.replaceChildren();
  const s = shownState();
  const flipped = isFlipped();
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
    const { x, y } = centre(n);
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
  if (!s) return;

  const highlights = el('g', {}, svg);
  if (s.last_move) {
    for (const sq of s.last_move.route) {
      const { x, y } = centre(sq);
      el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'lastmove' }, highlights);
    }
  }
  const pieces = piecesOf(s.fen);
  const movable = new Set(canMove() ? s.legal.map((m) => m.from) : []);
  const cands = candidates();
  if (app.selected) {
    for (const sq of app.selected) {
      const { x, y } = centre(sq);
      el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'selected' }, highlights);
    }
    // Routes the selected piece may take, faint, so several captures can be told apart.
    for (const m of cands) {
      const points = m.route.map((sq) => { const c = centre(sq); return c.x + ',' + c.y; }).join(' ');
      el('polyline', { points, class: 'route' }, highlights);
    }
  }
  if (s.last_move && s.last_move.route.length > 1) {
    const points = s.last_move.route.map((sq) => { const c = centre(sq); return c.x + ',' + c.y; }).join(' ');
    el('polyline', { points, class: 'lastroute' }, highlights);
  }

  const layer = el('g', {}, svg);
  for (const [sq, piece] of pieces) {
    const { x, y } = centre(sq);
    const g = el('g', { class: 'piece ' + piece.color + (movable.has(sq) ? ' movable' : '') + (piece.king ? ' king' : ''), 'data-square': sq }, layer);
    el('circle', { cx: x, cy: y + 4, r: 38, class: 'shadow' }, g);
    el('circle', { cx: x, cy: y, r: 38, class: 'body' }, g);
    el('circle', { cx: x, cy: y, r: 26, class: 'ring' }, g);
    if (piece.king) {
      el('path', { d: `M${x - 20},${y + 10} L${x - 22},${y - 12} L${x - 10},${y} L${x},${y - 18} L${x + 10},${y} L${x + 22},${y - 12} L${x + 20},${y + 10} Z`, class: 'crown' }, g);
    }
  }
  // Destination markers: the next stops of the routes still possible.
  const targets = el('g', {}, svg);
  if (app.selected) {
    const depth = app.selected.length;
    const next = new Set();
    for (const m of cands) {
      if (m.route.length > depth) next.add(m.route[depth]);
      next.add(m.to);
    }
    for (const sq of next) {
      if (app.selected.includes(sq) && sq !== cands[0]?.to) continue;
      const { x, y } = centre(sq);
      el('circle', { cx: x, cy: y, r: 16, class: 'target', 'data-square': sq }, targets);
    }
  }
  // One transparent hit area per dark square, on top, for mouse and touch alike.
  const hits = el('g', {}, svg);
  for (let n = 1; n <= 32; n++) {
    const { x, y } = centre(n);
    const hit = el('rect', { x: x - 50, y: y - 50, width: 100, height: 100, class: 'hit', 'data-hit': n }, hits);
    hit.addEventListener('click', () => clickSquare(n));
  }
}

function clickSquare(n) {
  if (!canMove()) return;
  hideRouteChoice();
  const s = app.state;
  if (app.selected) {
    const depth = app.selected.length;
    const cands = candidates();
    const ending = cands.filter((m) => m.to === n);
    const through = cands.filter((m) => m.route.length > depth + 1 && m.route[depth] === n);
    if (through.length === 0 && ending.length === 1) { playMove(ending[0]); return; }
    if (through.length === 0 && ending.length > 1) {
      // Several routes end here: the stops clicked so far may already decide.
      const exact = ending.filter((m) => m.route.length === depth + 1);
      if (exact.length === 1) { playMove(exact[0]); return; }
      showRouteChoice(ending);
      return;
    }
    if (through.length && ending.length === 0) {
      app.selected = app.selected.concat([n]);
      drawBoard();
      return;
    }
    if (through.length && ending.length) { showRouteChoice(ending.concat(through)); return; }
  }
  const fromHere = s.legal.filter((m) => m.from === n);
  if (fromHere.length) {
    const again = app.selected && app.selected.length === 1 && app.selected[0] === n;
    app.selected = again ? null : [n];
  } else {
    if (!app.selected && s.legal.length && s.legal.every((m) => m.captured.length)) toast('A capture is compulsory');
    app.selected = null;
  }
  drawBoard();
}

function showRouteChoice(moves) {
  const box = document.getElementById('route-choice');
  const buttons = document.getElementById('route-buttons');
  buttons.replaceChildren();
  for (const m of moves) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.text + ' (takes ' + m.captured.join(', ') + ')';
    b.onclick = () => { hideRouteChoice(); playMove(m); };
    buttons.append(b);
  }
  box.hidden = false;
}

function hideRouteChoice() { document.getElementById('route-choice').hidden = true; }

function playMove(m) {
  const s = app.state;
  app.selected = null;
  drawBoard();
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

function renderClocks() {
  if (app.view !== 'game' || !app.state) return;
  const bottomColor = isFlipped() ? 'black' : 'white';
  for (const [id, color] of [['player-bottom', bottomColor], ['player-top', bottomColor === 'white' ? 'black' : 'white']]) {
    const box = document.getElementById(id);
    const ms = clockNow(color);
    const clock = box.querySelector('.clock');
    clock.textContent = ms === null ? '' : formatClock(ms);
    clock.classList.toggle('running', !!(app.state.clock && app.state.clock.running === color));
    clock.classList.toggle('low', ms !== null && ms < 10000);
  }
}

function playerLabel(p, color) {
  const who = p.kind === 'computer' ? 'Computer · level ' + p.level
    : p.name ? p.name : p.seated ? 'Anonymous' : 'waiting for a player…';
  return (color === 'white' ? '⚪ ' : '⚫ ') + who + (app.myColor === color ? ' (you)' : '');
}

function showBanner(text, cls) {
  const b = document.getElementById('banner');
  b.textContent = text;
  b.className = 'banner ' + (cls || '');
  b.hidden = !text;
}

function renderGame() {
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

  const seated = !!(app.myColor && myToken());
  const status = document.getElementById('status');
  const rules = variantLabel(s.variant) + (s.variant === 'russian' ? ' draughts' : ' checkers');
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

  const link = location.origin + '/g/' + s.id;
  const freeSeat = s.status === 'waiting' && !(s.players.white.seated && s.players.black.seated);
  // A friend game (not in the lobby) is joined with its invitation only, which the page that
  // created it keeps; an open game by its plain link.
  const invite = store.get(inviteKey(s.id));
  const friendLink = !s.listed && invite ? link + '#invite=' + invite : '';
  document.getElementById('invite').hidden = !(freeSeat && seated && (s.listed || friendLink));
  document.getElementById('invite-link').value = s.listed ? link : friendLink;
  document.getElementById('join-box').hidden = !(freeSeat && !seated);
  document.getElementById('resume-link').value = seated ? link + '#t=' + myToken() : '';
  document.querySelector('.resume').hidden = !seated;

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
    const first = s.variant === 'english' ? ['black', 'Black'] : ['white', 'White'];
    const second = s.variant === 'english' ? ['white', 'White'] : ['black', 'Black'];
    summary.textContent = 'Engine review: ' + first[1] + ': ' + counted(reviewed[first[0]]) + '; '
      + second[1] + ': ' + counted(reviewed[second[0]]) + '. ? a mistake, ?? a blunder. Click a move (or use ← →) to see its position.';
  }
  const viewed = document.getElementById('review-move');
  const judged = reviewed && app.viewPly !== null && app.viewPly >= 0 ? reviewed.moves[app.viewPly] : null;
  viewed.hidden = !(reviewed && app.viewPly !== null);
  viewed.textContent = judged ? 'After ' + judged.text + ': ' + judged.comment + '.' : 'The start position.';
  renderLines(s, reviewed);

  renderMoves(s);
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

function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

// The fetched review of this game, if any.
function reviewOf(s) {
  return app.review && app.review.game === s.id ? app.review.data : null;
}

// The JSON a server address answers with; a refusal becomes an error with the server's
// message (`{"code", "message"}`).
function fetchJson(url) {
  return fetch(url).then((r) => r.json().then((body) => {
    if (!r.ok) throw new Error(body.message || 'the server refused (' + r.status + ')');
    return body;
  }));
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

function renderMoves(s) {
  const reviewed = reviewOf(s);
  const list = document.getElementById('moves');
  list.replaceChildren();
  const firstIsBlack = s.variant === 'english';
  const startTurnIsFirst = s.start_fen[0] === (firstIsBlack ? 'B' : 'W');
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
    end.textContent = s.result;
    list.append(end);
  }
  list.scrollTop = list.scrollHeight;
}

function span(text, cls) {
  const e = document.createElement('span');
  e.className = cls;
  e.textContent = text;
  return e;
}

function action(msg) {
  const s = app.state;
  if (!s) return;
  send(Object.assign({ game: s.id, token: myToken() }, msg), (reply) => {
    if (reply.t === 'error') toast(reply.message);
    if (reply.t === 'rematch' && reply.new_game && app.gameId !== reply.new_game) {
      store.set(seatKey(reply.new_game), myToken());
      navigate('/g/' + reply.new_game);
    }
  });
}

function copy(inputId) {
  const input = document.getElementById(inputId);
  input.select();
  if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(() => toast('Copied'), () => {});
  else document.execCommand('copy');
}

function init() {
  document.addEventListener('click', (event) => {
    const a = event.target.closest('a[data-nav]');
    if (a && a.origin === location.origin && !event.metaKey && !event.ctrlKey) {
      event.preventDefault();
      navigate(a.pathname);
    }
  });
  window.addEventListener('popstate', route);
  const form = document.getElementById('create-form');
  form.addEventListener('submit', createGame);
  const syncLevel = () => { document.getElementById('level-row').hidden = form.elements.opponent.value !== 'computer'; };
  form.addEventListener('change', syncLevel);
  syncLevel();
  document.getElementById('btn-flip').onclick = () => { app.flipped = !isFlipped(); renderGame(); };
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
  document.getElementById('btn-review').onclick = fetchReview;
  document.addEventListener('keydown', (e) => {
    if (app.view !== 'game' || !app.state || !reviewOf(app.state) || e.target.closest('input, textarea, select')) return;
    const end = app.state.moves.length - 1;
    const at = app.viewPly === null ? end : app.viewPly;
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: -1, End: null }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    viewMove(to);
  });
  document.getElementById('copy-invite').onclick = () => copy('invite-link');
  document.getElementById('copy-resume').onclick = () => copy('resume-link');
  document.getElementById('join-btn').onclick = () => {
    const name = document.getElementById('join-name').value;
    store.set('checkers.name', name);
    joinGame(app.gameId, name);
  };
  document.getElementById('join-name').value = store.get('checkers.name') || '';
  setInterval(renderClocks, 100);
  route();
  connect();
}

init();
