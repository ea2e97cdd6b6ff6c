// The connection to the server: one WebSocket (protocol in docs/protocol.md), reconnecting
// with a growing wait, and JSON over HTTP.

const conn = {
  ws: null,
  nextId: 1,
  pending: new Map(), // request id -> callback(reply)
  retry: 500,
  queue: [],
  handlers: null,     // { connected(), message(msg) }
};

// Opens the WebSocket; `handlers.connected` runs on each (re)connection, `handlers.message`
// for every message (after the callback of the request it answers).
export function connect(handlers) {
  if (handlers) conn.handlers = handlers;
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const ws = new WebSocket(scheme + location.host + '/ws');
  conn.ws = ws;
  setConn('connecting…', 'wait');
  ws.onopen = () => {
    conn.retry = 500;
    setConn('online', 'ok');
    conn.handlers.connected();
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
    conn.handlers.message(msg);
  };
  ws.onclose = () => {
    if (conn.ws !== ws) return; // replaced by reconnect()
    setConn('offline, reconnecting…', 'bad');
    conn.pending.clear();
    setTimeout(connect, conn.retry);
    conn.retry = Math.min(conn.retry * 2, 8000);
  };
}

// Opens a new WebSocket at once (after logging in or out, so that it carries the new cookie).
export function reconnect() {
  const old = conn.ws;
  conn.ws = null;
  conn.pending.clear();
  if (old) old.close();
  connect();
}

// Sends a message; `callback` gets the reply that names it.
export function send(msg, callback) {
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

// The JSON answer to a JSON body POSTed to a server address; refusals as for fetchJson.
export function postJson(url, body) {
  return fetchJson(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

// The JSON a server address answers with; a refusal becomes an error with the server's
// message (`{"code", "message"}`).
export function fetchJson(url, options) {
  return fetch(url, options).then((r) => r.json().then((body) => {
    if (!r.ok) throw new Error(body.message || 'the server refused (' + r.status + ')');
    return body;
  }));
}

// Sends `body` as JSON with `method`; answers `{ ok, status, body, retryAfter }`.
export async function sendJson(method, url, body) {
  const init = { method, headers: { 'Content-Type': 'application/json' } };
  if (body !== undefined) init.body = JSON.stringify(body);
  const r = await fetch(url, init);
  let parsed = {};
  try { parsed = await r.json(); } catch (e) { /* not JSON */ }
  return { ok: r.ok, status: r.status, body: parsed, retryAfter: r.headers.get('Retry-After') };
}
