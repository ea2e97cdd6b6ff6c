// Browser test of accounts and rated play: two players sign up in two browser contexts, wait
// in the same rated quick-pairing pool (3+2), are paired and play a short rated game, one by
// keyboard alone and the other by dragging, to a resignation; both see the rating change;
// Ada's seat follows her account to another device; a rematch asked and agreed takes a
// spectator along; the profile page shows the rating graph (SVG). A challenge is declined,
// another accepted; in that game a move is taken back on request and the game is aborted.
// axe-core finds no serious or critical violation on the page with the account forms or a
// challenge, a rated game's end, the profile and the leaderboard. Screenshots of the lobby
// and of the game's end go to artifacts/.
//
// The pools never pair two players from one address, so the second context reaches the
// server through a forwarder here that connects from 127.0.0.2 (any 127.x.y.z is this
// machine on Linux).
//
//   npm install --prefix web/e2e                   (once)
//   node web/e2e/rated.mjs [path/to/checkers]      (default target/debug/checkers)
import { createServer, connect } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { base, root, newPage, check, finish, waitForMoves } from './harness.mjs';
import { expectAccessible, keyboardMove, dragMove } from './input.mjs';

// The server's address as seen from 127.0.0.2: each connection to the forwarder is passed on.
async function fromAnotherAddress() {
  const target = new URL(base);
  const forwarder = createServer((client) => {
    const upstream = connect({ host: target.hostname, port: Number(target.port), localAddress: '127.0.0.2' });
    client.pipe(upstream).pipe(client);
    const close = () => { client.destroy(); upstream.destroy(); };
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  forwarder.unref();
  return 'http://127.0.0.1:' + forwarder.address().port;
}

const PASSWORD = 'correct horse battery';

async function signUp(page, name) {
  await page.fill('#signup-form input[name=name]', name);
  await page.fill('#signup-form input[name=password]', PASSWORD);
  await page.click('#signup-form button[type=submit]');
  await page.waitForSelector('#account-name:not([hidden])');
  if ((await page.textContent('#account-name')) !== name) throw new Error('the top bar names ' + (await page.textContent('#account-name')));
  await page.waitForSelector('#conn.ok');
}

await check('two accounts pair in a rated pool, play by keyboard and by dragging, and see the rating change and profile', async () => {
  const options = { bypassCSP: true, viewport: { width: 1100, height: 900 } };
  const ada = await newPage(options);
  await ada.goto(base + '/');
  await ada.waitForSelector('#conn.ok');
  await expectAccessible(ada, 'the lobby with the account forms');
  // A refusal is said in words: a password too short.
  await ada.fill('#signup-form input[name=name]', 'Ada_Byron');
  await ada.fill('#signup-form input[name=password]', 'short');
  await ada.$eval('#signup-form', (form) => { form.noValidate = true; });
  await ada.click('#signup-form button[type=submit]');
  await ada.waitForFunction(() => /at least 8 characters/.test(document.getElementById('account-error').textContent));
  await signUp(ada, 'Ada_Byron');

  const bert = await newPage(options);
  await bert.goto((await fromAnotherAddress()) + '/');
  await signUp(bert, 'Bert_Lee');

  mkdirSync(join(root, 'artifacts'), { recursive: true });
  await bert.screenshot({ path: join(root, 'artifacts', 'e2e-lobby-account.png') });
  for (const page of [ada, bert]) {
    await page.check('#pairing-form input[name=rated]');
    await page.click('#pool-buttons button[data-pool="3+2"]');
  }
  await ada.waitForSelector('#seek-wait:not([hidden])').catch(() => {}); // Ada may be paired at once
  for (const page of [ada, bert]) await page.waitForURL(/\/g\/[a-z0-9]+$/);
  await ada.waitForSelector('#btn-abort:not([hidden])');
  const labels = await ada.locator('#player-top .name, #player-bottom .name').allTextContents();
  if (!labels.every((l) => /\(1500\?\)/.test(l))) throw new Error('players without their provisional rating: ' + labels);

  // English: Black moves first. Ada moves by keyboard, Bert by dragging.
  // Each player's own seat is at the bottom of their board.
  const adaIsBlack = (await ada.textContent('#player-bottom .name')).startsWith('⚫');
  const black = adaIsBlack ? ada : bert;
  const white = adaIsBlack ? bert : ada;
  for (let ply = 0; ply < 4; ply++) {
    const mover = ply % 2 === 0 ? black : white;
    if (mover === ada) await keyboardMove(ada); else await dragMove(bert);
    await waitForMoves(ada, ply + 1);
    await waitForMoves(bert, ply + 1);
  }
  if (!(await ada.isHidden('#btn-abort'))) throw new Error('abort offered after both sides moved');

  bert.once('dialog', (dialog) => dialog.accept());
  await bert.click('#btn-resign');
  for (const page of [ada, bert]) {
    await page.waitForFunction(() => [...document.querySelectorAll('#rules-notice p')]
      .some((p) => /^Your rating: 1500 → \d+ \([+−]\d+\)\.$/.test(p.textContent)));
  }
  await ada.screenshot({ path: join(root, 'artifacts', 'e2e-rated.png') });
  const adaNotice = await ada.textContent('#rules-notice');
  if (!/\(\+\d+\)/.test(adaNotice)) throw new Error('the winner\'s rating did not go up: ' + adaNotice);
  await expectAccessible(bert, 'the page of a rated game that ended');

  // Ada's seat is her account's: logged in on another device, without the seat's token, she
  // has her seat there too.
  const gamePath = new URL(ada.url()).pathname;
  const adaElsewhere = await newPage(options);
  await adaElsewhere.goto(base + '/');
  await adaElsewhere.fill('#login-form input[name=name]', 'ada_byron');
  await adaElsewhere.fill('#login-form input[name=password]', PASSWORD);
  await adaElsewhere.click('#login-form button[type=submit]');
  await adaElsewhere.waitForSelector('#account-name:not([hidden])');
  await adaElsewhere.goto(base + gamePath);
  await adaElsewhere.waitForSelector('#btn-rematch:not([hidden])');
  if (!/Ada_Byron \(1500\?\) \(you\)$/.test(await adaElsewhere.textContent('#player-bottom .name'))) throw new Error('Ada is not seated on her other device');

  // Bert asks for a rematch, Ada sees it and agrees; a spectator is taken to the new game.
  const watcher = await newPage(options);
  await watcher.goto(base + gamePath);
  await watcher.waitForSelector('#btn-review:not([hidden])');
  await bert.click('#btn-rematch');
  await ada.waitForFunction(() => /Your opponent asks for a rematch\./.test(document.getElementById('rules-notice').textContent));
  await ada.click('#btn-rematch');
  await watcher.waitForURL((url) => /^\/g\/[a-z0-9]+$/.test(url.pathname) && url.pathname !== gamePath);
  await ada.waitForURL((url) => url.pathname === new URL(watcher.url()).pathname);

  // The profile: a rating graph, and the page passes axe-core; so does the leaderboard.
  await ada.click('#account-name');
  await ada.waitForURL(/\/@\/Ada_Byron$/);
  await ada.waitForSelector('.rating-graph svg');
  await expectAccessible(ada, 'the profile page');
  await ada.goto(base + '/leaderboard');
  await ada.waitForSelector('h1');
  await expectAccessible(ada, 'the leaderboard');
});

await check('a challenge to a named player is declined, another accepted; a takeback, then an abort', async () => {
  const options = { bypassCSP: true, viewport: { width: 1100, height: 900 } };
  const cleo = await newPage(options);
  const dora = await newPage(options);
  for (const [page, name] of [[cleo, 'Cleo'], [dora, 'Dora_M']]) {
    await page.goto(base + '/');
    await page.waitForSelector('#conn.ok');
    await signUp(page, name);
  }
  const challenge = async () => {
    await cleo.fill('#challenge-form input[name=name]', 'dora_m');
    await cleo.click('#challenge-form button[type=submit]');
    await cleo.waitForSelector('#challenge-wait:not([hidden])');
    await dora.waitForSelector('#challenges:not([hidden])');
    const text = await dora.textContent('#challenge-list li');
    if (!/^Cleo challenges you: English checkers, 5 min \+ 3 s, casual/.test(text)) throw new Error('challenge shown as ' + text);
  };
  await challenge();
  await expectAccessible(dora, 'the lobby with a challenge');
  await dora.click('#challenge-list button:has-text("Decline")');
  await cleo.waitForFunction(() => /Dora_M declined your challenge/.test(document.getElementById('toast').textContent));
  await challenge();
  await dora.click('#challenge-list button:has-text("Accept")');
  for (const page of [cleo, dora]) {
    await page.waitForURL(/\/g\/[a-z0-9]+$/);
    await page.waitForSelector('#btn-abort:not([hidden])');
  }
  if (cleo.url() !== dora.url()) throw new Error('two games: ' + cleo.url() + ' ' + dora.url());

  // A casual game: the second move is taken back on request, then the game is aborted.
  const cleoIsBlack = (await cleo.textContent('#player-bottom .name')).startsWith('⚫');
  const [first, second] = cleoIsBlack ? [cleo, dora] : [dora, cleo];
  await keyboardMove(first);
  await waitForMoves(second, 1);
  await dragMove(second);
  await waitForMoves(first, 2);
  if (!(await first.isHidden('#btn-abort'))) throw new Error('abort offered after both sides moved');
  await second.click('#btn-takeback');
  await first.waitForFunction(() => /Your opponent asks to take back their last move\./.test(document.getElementById('rules-notice').textContent));
  await first.click('#btn-takeback-accept');
  await second.waitForFunction(() => document.querySelectorAll('#moves .mv').length === 1);
  await second.waitForSelector('#btn-abort:not([hidden])');
  second.once('dialog', (dialog) => dialog.accept());
  await second.click('#btn-abort');
  await first.waitForFunction(() => /game over/.test(document.getElementById('status').textContent));
});

await finish();
