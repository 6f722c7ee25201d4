/**
 * The Studio's Evals page in a real Chromium against a real `corvid serve`, on the results the real `corvid eval`
 * saved: the example suite replayed from its cassette, then again with `sum` expecting another answer. The list
 * names the suite with its gates passed and failed; the newer run shows its failed gate, the cases × scorers table,
 * the failed runs with their reasons and the regression since the previous run, marked; a 360 px screen fits; axe
 * finds nothing serious in light and dark mode.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliEnv, ROOT, runCli, tempDir } from '../cli/cli-harness.js';
import { browserSkipReason, CHROMIUM, SHOTS, startStudioServer, type StudioServer } from './studio-browser-harness.js';

const skip = browserSkipReason();
if (skip) console.log(`studio evals browser tests skipped: ${skip}`);

const EXAMPLE = join(ROOT, 'examples', 'evals');

/** The example suite with absolute paths and `sum` expecting 6: its exact score drops from 1 to 0. */
function changedSuite(): string {
  return readFileSync(join(EXAMPLE, 'calc.eval.yaml'), 'utf8')
    .replace('config: corvid.yaml', `config: ${join(EXAMPLE, 'corvid.yaml')}`)
    .replace('cassette: calc.cassette.json', `cassette: ${join(EXAMPLE, 'calc.cassette.json')}`)
    .replace("expected: '5'", "expected: '6'");
}

/** The served config: the example's calculator agent, never called here. */
const CONFIG = `models:
  fake:
    provider: openai-compatible
    base_url: http://127.0.0.1:9/v1
    model: test
defaults:
  model: fake
agents:
  calc:
    description: A calculator.
`;

describe.skipIf(skip !== undefined)('Corvid Studio Evals page in Chromium', () => {
  const tmp = tempDir('corvid-studio-evals-');
  let browser: Browser;
  let server: StudioServer;
  const ids: string[] = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const dir = tmp.dir;
    const evalCli = (suite: string) => runCli(['eval', suite, '--replay', '--no-color'], { cwd: dir, env: cliEnv(dir), timeoutMs: 60_000 });
    writeFileSync(join(dir, 'changed.eval.yaml'), changedSuite());
    for (const suite of [join(EXAMPLE, 'calc.eval.yaml'), 'changed.eval.yaml']) {
      const r = await evalCli(suite);
      ids.push(/Results: \.corvid\/evals\/(\S+)\.json/.exec(r.stderr)?.[1] ?? `(no results: ${r.stderr})`);
    }
    server = await startStudioServer({ dir, config: CONFIG });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    tmp.cleanup();
  }, 30_000);

  async function open(path: string, opts: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
    const context = await browser.newContext({
      colorScheme: opts.colorScheme ?? 'light',
      viewport: { width: opts.width ?? 1280, height: 900 },
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.studioUrl}#/${path}`);
    await page.locator('main h1').first().waitFor({ timeout: 15_000 });
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15_000 });
    return page;
  }

  async function expectAccessible(page: Page): Promise<void> {
    const audit = await new AxeBuilder({ page }).analyze();
    const bad = audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  it('lists the runs of the suite with their gates, and opens one: the failed gate, the failed runs, the regression marked', async () => {
    const page = await open('agents');
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Evals' }).click();
    await page.locator('.evals-table tbody tr').nth(1).waitFor({ timeout: 15_000 });
    const rows = page.locator('.evals-table tbody tr');
    // Each run is named by its suite and when it ran, the file id second.
    const titles = await rows.locator('.record-title').allTextContents();
    expect(titles).toHaveLength(2);
    for (const title of titles) expect(title).toMatch(/^calc · .*\d{1,2}:\d{2}/);
    expect(await rows.nth(0).locator('.record-id code').innerText()).toBe(ids[1]);
    expect(await rows.nth(0).getByText('failed', { exact: true }).count()).toBe(1);
    expect(await rows.nth(0).locator('.gate-badges').innerText()).toContain('✗ exact');
    expect(await rows.nth(1).getByText('passed', { exact: true }).count()).toBe(1);
    expect(await rows.nth(1).innerText()).toContain('k = 2');
    await page.screenshot({ path: join(SHOTS, 'evals.png'), fullPage: true });
    await expectAccessible(page);

    await rows.nth(0).locator('.record-title').click();
    await page.getByRole('heading', { name: 'Eval calc' }).waitFor({ timeout: 15_000 });
    expect(page.url()).toContain(`#/evals/${ids[1]}`);
    const exactGate = page
      .locator('table')
      .first()
      .getByRole('row', { name: /^exact/ });
    expect(await exactGate.innerText()).toMatch(/failed/);
    // `sum` expects 6 now: exact drops to 0 (and the judge, whose prompt carries the expected answer, misses the cassette).
    const regressed = page.locator('.eval-changes tr[data-change="regressed"]').filter({ hasText: 'exact' });
    expect(await regressed.count()).toBe(1);
    expect(await regressed.innerText()).toMatch(/sum\s+exact\s+regressed\s+1\.00 → 0\.00 \(-1\.00\)/);
    expect(await page.locator('.eval-changes tbody tr').first().getAttribute('data-change')).toBe('regressed');
    expect(await regressed.locator('th').evaluate((e) => getComputedStyle(e).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    expect(await page.locator('.eval-cases').innerText()).toMatch(/sum[\s\S]*0\.00 \(0\/2 passed\)/);
    expect(await page.locator('.failed-runs').innerText()).toMatch(/sum\s+run 1 of 2[\s\S]*exact 0\.00/);
    await page.screenshot({ path: join(SHOTS, 'eval-run.png'), fullPage: true });
    await expectAccessible(page);

    // The first run has nothing before it; its own link back works.
    await page.getByRole('link', { name: 'All eval runs' }).click();
    await rows.nth(1).locator('.record-title').click();
    await page.getByText('This is the first saved run of this suite').waitFor({ timeout: 15_000 });
  }, 90_000);

  it('fits a 360 px screen and passes axe in dark mode (light mode: above)', async () => {
    for (const path of ['evals', `evals/${ids[1]}`]) {
      const narrow = await open(path, { width: 360 });
      const { width, wide } = await narrow.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        wide: Array.from(document.querySelectorAll('body *'))
          .filter((e) => e.getBoundingClientRect().right > 361)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      }));
      expect(width, `${path} is ${width} px wide: ${wide.join(', ')}`).toBeLessThanOrEqual(360);
      const dark = await open(path, { colorScheme: 'dark' });
      await dark.locator('.record-title, .eval-cases').first().waitFor({ timeout: 15_000 });
      await expectAccessible(dark);
    }
  }, 90_000);
});
