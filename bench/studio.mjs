#!/usr/bin/env node
// Corvid Studio: the JS and CSS it ships (raw and gzip) and the time to its first screen from localhost. From the
// repo root, after `npm run build`:
//
//   node bench/studio.mjs            (7 page loads, median)
//   node bench/studio.mjs --runs 15
//
// A `corvid serve` (the built CLI) on a config with three agents; Debian's Chromium (/usr/bin/chromium, or
// CORVID_CHROMIUM) through playwright-core, headless, a fresh browser context (empty cache) per load. First screen:
// from `page.goto('/studio/#/agents')` until the agent cards are in the page (the list fetched from the API and
// rendered: the page is interactive). Exits 1 when the JS is over 250 KB gzip or the median first screen over 1 s.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const runsFlag = process.argv.indexOf('--runs');
const RUNS = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 7;
const CHROMIUM = process.env.CORVID_CHROMIUM ?? '/usr/bin/chromium';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

const assets = join(ROOT, 'dist', 'studio', 'assets');
const sizes = {};
for (const file of readdirSync(assets).filter((f) => /\.(js|css)$/.test(f))) {
  const body = readFileSync(join(assets, file));
  sizes[file.endsWith('.js') ? 'js' : 'css'] = { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
}
console.log(`JS  ${kb(sizes.js.raw)} (${kb(sizes.js.gzip)} gzip)   CSS ${kb(sizes.css.raw)} (${kb(sizes.css.gzip)} gzip)`);

const dir = mkdtempSync(join(os.tmpdir(), 'corvid-bench-studio-'));
writeFileSync(
  join(dir, 'corvid.yaml'),
  'models:\n  m: { provider: openai-compatible, base_url: "http://127.0.0.1:9/v1", model: x }\ndefaults: { model: m }\n' +
    'agents:\n  assistant: { description: Helps. }\n  researcher: { description: Finds facts. }\n  billing: { description: Bills. }\n',
);
const server = spawn(process.execPath, [join(ROOT, 'dist', 'cli', 'main.js'), 'serve', '--port', '0'], {
  cwd: dir,
  env: { PATH: process.env.PATH, HOME: dir },
  stdio: ['ignore', 'ignore', 'pipe'],
});
const base = await new Promise((resolve, reject) => {
  let text = '';
  server.stderr.on('data', (d) => {
    text += d;
    const m = /http:\/\/127\.0\.0\.1:\d+/.exec(text);
    if (m) resolve(m[0]);
  });
  server.on('exit', (code) => reject(new Error(`corvid serve exited (${code}): ${text}`)));
});

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
const firstScreen = [];
const interactive = [];
try {
  for (let i = 0; i < RUNS + 1; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const started = performance.now();
    await page.goto(`${base}/studio/#/agents`);
    await page.locator('.card h2').first().waitFor();
    const ms = performance.now() - started;
    const nav = await page.evaluate(() => performance.getEntriesByType('navigation')[0].domInteractive);
    await context.close();
    if (i === 0) continue; // the first load warms the browser process up
    firstScreen.push(ms);
    interactive.push(nav);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
const fs = median(firstScreen);
console.log(
  `first screen (agents listed): median ${fs.toFixed(0)} ms, min ${Math.min(...firstScreen).toFixed(0)}, max ${Math.max(...firstScreen).toFixed(0)} ` +
    `(${RUNS} loads); DOM interactive median ${median(interactive).toFixed(0)} ms`,
);
const ok = sizes.js.gzip <= 250 * 1024 && fs < 1000;
if (!ok) console.log('TARGET MISSED: JS ≤ 250 KB gzip and first screen < 1 s');
process.exit(ok ? 0 : 1);
