// What every browser test script shares: the `checkers` server it starts (a fresh database),
// Debian's chromium driven by playwright-core, pages in fresh contexts, named checks, and the
// closing line `N passed, M failed` that crates/server/tests/browser.rs reads.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, '..', '..');
export const require = createRequire(import.meta.url);
const { chromium } = require('playwright-core');

const binary = process.argv[2] || join(root, 'target', 'debug', 'checkers');
const db = join(mkdtempSync(join(tmpdir(), 'checkers-e2e-')), 'e2e.db');
const server = spawn(binary, ['serve', '--addr', '127.0.0.1:0', '--db', db], { stdio: ['ignore', 'pipe', 'inherit'] });
export const base = await new Promise((resolve, reject) => {
  server.stdout.once('data', (chunk) => {
    const m = String(chunk).match(/listening on (http:\/\/\S+)/);
    m ? resolve(m[1]) : reject(new Error('unexpected output: ' + chunk));
  });
  server.once('exit', (code) => reject(new Error('server exited with ' + code)));
});

const tally = { passed: 0, failed: 0 };
export const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
});

// A page in a fresh browser context. Waits get two minutes rather than Playwright's 30 s:
// on a loaded two-core CI machine a debug server's first replies can be slow; a wait that
// is never satisfied still fails, only later.
export async function newPage(options = {}) {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(120_000);
  return context.newPage();
}

export async function check(name, body) {
  try {
    await body();
    tally.passed++;
    console.log('ok   ' + name);
  } catch (e) {
    tally.failed++;
    console.log('FAIL ' + name + ': ' + (e && e.stack || e));
  }
}

export async function finish() {
  await browser.close();
  server.kill('SIGTERM');
  console.log(`${tally.passed} passed, ${tally.failed} failed`);
  process.exit(tally.failed ? 1 : 0);
}

// The moves in the list (not the "…" that stands for the first side's move when the game
// starts with the second).
export async function movesShown(page) {
  return page.locator('#moves .mv').filter({ hasNotText: '…' }).count();
}

export async function waitForMoves(page, n) {
  await page.waitForFunction((n) => [...document.querySelectorAll('#moves .mv')].filter((e) => e.textContent !== '…').length >= n, n);
}
