// Checkers Online: the page. Plain JavaScript modules, no build step (the server embeds each
// file). It talks to the server over one WebSocket (protocol in docs/protocol.md) and draws
// the board as SVG. This module routes between the views and starts everything.

import { connect, send, fetchJson } from './net.js';
import { app, navigate } from './state.js';
import { store, seatKey, inviteKey } from './store.js';
import { toast, copy, setVariants, variantList } from './ui.js';
import { showLobby, showGames, renderLobby, renderLiveGames, mergeGames, createGame, joinGame } from './lobby.js';
import { showGame, watchGame, onState, initGame } from './game.js';
import { initReview } from './review.js';
import { showAnalysis, initAnalysis } from './analysis.js';
import { initAccount } from './account.js';
import { initPairing, onPairingPush, onPairingConnected } from './pairing.js';

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
  else if (path === '/analysis') showAnalysis();
  else showLobby();
}

function onConnected() {
  onPairingConnected();
  if (app.view === 'game' && app.gameId) watchGame(app.gameId);
  if (app.view === 'lobby') send({ t: 'lobby' });
  if (app.view === 'lobby' || app.view === 'games') send({ t: 'games' });
}

function onMessage(msg) {
  if (onPairingPush(msg)) return;
  if (msg.t === 'state' && msg.game && msg.game.id === app.gameId) {
    onState(msg.game);
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

// The variants' boards (GET /api/variants), before any board is drawn; English alone if the
// server does not answer.
async function loadVariants() {
  try {
    setVariants((await fetchJson('/api/variants')).variants);
  } catch (e) {
    toast('Cannot load the variants: English checkers only');
  }
}

// The create form's list of rules (which the pairing, challenge and analysis forms copy):
// each variant by the server's title, and any the page does not list yet in a group of its own.
function fillVariants() {
  const select = document.querySelector('#create-form select[name=variant]');
  let more = null;
  for (const v of variantList()) {
    const option = [...select.options].find((o) => o.value === v.name);
    if (option) { option.textContent = v.title; continue; }
    if (!more) { more = document.createElement('optgroup'); more.label = 'More'; select.append(more); }
    more.append(new Option(v.title, v.name));
  }
}

async function init() {
  await loadVariants();
  fillVariants();
  app.route = route;
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
  initGame();
  initReview();
  initAnalysis();
  initAccount();
  initPairing();
  document.getElementById('copy-invite').onclick = () => copy('invite-link');
  document.getElementById('copy-resume').onclick = () => copy('resume-link');
  document.getElementById('join-btn').onclick = () => {
    const name = document.getElementById('join-name').value;
    store.set('checkers.name', name);
    joinGame(app.gameId, name);
  };
  document.getElementById('join-name').value = store.get('checkers.name') || '';
  route();
  connect({ connected: onConnected, message: onMessage });
}

init();
