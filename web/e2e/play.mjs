// Browser end-to-end test of the web page: Debian's chromium driven by playwright-core.
// Two browser contexts play a short friend game by clicking (a stranger with the game's plain
// address is refused, the friend joins with the invitation link) and have it reviewed by the
// engine; a third plays the computer; a fourth sees level 9 open from its book; a screenshot
// of the board is saved to artifacts/e2e-board.png.
//
//   npm install --prefix web/e2e                   (once)
//   node web/e2e/play.mjs [path/to/checkers]       (default target/debug/checkers)
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { base, root, newPage, check, finish, movesShown } from './harness.mjs';
import { clickAMove } from './input.mjs';

await check('two people play a short game by clicking', async () => {
  const alice = await newPage({ viewport: { width: 420, height: 860 }, hasTouch: true });
  await alice.goto(base + '/');
  await alice.check('input[name=opponent][value=friend]');
  await alice.selectOption('select[name=color]', 'black');
  await alice.selectOption('select[name=clock]', '600+5');
  await alice.fill('input[name=name]', '<img src=x onerror=alert(1)>');
  await alice.click('#create-form button[type=submit]');
  await alice.waitForURL(/\/g\/[a-z0-9]+$/);
  // The page fills the link once the server has seated Alice, a moment after the URL changes.
  await alice.waitForFunction(() => document.querySelector('#invite-link')?.value.includes('/g/'));
  const link = await alice.inputValue('#invite-link');
  if (!/\/g\/[a-z0-9]+#invite=[0-9a-f]{32}$/.test(link)) throw new Error('no invitation in the link: ' + link);
  // A friend game is private: in no list, and its plain address is not enough to join it.
  const gamePath = new URL(link).pathname;
  const eve = await newPage();
  await eve.goto(base + gamePath);
  await eve.click('#join-btn');
  await eve.waitForFunction(() => /private/.test(document.querySelector('#toast')?.textContent || ''));
  if (await eve.isHidden('#join-box')) throw new Error('a stranger took the seat');
  const listed = await (await fetch(base + '/api/games')).text();
  if (listed.includes(gamePath.slice(3))) throw new Error('the friend game is listed: ' + listed);
  await eve.context().close();
  const bob = await newPage();
  await bob.goto(link);
  await bob.click('#join-btn');
  await bob.waitForSelector('#join-box', { state: 'hidden' });
  // The name is shown as text, never as markup.
  const shown = await bob.locator('#player-top .name, #player-bottom .name').allTextContents();
  if (!shown.some((t) => t.includes('<img src=x'))) throw new Error('name not shown as text: ' + shown);
  const players = [alice, bob]; // English: Black (Alice) moves first
  for (let ply = 0; ply < 6; ply++) {
    const mover = players[ply % 2];
    await clickAMove(mover);
    for (const p of players) await p.waitForFunction((n) => document.querySelectorAll('#moves .mv:not(:empty)').length >= n && [...document.querySelectorAll('#moves .mv')].filter((e) => e.textContent !== '…').length >= n, ply + 1);
  }
  if ((await movesShown(alice)) !== 6 || (await movesShown(bob)) !== 6) throw new Error('move lists differ');
  mkdirSync(join(root, 'artifacts'), { recursive: true });
  await alice.locator('#view-game .board-col').screenshot({ path: join(root, 'artifacts', 'e2e-board.png') });
  await bob.click('#btn-flip');
  await alice.click('#btn-draw');
  await bob.waitForSelector('#btn-accept:not([hidden])');
  await bob.click('#btn-accept');
  // Alice's own "You offered a draw." banner is already up; wait for the game-over one.
  // A wait that runs out is let through: the check below then names the banner shown.
  await alice.waitForFunction(() => document.querySelector('#status')?.textContent.includes('game over'))
    .catch(() => {});
  const banner = await alice.textContent('#banner');
  if (!/agreement/i.test(banner)) throw new Error('end message: ' + banner);
  // The finished game is reviewed by the engine: a summary, and every move has its score.
  await alice.click('#btn-review');
  await alice.waitForSelector('#review-summary:not([hidden])');
  const summary = await alice.textContent('#review-summary');
  if (!/^Engine review: Black: .*; White: /.test(summary)) throw new Error('review summary: ' + summary);
  const titled = await alice.$$eval('#moves .mv[title]', (e) => e.length);
  if (titled !== 6) throw new Error('moves with a review comment: ' + titled);
  const piecesAtEnd = await alice.$$eval('#board .piece', (e) => e.length);
  // The evaluation graph: a click at its left edge shows the position after the first move.
  await alice.waitForSelector('#eval-graph:not([hidden])');
  await alice.locator('#eval-graph').click({ position: { x: 2, y: 40 } });
  const first = await alice.textContent('#moves .mv');
  if ((await alice.textContent('#review-move')).indexOf('After ' + first.replace(/\?+$/, '') + ':') !== 0) {
    throw new Error('the graph\'s first point shows ' + (await alice.textContent('#review-move')));
  }
  if ((await alice.textContent('#moves .mv.viewing')) !== first) throw new Error('the list does not mark the move viewed');
  // Stepping through the reviewed game: a move's position and verdict, then back to the end.
  await alice.click('#moves .mv.good, #moves .mv.mistake, #moves .mv.blunder');
  const viewed = await alice.textContent('#review-move');
  if (!/^After \S+: /.test(viewed)) throw new Error('viewed move: ' + viewed);
  await alice.keyboard.press('Home');
  if ((await alice.textContent('#review-move')) !== 'The start position.') throw new Error('Home does not show the start');
  if ((await alice.$$eval('#board .piece', (e) => e.length)) !== 24) throw new Error('the start has 24 pieces');
  // The engine's three best moves from the start, each with its score and line.
  await alice.waitForFunction(() => document.querySelectorAll('#review-lines li:not(.note)').length === 3);
  const lines = await alice.$$eval('#review-lines li', (e) => e.map((li) => li.textContent));
  const opening = /^(9-13|9-14|10-14|10-15|11-15|11-16|12-16) [+-]\d\.\d\d: \1 /;
  if (!lines.every((l) => opening.test(l))) throw new Error('engine lines from the start: ' + JSON.stringify(lines));
  if (new Set(lines.map((l) => l.split(' ')[0])).size !== 3) throw new Error('three different moves: ' + JSON.stringify(lines));
  await alice.screenshot({ path: join(root, 'artifacts', 'e2e-review.png') });
  await alice.keyboard.press('End');
  await alice.waitForSelector('#review-move', { state: 'hidden' });
  if ((await alice.$$eval('#board .piece', (e) => e.length)) !== piecesAtEnd) throw new Error('End shows the game as it ended');
  // The finished game opens on the analysis board at the position shown.
  const analyse = await alice.getAttribute('#analysis-link', 'href');
  if (!/^\/analysis#variant=english&fen=[WB]%3A/.test(analyse)) throw new Error('analysis link: ' + analyse);
  const reviewLink = await alice.getAttribute('#review-pdn-link', 'href');
  if (!/^\/games\/[a-z0-9]+\/review\.pdn$/.test(reviewLink)) throw new Error('reviewed PDN link: ' + reviewLink);
});

// A new page with a game against the computer at `level`, the person playing White (so the
// computer, Black in English, moves first).
async function gameAgainstTheComputer(level) {
  const page = await newPage();
  await page.goto(base + '/');
  await page.check('input[name=opponent][value=computer]');
  await page.selectOption('select[name=level]', level);
  await page.selectOption('select[name=color]', 'white');
  await page.click('#create-form button[type=submit]');
  await page.waitForURL(/\/g\/[a-z0-9]+$/);
  return page;
}

await check('one person plays the computer', async () => {
  const carol = await gameAgainstTheComputer('1');
  await carol.waitForFunction(() => document.querySelectorAll('#moves .mv').length >= 1); // the computer opened
  await clickAMove(carol);
  await carol.waitForFunction(() => [...document.querySelectorAll('#moves .mv')].filter((e) => e.textContent !== '…').length >= 3);
  await carol.screenshot({ path: join(root, 'artifacts', 'e2e-computer.png') });
});

await check('the computer says when it plays from its opening book', async () => {
  const dave = await gameAgainstTheComputer('9');
  // Level 9 opens English from its book at once.
  await dave.waitForFunction(() => /from its opening book/.test(document.querySelector('#status')?.textContent || ''));
  const title = await dave.getAttribute('#moves .mv.last', 'title');
  if (title !== 'from the opening book') throw new Error('last move title: ' + title);
});

await finish();
