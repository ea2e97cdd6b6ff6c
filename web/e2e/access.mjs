// Browser test of the page's accessibility: a Russian friend game in which one player moves by
// keyboard alone (Tab into the board, arrow keys, Enter and Space) and the other by dragging
// pieces with the mouse; the squares' names, the live region and algebraic move texts; and
// axe-core finds no serious or critical violation on the lobby, the game page and the page of
// a game there is not.
//
//   npm install --prefix web/e2e                   (once)
//   node web/e2e/access.mjs [path/to/checkers]     (default target/debug/checkers)
import { base, newPage, check, finish, waitForMoves } from './harness.mjs';
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

await finish();
