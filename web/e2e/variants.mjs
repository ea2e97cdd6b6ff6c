// Browser test of the variants on the page: every variant offered by its title in the lobby's
// forms and on the analysis board; a game against the computer in International draughts
// (10x10: 50 squares numbered, 100 cells, flipped with the board) and one in Turkish draughts
// (all 64 squares, moves along ranks and files), each played a couple of moves by clicking,
// with a screenshot of the 10x10 board in artifacts/e2e-international.png; the analysis board's
// start positions of 10x10, 12x12, the mirrored Italian board and Turkish; axe-core on the
// 10x10 game.
//
//   npm install --prefix web/e2e                   (once)
//   node web/e2e/variants.mjs [path/to/checkers]   (default target/debug/checkers)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { base, root, newPage, check, finish, waitForMoves } from './harness.mjs';
import { clickAMove, expectAccessible } from './input.mjs';

const VARIANTS = ['english', 'russian', 'international', 'brazilian', 'canadian', 'frisian', 'frysk', 'antidraughts',
  'breakthrough', 'italian', 'spanish', 'portuguese', 'czech', 'pool', 'thai', 'turkish'];

// A new page with a game against the computer at level 1 in `variant`, the person playing
// White (who moves first in International and Turkish draughts).
async function gameAgainstTheComputer(variant) {
  const page = await newPage({ bypassCSP: true, viewport: { width: 1100, height: 900 } });
  await page.goto(base + '/');
  await page.check('input[name=opponent][value=computer]');
  await page.selectOption('select[name=level]', '1');
  await page.selectOption('#create-form select[name=variant]', variant);
  await page.selectOption('#create-form select[name=color]', 'white');
  await page.click('#create-form button[type=submit]');
  await page.waitForURL(/\/g\/[a-z0-9]+$/);
  await page.waitForSelector('#board .piece.movable');
  return page;
}

// What the board shows: cells, cells with a square, squares drawn dark or plain, numbers, pieces.
const boardCounts = (page) => page.evaluate(() => ({
  cells: document.querySelectorAll('#cells [role=gridcell]').length,
  squares: [...document.querySelectorAll('#cells [role=gridcell]')].filter((c) => c.dataset.sq).length,
  drawn: document.querySelectorAll('#board rect.sq.dark, #board rect.sq.full').length,
  numbers: document.querySelectorAll('#board .sqnum').length,
  pieces: document.querySelectorAll('#board .piece').length,
}));

const same = (found, wanted) => Object.entries(wanted).every(([k, v]) => found[k] === v);

// The grid cell (column, row as shown) of a square.
const cellOf = (page, sq, cells = '#cells') => page.$eval(`${cells} [data-sq="${sq}"]`, (c) => [Number(c.dataset.col), Number(c.dataset.row)]);

await check('every variant is offered by its title in the lobby\'s forms and on the analysis board', async () => {
  const page = await newPage();
  await page.goto(base + '/');
  await page.waitForSelector('#conn.ok');
  for (const form of ['#create-form', '#pairing-form', '#challenge-form']) {
    const offered = await page.$$eval(`${form} select[name=variant] option`, (o) => o.map((e) => e.value));
    if (offered.length !== 16 || !VARIANTS.every((v) => offered.includes(v)) || offered[0] !== 'english') {
      throw new Error(form + ' offers ' + offered.join(' '));
    }
  }
  const chosen = await page.$eval('#create-form select[name=variant]', (s) => s.options[s.selectedIndex].textContent);
  if (chosen !== 'English checkers') throw new Error('the rules chosen at first: ' + chosen);
  const titles = await page.$$eval('#create-form select[name=variant] option', (o) => o.map((e) => e.textContent));
  for (const title of ['International draughts', 'Frysk!', 'Turkish draughts', 'Canadian draughts', 'Pool checkers']) {
    if (!titles.includes(title)) throw new Error('no ' + title + ' in ' + titles.join(', '));
  }
  await page.goto(base + '/analysis');
  const analysed = await page.$$eval('#analysis-form select[name=variant] option', (o) => o.map((e) => e.value));
  if (analysed.length !== 16 || !VARIANTS.every((v) => analysed.includes(v))) throw new Error('analysis offers ' + analysed.join(' '));
});

