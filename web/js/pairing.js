// Quick pairing and challenges (docs/protocol.md, "Quick pairing and challenges"): the pools'
// buttons and the wait in one, a challenge to a named player, and the challenges sent to this
// player, each with Accept and Decline. A game found either way opens at once.

import { send } from './net.js';
import { app, navigate } from './state.js';
import { store, seatKey } from './store.js';
import { toast, announce, variantLabel, clockLabel, errorWords } from './ui.js';
import { onAccountChange } from './account.js';

const POOLS = ['1+0', '3+0', '3+2', '5+3', '10+0', '15+10'];
const incoming = new Map(); // challenge id -> the pushed challenge

function poolLabel(pool) {
  const [minutes, increment] = pool.split('+');
  return minutes + ' + ' + increment;
}

function showWaiting(text) {
  document.getElementById('seek-wait').hidden = !text;
  document.getElementById('seek-wait-text').textContent = text || '';
  for (const b of document.querySelectorAll('#pool-buttons button')) b.disabled = !!text;
}

function seek(pool) {
  const form = document.getElementById('pairing-form');
  const rated = form.elements.rated.checked;
  const variant = form.elements.variant.value;
  send({ t: 'seek', variant, clock: pool, rated }, (reply) => {
    if (reply.t === 'seeking') {
      const text = 'Waiting for an opponent: ' + variantLabel(variant) + ' ' + poolLabel(pool) + (rated ? ', rated' : ', casual') + '…';
      showWaiting(text);
      announce(text);
    } else if (reply.t === 'error') toast(errorWords(reply));
  });
}

function unseek() {
  send({ t: 'unseek' });
  showWaiting('');
}

// Takes this player to a game the server seated them in (a pool's pairing, a challenge).
function seated(msg) {
  store.set(seatKey(msg.game), msg.token);
  app.myColor = msg.color;
  showWaiting('');
  document.getElementById('challenge-wait').hidden = true;
  navigate('/g/' + msg.game);
}

function challenge(event) {
  event.preventDefault();
  const f = event.target.elements;
  const msg = { t: 'challenge', name: f.name.value.trim(), variant: f.variant.value, color: f.color.value, rated: f.rated.checked };
  if (f.clock.value) {
    const [base, increment] = f.clock.value.split('+').map(Number);
    msg.clock = { base, increment };
  }
  send(msg, (reply) => {
    if (reply.t === 'challenging') {
      const wait = document.getElementById('challenge-wait');
      wait.textContent = 'Challenge sent to ' + msg.name + '; waiting for an answer…';
      wait.hidden = false;
    } else if (reply.t === 'error') toast(errorWords(reply));
  });
}

function renderIncoming() {
  const box = document.getElementById('challenges');
  const list = document.getElementById('challenge-list');
  list.replaceChildren();
  for (const c of incoming.values()) {
    const li = document.createElement('li');
    const text = document.createElement('span');
    const theirs = c.color === 'white' ? 'White' : c.color === 'black' ? 'Black' : 'a random colour';
    text.textContent = c.from + ' challenges you: ' + variantLabel(c.variant) + ', ' + clockLabel(c.clock) +
      (c.rated ? ', rated' : ', casual') + ' (they play ' + theirs + ')';
    const accept = document.createElement('button');
    accept.type = 'button';
    accept.className = 'primary';
    accept.textContent = 'Accept';
    accept.onclick = () => answer(c, 'accept');
    const decline = document.createElement('button');
    decline.type = 'button';
    decline.textContent = 'Decline';
    decline.onclick = () => answer(c, 'decline');
    li.append(text, accept, decline);
    list.append(li);
  }
  box.hidden = incoming.size === 0;
}

function answer(c, action) {
  incoming.delete(c.challenge);
  renderIncoming();
  send({ t: action, challenge: c.challenge }, (reply) => {
    if (reply.t === 'seated') seated(reply);
    else if (reply.t === 'error') toast(errorWords(reply));
  });
}

// A message the server pushed; true if it was about pairing or challenges.
export function onPairingPush(msg) {
  if (msg.re != null) return false;
  if (msg.t === 'seated') { seated(msg); return true; }
  if (msg.t === 'challenge') {
    incoming.set(msg.challenge, msg);
    renderIncoming();
    announce(msg.from + ' challenges you to a game.');
    return true;
  }
  if (msg.t === 'declined') {
    document.getElementById('challenge-wait').hidden = true;
    toast(msg.by + ' declined your challenge.');
    announce(msg.by + ' declined your challenge.');
    return true;
  }
  return false;
}

// A new connection waits in no pool, and the challenges made to the last one are gone.
export function onPairingConnected() {
  showWaiting('');
  document.getElementById('challenge-wait').hidden = true;
  incoming.clear();
  renderIncoming();
}

// The fields the pairing and challenge forms share with the create form, copied from it.
function copyCreateFields() {
  const create = document.getElementById('create-form');
  for (const spot of document.querySelectorAll('[data-copy]')) {
    spot.replaceWith(create.elements[spot.dataset.copy].closest('label').cloneNode(true));
  }
}

export function initPairing() {
  copyCreateFields();
  const buttons = document.getElementById('pool-buttons');
  for (const pool of POOLS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = poolLabel(pool);
    b.setAttribute('aria-label', 'Play ' + poolLabel(pool) + ' (minutes + seconds a move)');
    b.dataset.pool = pool;
    b.onclick = () => seek(pool);
    buttons.append(b);
  }
  document.getElementById('btn-unseek').onclick = unseek;
  document.getElementById('challenge-form').addEventListener('submit', challenge);
  onAccountChange((name) => {
    const form = document.getElementById('pairing-form');
    document.getElementById('pool-rated-row').hidden = !name;
    if (!name) form.elements.rated.checked = false;
    document.getElementById('challenge-panel').hidden = !name;
  });
}
