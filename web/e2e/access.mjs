// Browser test of the page's accessibility: a Russian friend game in which one player moves by
// keyboard alone (Tab into the board, arrow keys, Enter and Space) and the other by dragging
// pieces with the mouse; the squares' names, the live region and algebraic move texts; and
// axe-core finds no serious or critical violation on the lobby, the game page and the page of
// a game there is not.
//
//   npm install --prefix web/e2e                   (once)
//   node web/e2e/access.mjs [path/to/checkers]     (default target/debug/checkers)
import { base, require, newPage, check, finish, waitForMoves } from './harness.mjs';

const AXE = require.resolve('axe-core/axe.min.js');

// axe-core's violations of impact serious or critical on the page as it is now. The script is
// put in by the test, which the page's Content-Security-Policy would refuse: the test's
// contexts bypass it.
async function axeViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
  });
}

async function expectAccessible(page, what) {
  const found = await axeViolations(page);
  if (found.length) throw new Error(what + ': ' + found.join('; '));
}

// The grid cell (column, row as shown) of a square, and of the cell with the focus.
const cellOf = (page, sq) => page.$eval(`#cells [data-sq="${sq}"]`, (c) => [Number(c.dataset.col), Number(c.dataset.row)]);
const focusedCell = (page) => page.evaluate(() => {
  const c = document.activeElement;
  return c && c.classList.contains('cell') ? [Number(c.dataset.col), Number(c.dataset.row)] : null;
});

// Moves the keyboard's focus to a square with the arrow keys.
async function arrowTo(page, sq) {
  const [col, row] = await cellOf(page, sq);
  const [atCol, atRow] = await focusedCell(page);
  for (let i = 0; i < Math.abs(col - atCol); i++) await page.keyboard.press(col > atCol ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(row - atRow); i++) await page.keyboard.press(row > atRow ? 'ArrowDown' : 'ArrowUp');
  const now = await focusedCell(page);
  if (now[0] !== col || now[1] !== row) throw new Error('arrow keys reached ' + now + ', not ' + [col, row]);
}

// Tab from wherever the focus is until it is on the board.
async function tabIntoBoard(page) {
  for (let i = 0; i < 30 && !(await focusedCell(page)); i++) await page.keyboard.press('Tab');
  if (!(await focusedCell(page))) throw new Error('Tab never reaches the board');
}

// Plays the first movable piece to its first destination with the keyboard alone.
async function keyboardMove(page) {
  const piece = page.locator('#board .piece.movable').first();
  await piece.waitFor();
  const from = await piece.getAttribute('data-square');
  await tabIntoBoard(page);
  await arrowTo(page, from);
  await page.keyboard.press('Enter');
  const label = await page.evaluate(() => document.activeElement.getAttribute('aria-label'));
  if (!/, (white|black) (man|king), picked up$/.test(label)) throw new Error('picked-up square named ' + label);
  for (let step = 0; step < 12 && (await page.locator('#board .target').count()); step++) {
    const to = await page.locator('#board .target').first().getAttribute('data-square');
    await arrowTo(page, to);
    await page.keyboard.press(step % 2 ? 'Enter' : ' ');
  }
}

// Drags the first movable piece to a square it may end on, with the mouse.
async function dragMove(page) {
  const piece = page.locator('#board .piece.movable').first();
  await piece.waitFor();
  const from = await piece.getAttribute('data-square');
  const start = await page.locator(`#cells [data-sq="${from}"]`).boundingBox();
  await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
  await page.mouse.down();
  await page.mouse.move(start.x + start.width / 2 + 12, start.y + start.height / 2 + 12, { steps: 3 });
  const targets = await page.$$eval('#board .target', (t) => t.map((c) => c.getAttribute('data-square')));
  if (!targets.length) throw new Error('dragging ' + from + ' shows no destination');
  const end = await page.locator(`#cells [data-sq="${targets[targets.length - 1]}"]`).boundingBox();
  await page.mouse.move(end.x + end.width / 2, end.y + end.height / 2, { steps: 8 });
  await page.mouse.up();
}

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