await check('International draughts against the computer: a 10x10 board of 50 numbered squares, played by clicking', async () => {
  const page = await gameAgainstTheComputer('international');
  const counts = await boardCounts(page);
  if (!same(counts, { cells: 100, squares: 50, drawn: 50, numbers: 50, pieces: 40 })) throw new Error('board: ' + JSON.stringify(counts));
  const status = await page.textContent('#status');
  if (!status.startsWith('International draughts · ')) throw new Error('status: ' + status);
  // White at the bottom: square 46 in the bottom left corner (a1), 1 at the top (b10).
  if ((await cellOf(page, 46)).join() !== '0,9' || (await cellOf(page, 1)).join() !== '1,0') throw new Error('squares 46 and 1 misplaced');
  const names = await page.$$eval('#cells [role=gridcell]', (cells) => cells.map((c) => c.getAttribute('aria-label')));
  for (const name of ['46, white man', '31, white man, can move', '1, black man', '25, empty', 'a10, light square']) {
    if (!names.includes(name)) throw new Error('no square named ' + name + ': ' + names.slice(0, 12).join(' | '));
  }
  await expectAccessible(page, 'a 10x10 game');
  for (let n = 0; n < 2; n++) {
    await clickAMove(page);
    await waitForMoves(page, 2 * n + 2); // mine, then the computer's
  }
  const moves = await page.$$eval('#moves .mv', (m) => m.map((e) => e.textContent));
  if (!moves.every((m) => /^\d{1,2}([-x]\d{1,2})+$/.test(m))) throw new Error('moves: ' + moves.join(' '));
  mkdirSync(join(root, 'artifacts'), { recursive: true });
  await page.locator('#view-game .board-col').screenshot({ path: join(root, 'artifacts', 'e2e-international.png') });
  await page.click('#btn-flip');
  if ((await cellOf(page, 46)).join() !== '9,0') throw new Error('square 46 not at the top right once flipped');
  const flipped = await boardCounts(page);
  if (!same(flipped, { cells: 100, squares: 50, drawn: 50, numbers: 50 })) throw new Error('flipped board: ' + JSON.stringify(flipped));
});

await check('Turkish draughts against the computer: 64 squares, men move along ranks and files, played by clicking', async () => {
  const page = await gameAgainstTheComputer('turkish');
  const counts = await boardCounts(page);
  if (!same(counts, { cells: 64, squares: 64, drawn: 64, numbers: 0, pieces: 32 })) throw new Error('board: ' + JSON.stringify(counts));
  const names = await page.$$eval('#cells [role=gridcell]', (cells) => cells.map((c) => c.getAttribute('aria-label')));
  for (const name of ['a2, white man', 'h3, white man, can move', 'a7, black man', 'd5, empty', 'a1, empty']) {
    if (!names.includes(name)) throw new Error('no square named ' + name + ': ' + names.slice(0, 12).join(' | '));
  }
  // A man picked up may go forward or sideways: every destination shares its rank or file.
  const from = await page.locator('#board .piece.movable').first().getAttribute('data-square');
  await page.click(`#cells [data-sq="${from}"]`);
  const [col, row] = await cellOf(page, from);
  const targets = await page.$$eval('#board .target', (t) => t.map((c) => c.getAttribute('data-square')));
  if (!targets.length) throw new Error('no destination for ' + from);
  for (const to of targets) {
    const [c, r] = await cellOf(page, to);
    if (c !== col && r !== row) throw new Error('a diagonal destination ' + to + ' from ' + from);
  }
  await page.click(`#cells [data-sq="${from}"]`); // put down again
  for (let n = 0; n < 2; n++) {
    await clickAMove(page);
    await waitForMoves(page, 2 * n + 2);
  }
  const moves = await page.$$eval('#moves .mv', (m) => m.map((e) => e.textContent));
  if (!moves.every((m) => /^[a-h][1-8]([-x:][a-h][1-8])+$/.test(m))) throw new Error('moves: ' + moves.join(' '));
  await page.screenshot({ path: join(root, 'artifacts', 'e2e-turkish.png') });
});

await check('the analysis board starts each variant from its own start position', async () => {
  const page = await newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(base + '/analysis');
  await page.waitForSelector('#analysis-board .piece');
  const starts = [
    ['international', { cells: 100, squares: 50, pieces: 40 }, 46, '0,9'],
    ['canadian', { cells: 144, squares: 72, pieces: 60 }, 1, '1,0'],
    // Italian's mirrored board: square 1 in the top left corner.
    ['italian', { cells: 64, squares: 32, pieces: 24 }, 1, '0,0'],
    ['turkish', { cells: 64, squares: 64, pieces: 32 }, 1, '0,0'],
  ];
  for (const [variant, wanted, sq, cell] of starts) {
    await page.selectOption('#analysis-form select[name=variant]', variant);
    await page.fill('#analysis-form textarea', '');
    await page.click('#analysis-form button[type=submit]');
    await page.waitForFunction((n) => document.querySelectorAll('#analysis-board .piece').length === n
      && /to move/.test(document.getElementById('analysis-status').textContent), wanted.pieces);
    const found = await page.evaluate(() => ({
      cells: document.querySelectorAll('#analysis-cells [role=gridcell]').length,
      squares: [...document.querySelectorAll('#analysis-cells [role=gridcell]')].filter((c) => c.dataset.sq).length,
      pieces: document.querySelectorAll('#analysis-board .piece').length,
    }));
    if (!same(found, wanted)) throw new Error(variant + ': ' + JSON.stringify(found));
    if ((await cellOf(page, sq, '#analysis-cells')).join() !== cell) throw new Error(variant + ': square ' + sq + ' misplaced');
    const status = await page.textContent('#analysis-status');
    if (!status.startsWith('White to move')) throw new Error(variant + ': ' + status);
  }
});

await finish();
