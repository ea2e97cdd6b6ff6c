// The player's account: sign up, log in and out (the HTTP API of docs/protocol.md, "Accounts
// and players"), the name in the top bar linking to the profile, and the create form's "Rated"
// box, offered only to a logged-in player with a clock chosen against a person.

import { fetchJson, sendJson, reconnect } from './net.js';

export const account = { name: null };
const listeners = [];

// Runs `callback` now and whenever the player logs in or out.
export function onAccountChange(callback) {
  listeners.push(callback);
  callback(account.name);
}

function setAccount(name) {
  account.name = name || null;
  const bar = document.getElementById('account-name');
  bar.hidden = !account.name;
  bar.textContent = account.name || '';
  bar.href = account.name ? '/@/' + encodeURIComponent(account.name) : '/';
  document.getElementById('btn-logout').hidden = !account.name;
  document.getElementById('login-link').hidden = !!account.name;
  document.getElementById('account-forms').hidden = !!account.name;
  document.getElementById('account-in').hidden = !account.name;
  document.getElementById('account-in-name').textContent = account.name || '';
  for (const callback of listeners) callback(account.name);
}

// The server's refusals in the player's words.
function refusalWords(reply) {
  const code = reply.body && reply.body.code;
  const words = {
    name_taken: 'That name is taken: choose another.',
    bad_name: 'A name is 3 to 20 letters, digits, _ or -.',
    weak_password: 'The password needs at least 8 characters.',
    bad_credentials: 'Wrong name or password.',
    rate_limited: 'Too many tries: wait' + (reply.retryAfter ? ' ' + reply.retryAfter + ' s' : ' a moment') + ' and try again.',
    busy: 'The server is busy: try again in a moment.',
  }[code];
  return words || (reply.body && reply.body.message) || 'The server refused (' + reply.status + ').';
}

async function enter(event, signUp) {
  event.preventDefault();
  const form = event.target;
  const error = document.getElementById('account-error');
  error.textContent = '';
  const body = { name: form.elements.name.value.trim(), password: form.elements.password.value };
  let reply;
  try {
    reply = await sendJson('POST', signUp ? '/api/accounts' : '/api/session', body);
  } catch (e) {
    error.textContent = 'Cannot reach the server.';
    return;
  }
  if (!reply.ok) { error.textContent = refusalWords(reply); return; }
  form.reset();
  setAccount(reply.body.name);
  reconnect();
}

async function logOut() {
  try { await sendJson('DELETE', '/api/session'); } catch (e) { return; }
  setAccount(null);
  reconnect();
}

// The "Rated" box: shown while it can apply, and unticked when hidden so it is never sent.
function syncRated() {
  const form = document.getElementById('create-form');
  const row = document.getElementById('rated-row');
  const possible = !!account.name && form.elements.clock.value !== '' && form.elements.opponent.value !== 'computer';
  row.hidden = !possible;
  if (!possible) form.elements.rated.checked = false;
}

// The name fields: an account plays under its own name (the server ignores one given).
function syncNameFields() {
  document.querySelector('#create-form input[name=name]').closest('label').hidden = !!account.name;
  document.getElementById('join-name').hidden = !!account.name;
}

export function initAccount() {
  document.getElementById('signup-form').addEventListener('submit', (e) => enter(e, true));
  document.getElementById('login-form').addEventListener('submit', (e) => enter(e, false));
  document.getElementById('btn-logout').onclick = logOut;
  document.getElementById('login-link').addEventListener('click', () => {
    setTimeout(() => document.querySelector('#login-form input[name=name]').focus(), 0);
  });
  document.getElementById('create-form').addEventListener('change', syncRated);
  onAccountChange(syncRated);
  onAccountChange(syncNameFields);
  fetchJson('/api/session').then((body) => setAccount(body.name), () => setAccount(null));
}
