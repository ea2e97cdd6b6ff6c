// The lobby (start a game, join an open one, watch live ones) and the list of games.

import { send, fetchJson } from './net.js';
import { app, navigate, showView } from './state.js';
import { store, seatKey, inviteKey } from './store.js';
import { toast, clockLabel, variantLabel, reasonLabel, resultLabel, errorWords } from './ui.js';
import { watchGame } from './game.js';

export function showLobby() {
  showView('lobby');
  app.gameId = null;
  document.title = 'Checkers Online';
  const form = document.getElementById('create-form');
  form.elements.name.value = store.get('checkers.name') || '';
  send({ t: 'lobby' });
  send({ t: 'games' });
}

export function renderLobby(games) {
  const list = document.getElementById('lobby-list');
  list.replaceChildren();
  document.getElementById('lobby-empty').hidden = games.length > 0;
  for (const g of games) {
    const li = document.createElement('li');
    const text = document.createElement('span');
    const creator = (g.name || 'Anonymous') + (g.rating != null ? ' (' + g.rating + (g.provisional ? '?' : '') + ')' : '');
    text.textContent = creator + ' · ' + variantLabel(g.variant) + ' · ' + clockLabel(g.clock) + (g.rated ? ' · rated' : ' · casual') +
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

export function renderLiveGames(games) {
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

export function createGame(event) {
  event.preventDefault();
  const f = event.target.elements;
  const opponent = f.opponent.value;
  const msg = { t: 'create', opponent, variant: f.variant.value, color: f.color.value, name: f.name.value };
  store.set('checkers.name', f.name.value);
  if (opponent === 'computer') msg.level = Number(f.level.value);
  if (f.rated.checked) msg.rated = true;
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
    } else if (reply.t === 'error') toast(errorWords(reply));
  });
}

export function joinGame(id, name) {
  const invite = store.get(inviteKey(id));
  send({ t: 'join', game: id, name, invite: invite || undefined }, (reply) => {
    if (reply.t === 'seated') {
      store.set(seatKey(reply.game), reply.token);
      app.myColor = reply.color;
      if (app.gameId === id) watchGame(id); else navigate('/g/' + id);
    } else if (reply.t === 'error') toast(errorWords(reply));
  });
}

export async function showGames() {
  showView('games');
  app.gameId = null;
  document.title = 'Games · Checkers Online';
  app.games = [];
  renderGames();
  send({ t: 'games' });
  let data;
  try { data = await fetchJson('/api/games'); } catch (e) { toast('Cannot load the games'); return; }
  mergeGames(data.games, true);
}

// Keeps the newer of each game's entries (the stored list and the pushed ones), live games
// first, then the most recently changed.
export function mergeGames(games, stored) {
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
    cell(g.status === 'finished' ? resultLabel(g.result, g.variant) + ' ' + reasonLabel(g.reason) : g.status);
    const pdn = document.createElement('a');
    pdn.href = '/games/' + g.id + '.pdn';
    pdn.textContent = 'PDN';
    cell('').append(pdn);
    body.append(tr);
  }
}
