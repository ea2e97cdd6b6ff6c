// What the browser test scripts share to play and to check a page: a move by clicking, a move
// by keyboard alone (Tab into the board, arrow keys, Enter and Space), a move by dragging with
// the mouse, and axe-core's check for serious or critical violations.
import { require } from './harness.mjs';

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

export async function expectAccessible(page, what) {
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
export async function keyboardMove(page) {
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
export async function dragMove(page) {
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

// Clicks the first movable piece, then its first destination (following a route to its end).
export async function clickAMove(page) {
  const piece = page.locator('#board .piece.movable').first();
  await piece.waitFor();
  const from = await piece.getAttribute('data-square');
  await page.click(`#cells [data-sq="${from}"]`);
  for (let step = 0; step < 12; step++) {
    const target = page.locator('#board .target').first();
    if (!(await target.count())) break;
    const sq = await target.getAttribute('data-square');
    await page.click(`#cells [data-sq="${sq}"]`);
    const choice = page.locator('#route-buttons button').first();
    if (await choice.isVisible().catch(() => false)) { await choice.click(); break; }
    if (!(await page.locator('#board .target').count())) break;
  }
}
