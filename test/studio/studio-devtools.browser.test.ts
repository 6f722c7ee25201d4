/**
 * The Studio's developer tools in a real Chromium against a real `corvid serve` (SQLite store, fake LLM server):
 * the agent diagram's agent-tool edge, a background run's trace (the nested agent as its own step, tokens) and its
 * replay, runs and sessions named by their input with the id second, nothing wider than a 360 px screen, few Tabs
 * to the Approve button of a pending approval, and the playground's per-request model, settings and system prompt
 * (checked on what the fake LLM server received); axe on the new views.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import {
  browserSkipReason,
  CHROMIUM,
  prepareProject,
  SHOTS,
  startStudioServer,
  studioConfig,
  type StudioServer,
} from './studio-browser-harness.js';

const skip = browserSkipReason();
if (skip) console.log(`studio devtools browser tests skipped: ${skip}`);

function textOf(req: RecordedRequest): string {
  const last = ((req.body?.messages ?? []) as Array<{ role: string; content: unknown }>).at(-1);
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

function reply(req: RecordedRequest): FakeReply {
  const messages = (req.body?.messages ?? []) as Array<{ role: string }>;
  const text = textOf(req);
  if (messages.at(-1)?.role === 'tool') return { text: 'Corvids it is.', usage: { input: 30, output: 5 } };
  if (/remember/i.test(text)) return { toolCalls: [{ name: 'save_memory', arguments: { key: 'colour', value: 'green' } }] };
  if (/research/i.test(text)) return { toolCalls: [{ name: 'ask_researcher', arguments: { message: 'find corvids' } }] };
  if (/find corvids/.test(text)) return { text: 'Corvids are crows and ravens.', usage: { input: 21, output: 7 } };
  return { text: `Hello! You said: ${text.slice(0, 40)}`, usage: { input: 12, output: 6 } };
}

/** The tests' config with a second model, `quick`, on the same fake server. */
function config(llmUrl: string, dbFile: string): string {
  return studioConfig({ llmUrl, dbFile }).replace(
    'models:\n',
    `models:\n  quick:\n    provider: openai-compatible\n    base_url: ${llmUrl}/v1\n    model: quick-model\n    retry:\n      max_retries: 0\n`,
  );
}

