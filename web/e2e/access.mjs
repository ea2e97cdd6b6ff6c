// Browser test of the page's accessibility: a Russian friend game in which one player moves by
// keyboard alone (Tab into the board, arrow keys, Enter and Space) and the other by dragging
// pieces with the mouse; the squares' names, the live region and algebraic move texts; and
// axe-core finds no serious or critical violation on the lobby, the game page and the page of
// a game there is not; a premove, animation (none with reduced motion) and the sound switch;
// the analysis board (screenshot in artifacts/e2e-analysis.png) plays a pasted game on with the engine's arrows.
//
//   npm install --prefix web/e2e                   (once)
//   node web/e2e/access.mjs [path/to/checkers]     (default target/debug/checkers)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { base, root, newPage, check, finish, waitForMoves } from './harness.mjs';
import { expectAccessible, keyboardMove, dragMove } from './input.mjs';

await check('the lobby, a game and a missing game pass axe-core; one player moves by keyboard, the other by dragging', async () => {
  const options = { bypassCSP: true, viewport: { width: 1100, height: 900 } };
  const ann = await newPage(options);
  await ann.goto(base + '/');
  await ann.waitForSelector('#conn.ok');
  await expectAccessible(ann, 'the lobby');

  await ann.check('input[name=opponent][value=friend]');
  await ann.selectOption('select[name=variant]', 'russian');
  await ann.selectOption('select[name=color]', 'white');
  await ann.selectOption('select[name=clock]', '600+5');
  await ann.click('#create-form button[type=submit]');
  await ann.waitForFunction(() => document.querySelector('#invite-link')?.value.includes('#invite='));
  const link = await ann.inputValue('#invite-link');
  const ben = await newPage(options);
  await ben.goto(link);
  await ben.click('#join-btn');
  await ben.waitForSelector('#join-box', { state: 'hidden' });
  await ann.waitForSelector('#board .piece.movable');
  await expectAccessible(ann, 'the game page');

  // Squares are named for a screen reader, Russian ones algebraically.
  const names = await ann.$$eval('#cells [role=gridcell]', (cells) => cells.map((c) => c.getAttribute('aria-label')));
  for (const name of ['a1, white man', 'c3, white man, can move', 'f6, black man', 'd4, empty']) {
    if (!names.includes(name)) throw new Error('no square named ' + name + ': ' + names.slice(0, 12).join(' | '));
  }

  for (let ply = 0; ply < 4; ply++) {
    if (ply % 2 === 0) await keyboardMove(ann); else await dragMove(ben);
    await waitForMoves(ann, ply + 1);
    await waitForMoves(ben, ply + 1);
  }
  const moves = await ann.$$eval('#moves .mv', (m) => m.map((e) => e.textContent));
  if (moves.length !== 4 || !moves.every((m) => /^[a-h][1-8]([-:][a-h][1-8])+$/.test(m))) {
    throw new Error('moves: ' + moves.join(' '));
  }
  // The live region told Ann of Ben's move and that it is her turn.
  await ann.waitForFunction(() => /^Black played \S+\. Your move\.$/.test(document.getElementById('announcer').textContent));

  const lost = await newPage(options);
  const answer = await lost.goto(base + '/g/nosuchgame');
  if (answer.status() !== 404) throw new Error('a missing game answers ' + answer.status());
  if (await lost.locator('#btn-resign, #board').count()) throw new Error('a missing game has game controls');
  await expectAccessible(lost, 'the page of a missing game');
});

// Counts the page's calls of Element.animate (the board's piece movement).
const countAnimations = () => {
  window.__animations = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) { window.__animations++; return animate.apply(this, args); };
};