describe.skipIf(skip !== undefined)('Corvid Studio developer tools in Chromium', () => {
  let llm: FakeLlmServer;
  let browser: Browser;
  let server: StudioServer;
  let dir: string;
  let runId = '';
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corvid-studio-dev-'));
    mkdirSync(SHOTS, { recursive: true });
    llm = await startFakeLlmServer(reply);
    const text = config(llm.url, join(dir, 'store.db'));
    prepareProject(dir, text);
    server = await startStudioServer({ dir, config: text });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    // A background run of the assistant that asks its researcher (an agent tool): its events are logged.
    const submitted = await api('POST', '/api/v1/runs', { agent: 'assistant', input: 'please research corvids for me' });
    runId = submitted.runId;
    const done = await api('GET', `/api/v1/runs/${runId}?wait=60`);
    expect(done.status).toBe('completed');
  }, 180_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  async function api(method: string, path: string, body?: unknown): Promise<any> {
    const res = await fetch(`${server.apiUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  }

  async function open(path: string, opts: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
    const context = await browser.newContext({
      colorScheme: opts.colorScheme ?? 'light',
      viewport: { width: opts.width ?? 1280, height: 900 },
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.studioUrl}#/${path}`);
    await page.locator('main h1').first().waitFor({ timeout: 15_000 });
    return page;
  }

  async function expectAccessible(page: Page): Promise<void> {
    const audit = await new AxeBuilder({ page }).analyze();
    const bad = audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  it('draws the agents an agent calls as tools in its diagram', async () => {
    const page = await open('agents/assistant');
    const edge = page.locator('svg.diagram path.edge-tool[data-to="tool:researcher"]');
    await edge.waitFor({ timeout: 15_000 });
    expect(await page.locator('svg.diagram').getAttribute('aria-label')).toContain('calls as tools researcher');
    expect(await page.locator('svg.diagram .diagram-sub').allTextContents()).toContain('agent tool');
  }, 60_000);

  it('shows a run as a trace: the nested agent as its own step, with tokens, inputs and outputs', async () => {
    const page = await open(`runs/${runId}?view=trace`);
    const nested = page.locator('.trace-row.nested-agent');
    await nested.first().waitFor({ timeout: 15_000 });
    expect(await nested.locator('.span-name').textContent()).toContain('researcher');
    // The researcher's model call carries its own tokens; the totals add up every model call (the fake server's
    // default usage, 10 → 5, for the call asking for the tool).
    const totals = await page.locator('.trace-totals').textContent();
    expect(totals).toContain(`${10 + 21 + 30} → ${5 + 7 + 5} tokens`);
    await nested.locator('.span-name').click();
    const details = page.locator('.span-details');
    await details.getByText('find corvids').first().waitFor({ timeout: 10_000 });
    expect(await details.textContent()).toContain('Corvids are crows and ravens.');
    expect(await details.textContent()).toContain('21 → 7 tokens');
    // The tool call that started it sits above it, and collapsing the agent hides its steps.
    expect(await page.locator('.trace-row[data-kind="tool"] .span-name').first().textContent()).toContain('ask_researcher');
    await page.screenshot({ path: join(SHOTS, 'run-trace.png'), fullPage: true });
    const rows = await page.locator('.trace-row').count();
    await page.getByRole('button', { name: 'Collapse agent researcher' }).click();
    await expect.poll(() => page.locator('.trace-row').count()).toBeLessThan(rows);
    await expectAccessible(page);
    const dark = await open(`runs/${runId}?view=trace`, { colorScheme: 'dark' });
    await dark.locator('.trace-row.nested-agent').first().waitFor({ timeout: 15_000 });
    await expectAccessible(dark);
  }, 90_000);

  it('replays the run event by event', async () => {
    const page = await open(`runs/${runId}?view=replay`);
    const status = page.locator('.replay-position');
    await status.waitFor({ timeout: 15_000 });
    const total = Number(/of (\d+)/.exec((await status.textContent())!)![1]);
    expect(total).toBeGreaterThan(5);
    await page.getByLabel('Event').fill('0');
    await page.getByText('Before the first event.').waitFor();
    await page.getByRole('button', { name: 'Step forward' }).click();
    await expect.poll(() => status.textContent()).toMatch(/^event 1 of \d+ · run_start/);
    expect(await page.locator('.agent-path').allTextContents()).toEqual(['assistant']);
    await page.getByRole('button', { name: '▶ Play' }).click();
    await expect.poll(() => status.textContent(), { timeout: 30_000 }).toMatch(new RegExp(`^event ${total} of ${total}`));
    expect(await page.locator('.agent-path').allTextContents()).toEqual(['assistant', 'assistant › researcher']);
    await page.screenshot({ path: join(SHOTS, 'run-replay.png'), fullPage: true });
    await page.getByRole('button', { name: 'Step back' }).click();
    await expect.poll(() => status.textContent()).toMatch(new RegExp(`^event ${total - 1} of`));
    await expectAccessible(page);
  }, 90_000);

  it('names runs and sessions by their input, with the id second and copyable', async () => {
    const page = await open('runs');
    const row = page.locator('tr', { has: page.locator(`.record-id code`, { hasText: runId }) });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.locator('.record-title').textContent()).toBe('please research corvids for me');
    await row.getByRole('button', { name: `Copy run id ${runId}` }).waitFor();
    await api('POST', '/api/v1/agents/assistant/chat', { message: 'hello from the sessions list' });
    await page.goto(`${server.studioUrl}#/sessions`);
    await page.locator('.record-title', { hasText: 'hello from the sessions list' }).first().waitFor({ timeout: 15_000 });
    expect(await page.locator('.record-title').allTextContents()).not.toContain(expect.stringMatching(/^ses_/));
  }, 60_000);

  it('fits a 360 px screen: nothing is wider than the page', async () => {
    const page = await open('runs', { width: 360 });
    for (const path of [
      'runs',
      'sessions',
      `runs/${runId}?view=trace`,
      `runs/${runId}?view=replay`,
      'playground/assistant',
      'agents/assistant',
    ]) {
      await page.goto(`${server.studioUrl}#/${path}`);
      await page.locator('main h1').first().waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 15_000 });
      if (path === 'runs') await page.locator('.record-title').first().waitFor({ timeout: 15_000 });
      const { width, wide } = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        wide: Array.from(document.querySelectorAll('main *'))
          .filter((e) => e.getBoundingClientRect().right > 361)
          .slice(0, 5)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      }));
      expect(width, `${path} is ${width} px wide: ${wide.join(', ')}`).toBeLessThanOrEqual(360);
    }
  }, 90_000);

  it('reaches the Approve button of a pending approval in a few Tabs', async () => {
    const paused = await api('POST', '/api/v1/agents/assistant/chat', { message: 'remember my colour' });
    expect(paused.status).toBe('paused');
    const page = await open('approvals');
    await page.getByRole('button', { name: 'Approve' }).first().waitFor({ timeout: 15_000 });
    let tabs = 0;
    while (tabs < 10) {
      await page.keyboard.press('Tab');
      tabs++;
      if (await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Approve')) break;
    }
    expect(tabs).toBeLessThanOrEqual(3);
    await page.keyboard.press('Enter');
    await page.getByText(/Approved save_memory/).waitFor({ timeout: 20_000 });
  }, 60_000);

  it('sends the playground’s model, temperature, max tokens and edited system prompt, and saves none of them', async () => {
    const page = await open('playground/assistant');
    await page.getByLabel('Model', { exact: true }).selectOption('quick');
    await page.getByLabel('Temperature').fill('0.3');
    await page.getByLabel('Max tokens').fill('77');
    await page.getByLabel(/System prompt/).fill('You are a terse pirate.');
    await page.getByText('edited, not saved').waitFor();
    await page.getByLabel('Message').fill('ahoy playground');
    const before = llm.requests.length;
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('.playground-answer').getByText('Hello! You said: ahoy playground').waitFor({ timeout: 20_000 });
    expect(await page.locator('.playground-log').textContent()).toContain(
      'Sent with model quick, temperature 0.3, max 77 tokens, edited system prompt (not saved)',
    );
    await page.screenshot({ path: join(SHOTS, 'playground.png'), fullPage: true });
    const sent = llm.requests.slice(before).find((r) => textOf(r).includes('ahoy playground'))!;
    expect(sent.body.model).toBe('quick-model');
    expect(sent.body.temperature).toBe(0.3);
    expect(sent.body.max_tokens ?? sent.body.max_completion_tokens).toBe(77);
    expect(JSON.stringify(sent.body.messages[0])).toContain('You are a terse pirate.');
    await expectAccessible(page);
    // The agent is as configured for the next plain request.
    const after = llm.requests.length;
    await api('POST', '/api/v1/agents/assistant/chat', { message: 'plain hello' });
    const plain = llm.requests.slice(after).find((r) => textOf(r).includes('plain hello'))!;
    expect(plain.body.model).toBe('test');
    expect(JSON.stringify(plain.body.messages)).not.toContain('pirate');
    expect(plain.body.temperature).toBeUndefined();
  }, 90_000);
});