await check('a premove is played when its turn comes; moves are animated but not with reduced motion; sound switches off', async () => {
  const cleo = await newPage({ viewport: { width: 1100, height: 900 } });
  await cleo.addInitScript(countAnimations);
  await cleo.goto(base + '/');
  await cleo.check('input[name=opponent][value=friend]');
  await cleo.selectOption('select[name=variant]', 'english');
  await cleo.selectOption('select[name=color]', 'black');
  await cleo.click('#create-form button[type=submit]');
  await cleo.waitForFunction(() => document.querySelector('#invite-link')?.value.includes('#invite='));
  const dan = await newPage({ viewport: { width: 1100, height: 900 }, reducedMotion: 'reduce' });
  await dan.addInitScript(countAnimations);
  await dan.goto(await cleo.inputValue('#invite-link'));
  await dan.click('#join-btn');
  await dan.waitForSelector('#join-box', { state: 'hidden' });
  await cleo.waitForSelector('#board .piece.movable');
  // Black (Cleo) to move first; White (Dan) queues 22-18, legal whatever Black plays.
  await dan.click('#cells [data-sq="22"]');
  await dan.click('#cells [data-sq="18"]');
  await dan.waitForSelector('#board .premove');
  await cleo.click('#cells [data-sq="11"]');
  await cleo.click('#cells [data-sq="15"]');
  await waitForMoves(dan, 2);
  const moves = await dan.$$eval('#moves .mv', (m) => m.map((e) => e.textContent));
  if (moves.join(' ') !== '11-15 22-18') throw new Error('moves: ' + moves.join(' '));
  await waitForMoves(cleo, 2);
  if ((await cleo.evaluate(() => window.__animations)) < 1) throw new Error('Dan\'s move was not animated for Cleo');
  if ((await dan.evaluate(() => window.__animations)) !== 0) throw new Error('a move was animated with reduced motion');
  // The sound switch, kept across a reload.
  if ((await cleo.getAttribute('#btn-sound', 'aria-pressed')) !== 'true') throw new Error('sound starts off');
  await cleo.click('#btn-sound');
  await cleo.reload();
  await cleo.waitForSelector('#board .piece');
  if ((await cleo.getAttribute('#btn-sound', 'aria-pressed')) !== 'false') throw new Error('the sound switch is not kept');
});

await check('the analysis board takes a PDN, draws the engine\'s lines as arrows and plays both sides', async () => {
  const page = await newPage({ bypassCSP: true, viewport: { width: 1100, height: 900 } });
  await page.goto(base + '/analysis');
  await page.fill('#analysis-form textarea', '[GameType "25"]\n\n1. c3-d4 f6-e5 *');
  await page.click('#analysis-form button[type=submit]');
  // Ben's reply f6-e5 leaves White one capture, d4:f6; the engine's lines start with it.
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines li').length === 1);
  const line = await page.textContent('#analysis-lines li');
  if (!/^d4:f6 /.test(line)) throw new Error('line: ' + line);
  if ((await page.locator('#analysis-board .arrow').count()) !== 1) throw new Error('no arrow for the line');
  await expectAccessible(page, 'the analysis board');
  // Both sides are played here: White's capture, then any of Black's moves.
  for (let ply = 0; ply < 2; ply++) {
    const piece = page.locator('#analysis-board .piece.movable').first();
    const from = await piece.getAttribute('data-square');
    await page.click(`#analysis-cells [data-sq="${from}"]`);
    const to = await page.locator('#analysis-board .target').last().getAttribute('data-square');
    await page.click(`#analysis-cells [data-sq="${to}"]`);
    await page.waitForFunction((n) => document.getElementById('analysis-moves').textContent.split(' ').filter(Boolean).length === n, ply + 1);
  }
  await page.waitForFunction(() => document.querySelectorAll('#analysis-lines li').length >= 1);
  mkdirSync(join(root, 'artifacts'), { recursive: true });
  await page.screenshot({ path: join(root, 'artifacts', 'e2e-analysis.png') });
  const played = await page.textContent('#analysis-moves');
  if (!/^d4:f6 [a-h][1-8][-:][a-h][1-8]/.test(played)) throw new Error('played: ' + played);
  await page.click('#analysis-back');
  if ((await page.textContent('#analysis-moves')) !== 'd4:f6') throw new Error('take back left ' + (await page.textContent('#analysis-moves')));
});

await finish();
