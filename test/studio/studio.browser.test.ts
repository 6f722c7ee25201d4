/**
 * Corvid Studio in a real Chromium against a real `corvid serve` serving it at /studio (SQLite store, fake LLM
 * server, a keyword knowledge base, a stdio MCP server): chat with streaming and tool calls, an approval answered
 * in the inbox while the chat waits, a run resumed from the Runs page and its timeline, memories edited and
 * deleted, the knowledge search playground, an MCP tool called through its form, a session continued after a
 * server restart, sign-in with an API key; axe on every page, light and dark, with screenshots saved to
 * $CORVID_STUDIO_SCREENSHOTS (default: test-artifacts/studio).
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
  writeNotes,
} from './studio-browser-harness.js';

const skip = browserSkipReason();
if (skip) console.log(`studio browser tests skipped: ${skip}`);

const PAGES = [
  'agents',
  'agents/assistant',
  'chat/assistant',
  'playground/assistant',
  'sessions',
  'runs',
  'approvals',
  'memories',
  'knowledge',
  'mcp',
];

/** An answer with highlighted code of several kinds (keywords, strings, comments, numbers, titles, tags…). */
const CODE_ANSWER = [
  'Here is some code:',
  '```ts',
  '// Adds two numbers.',
  'export async function add(a: number, b = 2): Promise<number> {',
  '  const label = `sum of ${a}`; /* a template */',
  '  return a + b + 0x1f;',
  '}',
  'class Crow extends Bird implements Flyer { static readonly count = 3; }',
  '```',
  '```json',
  '{ "name": "corvid", "version": 1, "private": true, "tags": null }',
  '```',
  '```bash',
  '# install',
  'npm install corvid && echo "done" | tee $HOME/log.txt',
  '```',
  '```html',
  '<!doctype html><div class="x" id="y"><p>Crows &amp; ravens</p></div>',
  '```',
  '```yaml',
  'agents:',
  '  helper: { model: fake, max_steps: 4 } # a comment',
  '```',
  '```diff',
  '- old line',
  '+ new line',
  '```',
].join('\n');

let failOnce = true;
function reply(req: RecordedRequest): FakeReply {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  const text = typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
  if (last?.role === 'tool') return { text: 'Saved, and done.', usage: { input: 30, output: 5 } };
  if (/remember/i.test(text)) return { toolCalls: [{ name: 'save_memory', arguments: { key: 'colour', value: 'The colour is green.' } }] };
  if (/research/i.test(text)) return { toolCalls: [{ name: 'ask_researcher', arguments: { message: 'find corvids' } }] };
  if (/find corvids/.test(text)) return { text: 'Corvids are crows and ravens.' };
  if (/show me code/.test(text)) return { text: CODE_ANSWER };
  if (/long story/.test(text)) {
    const story = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the story.`).join('\n\n');
    return { text: story, chunkDelayMs: 25 };
  }
  if (/fail once/.test(text) && failOnce) return ((failOnce = false), { status: 500, errorMessage: 'the fake model is down' });
  return {
    reasoning: 'A greeting is in order.',
    text: `Hello! You said: ${text.slice(0, 40)}`,
    usage: { input: 12, output: 6 },
    chunkDelayMs: 5,
  };
}

describe.skipIf(skip !== undefined)('Corvid Studio in Chromium', () => {
  let llm: FakeLlmServer;
  let browser: Browser;
  let server: StudioServer;
  let dir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corvid-studio-'));
    mkdirSync(join(SHOTS, 'docs'), { recursive: true });
    llm = await startFakeLlmServer(reply);
    const config = studioConfig({ llmUrl: llm.url, dbFile: join(dir, 'store.db') });
    prepareProject(dir, config);
    server = await startStudioServer({ dir, config });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  async function open(
    path: string,
    opts: { colorScheme?: 'light' | 'dark'; width?: number; height?: number; base?: string } = {},
  ): Promise<Page> {
    const context = await browser.newContext({
      colorScheme: opts.colorScheme ?? 'light',
      viewport: { width: opts.width ?? 1280, height: opts.height ?? 900 },
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${opts.base ?? server.studioUrl}#/${path}`);
    return page;
  }

  /** A 1280×800 shot for docs/studio/ (copied there by hand when the pages change). */
  async function docShot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, 'docs', `${name}.png`), clip: { x: 0, y: 0, width: 1280, height: 800 } });
  }

  /** No serious or critical axe violations on the page as it is now (results, forms and all). */
  async function expectAccessible(page: Page): Promise<void> {
    const audit = await new AxeBuilder({ page }).analyze();
    const bad = audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByLabel('Message').press('Enter');
  }

  it('streams a chat turn with reasoning, a nested agent run and its tool call', async () => {
    const page = await open('chat/assistant');
    await send(page, 'please research corvids');
    await expect.poll(() => page.locator('.turn-footer .badge-completed').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.locator('.agent-path').allTextContents()).toEqual(['assistant', 'assistant › researcher']);
    expect(await page.locator('.tool-name').first().textContent()).toBe('ask_researcher');
    expect(await page.locator('.turn').textContent()).toContain('Saved, and done.');
    await page.locator('.tool-args summary').first().click();
    expect(await page.locator('pre.json').first().textContent()).toContain('"message": "find corvids"');
    await page.screenshot({ path: join(SHOTS, 'chat-tools.png'), fullPage: true });
    await docShot(page, 'chat');
    // The run's timeline: its steps and the agent tool's span.
    const { runs } = await (await fetch(`${server.apiUrl}/api/v1/runs?agent=assistant&limit=1`)).json();
    await page.goto(`${server.studioUrl}#/runs/${runs[0].runId}`);
    await page.locator('.waterfall-tool').first().waitFor({ timeout: 15_000 });
    expect(await page.locator('.waterfall-tool .visually-hidden').first().textContent()).toMatch(/^ask_researcher .+ ok$/);
    await docShot(page, 'run-timeline');
    const audit = await new AxeBuilder({ page }).analyze();
    expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  }, 60_000);

  it('answers an approval in the inbox while the chat waits, and the chat catches up', async () => {
    const chat = await open('chat/assistant');
    await send(chat, 'remember my colour');
    await chat.getByRole('button', { name: 'Approve' }).waitFor({ timeout: 20_000 });
    expect(await chat.locator('.turn-footer .badge-paused').count()).toBe(1);
    const inbox = await open('approvals');
    await inbox.getByRole('heading', { name: 'Remember The colour is green.?' }).waitFor({ timeout: 15_000 });
    // The card names the agent that asks.
    await expect.poll(() => inbox.locator('.card.approval .muted').first().textContent()).toMatch(/^agent assistant · save_memory · run /);
    await inbox.screenshot({ path: join(SHOTS, 'approvals-pending.png'), fullPage: true });
    await docShot(inbox, 'approvals');
    await inbox.getByRole('button', { name: 'Approve' }).click();
    await inbox.getByText(/Approved save_memory .* completed: Saved, and done\./).waitFor({ timeout: 20_000 });
    // The waiting chat sees the run move on and shows the session with the rest of the turn.
    await chat.locator('.chat-log').getByText('Saved, and done.').waitFor({ timeout: 20_000 });
  }, 90_000);

  it('resumes a failed run from the Runs page', async () => {
    const chat = await open('chat/assistant');
    await send(chat, 'fail once');
    await chat.locator('.turn-footer .badge-failed').waitFor({ timeout: 20_000 });
    const runs = await open('runs?status=failed');
    const button = runs.getByRole('button', { name: /^Resume run_/ }).first();
    const runId = (await button.getAttribute('aria-label'))!.replace('Resume ', '');
    await button.click();
    await runs.getByText(/resumed: completed: Hello! You said/).waitFor({ timeout: 20_000 });
    // The run's page: its facts and the timeline waterfall of its steps (the failed one and the resumed one).
    await runs.goto(`${server.studioUrl}#/runs/${runId}`);
    await runs.locator('.waterfall-row').first().waitFor({ timeout: 15_000 });
    expect(await runs.locator('dl.facts').textContent()).toContain('completed');
    expect(await runs.locator('.waterfall-label').first().textContent()).toMatch(/assistant · step \d+/);
    await runs.screenshot({ path: join(SHOTS, 'run-timeline.png'), fullPage: true });
    await expectAccessible(runs);
  }, 60_000);

  it('lists what an agent remembered, edits a memory and deletes it (SQLite store)', async () => {
    const chat = await open('chat/assistant');
    await send(chat, 'remember my colour');
    await chat.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await chat.locator('.turn-footer .badge-completed').waitFor({ timeout: 20_000 });
    const page = await open('memories');
    const card = page.locator('li.memory', { hasText: 'colour' });
    await card.getByText('The colour is green.').waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('assistant');
    await card.getByRole('button', { name: 'Edit colour' }).click();
    await card.getByLabel('Text of colour').fill('The colour is teal.');
    await card.getByRole('button', { name: 'Save' }).click();
    await card.getByText('The colour is teal.').waitFor({ timeout: 15_000 });
    const stored = await (await fetch(`${server.apiUrl}/api/v1/memories?agent=assistant`)).json();
    expect(stored.memories).toEqual([expect.objectContaining({ id: 'colour', agent: 'assistant', text: 'The colour is teal.' })]);
    await page.getByLabel('Search').fill('teal');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await card.getByText(/score \d/).waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, 'memories-search.png'), fullPage: true });
    await expectAccessible(page);
    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Delete colour' }).click();
    await page.getByText('No memories match “teal”.').waitFor({ timeout: 15_000 });
    const after = await (await fetch(`${server.apiUrl}/api/v1/memories?agent=assistant`)).json();
    expect(after.memories).toEqual([]);
  }, 90_000);

  it('shows the knowledge base with its stats and searches it in the playground', async () => {
    const page = await open('knowledge');
    const base = page.locator('article', { has: page.getByRole('heading', { name: 'birds' }) });
    await base.waitFor({ timeout: 15_000 });
    const facts = await base.locator('dl.facts').textContent();
    expect(facts).toContain('Documents2');
    expect(facts).toContain('none: keyword search only');
    expect(await base.getByRole('radio', { name: 'vector' }).isDisabled()).toBe(true);
    await base.getByLabel('Query').fill('wade fish');
    await base.getByRole('button', { name: 'Search' }).click();
    await base
      .getByRole('status')
      .getByText(/^\d+ hits? \(keyword\) in [\d.]+ ms$/)
      .waitFor({ timeout: 15_000 });
    const first = base.locator('.hits li').first();
    expect(await first.locator('cite').textContent()).toContain('herons.md');
    expect(await first.textContent()).toMatch(/lines \d+–\d+|line \d+/);
    expect(await first.locator('.hit-text').textContent()).toContain('Herons wade in shallow water');
    await page.screenshot({ path: join(SHOTS, 'knowledge-search.png'), fullPage: true });
    await expectAccessible(page);
  }, 60_000);

  it('lists the MCP server with its tools and calls one through the generated form', async () => {
    const page = await open('mcp');
    const card = page.locator('article', { has: page.getByRole('heading', { name: /sink/ }) });
    await card.locator('.badge', { hasText: 'connected' }).waitFor({ timeout: 30_000 });
    expect(await card.locator('summary code').allTextContents()).toEqual(expect.arrayContaining(['read.file', 'structured', 'fail']));
    const tool = card.locator('li', { has: page.locator('summary code', { hasText: 'read.file' }) });
    await tool.locator('summary').click();
    await tool.getByLabel(/^path/).fill('notes/crows.md');
    await tool.getByRole('button', { name: 'Call read.file' }).click();
    await tool.locator('.tool-result').getByText('read notes/crows.md').waitFor({ timeout: 15_000 });
    const structured = card.locator('li', { has: page.locator('summary code', { hasText: 'structured' }) });
    await structured.locator('summary').click();
    await structured.getByRole('button', { name: 'Call structured' }).click();
    await structured.getByText('Structured content').waitFor({ timeout: 15_000 });
    expect(await structured.locator('.tool-result').textContent()).toContain('"n": 1');
    expect(await structured.locator('.tool-result img').getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    const failing = card.locator('li', { has: page.locator('summary code', { hasText: 'fail' }) });
    await failing.locator('summary').click();
    await failing.getByRole('button', { name: 'Call fail' }).click();
    await failing.locator('.tool-result.error-result').waitFor({ timeout: 15_000 });
    await page.screenshot({ path: join(SHOTS, 'mcp-call.png'), fullPage: true });
    await expectAccessible(page);
  }, 60_000);

  it('has no serious or critical axe violations on any page, light and dark; screenshots down to 360 px wide', async () => {
    // axe runs at the desktop width (one analysis takes seconds on a shared machine); 360 px gets screenshots.
    // A session whose answer has highlighted code, so the contrast of every token colour is checked.
    const chat = await open('chat/assistant');
    await send(chat, 'show me code');
    await chat.locator('.turn-footer .badge-completed').waitFor({ timeout: 20_000 });
    expect(await chat.locator('.hljs-keyword').count()).toBeGreaterThan(0);
    const codeChat = chat.url().split('#/')[1]!;
    for (const [colorScheme, width, audit] of [
      ['light', 1280, true],
      ['dark', 1280, true],
      ['light', 360, false],
    ] as const) {
      const page = await open('agents', { colorScheme, width });
      for (const path of [...PAGES, codeChat]) {
        await page.goto(`${server.studioUrl}#/${path}`);
        await page.locator('main h1').first().waitFor();
        if (path === codeChat) await page.locator('.chat-log .hljs-keyword').first().waitFor({ timeout: 15_000 });
        await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached', timeout: 10_000 });
        if (audit) {
          const result = await new AxeBuilder({ page }).analyze();
          const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
          expect(bad.map((v) => `${path} (${colorScheme}): ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        }
        const shot = path === codeChat ? 'chat-code' : path.replace('/', '-');
        await page.screenshot({ path: join(SHOTS, `${shot}-${colorScheme}-${width}.png`), fullPage: true });
        if (path === 'agents/assistant' && width === 1280) await docShot(page, colorScheme === 'dark' ? 'agent-dark' : 'agent');
      }
    }
  }, 420_000);

  it('continues a session after the server restarts on the same SQLite store', async () => {
    const first = await open('chat/assistant');
    await send(first, 'hello there');
    await first.locator('.turn-footer .badge-completed').waitFor({ timeout: 20_000 });
    const sessionId = (await first.locator('a[href^="#/sessions/"]').first().textContent())!;
    // Pages left open keep polling; close them so the server's graceful shutdown has nothing to wait for.
    for (const context of contexts.splice(0)) await context.close();
    await server.close();
    server = await startStudioServer({ dir, config: studioConfig({ llmUrl: llm.url, dbFile: join(dir, 'store.db') }) });
    const page = await open(`sessions/${sessionId}`);
    await page.getByRole('link', { name: 'Continue' }).click();
    await page.locator('.chat-log .user-text').getByText('hello there', { exact: true }).waitFor({ timeout: 15_000 });
    await send(page, 'hello again');
    await page.locator('.turn').last().locator('.turn-footer .badge-completed').waitFor({ timeout: 20_000 });
    expect(await page.locator('.turn').last().textContent()).toContain('Hello! You said: hello again');
    const last = llm.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    expect(JSON.stringify(last)).toContain('hello there');
  }, 90_000);

  it('signs in with an API key and refuses a wrong one', async () => {
    const authDir = mkdtempSync(join(tmpdir(), 'corvid-studio-auth-'));
    writeNotes(authDir);
    const secured = await startStudioServer({
      dir: authDir,
      config: studioConfig({ llmUrl: llm.url, dbFile: join(authDir, 'store.db'), apiKey: 'studio-test-key' }),
    });
    try {
      const page = await open('agents', { base: secured.studioUrl });
      await page.getByLabel('API key or JWT').fill('not-the-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect(await page.getByRole('alert').textContent()).toMatch(/This key was refused/);
      await page.screenshot({ path: join(SHOTS, 'sign-in-refused.png') });
      await page.getByLabel('API key or JWT').fill('studio-test-key');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Agents' }).waitFor();
      // The heading is drawn before the agents arrive.
      await expect
        .poll(() => page.locator('.card h2').allTextContents(), { timeout: 15_000 })
        .toEqual(['assistant', 'researcher', 'billing']);
      // Signed in, the memories are those of the user the key speaks for: no user to pick.
      await page.goto(`${secured.studioUrl}#/memories`);
      await page.getByText('No memories.').waitFor({ timeout: 15_000 });
      expect(await page.locator('#memory-user').count()).toBe(0);
    } finally {
      await secured.close();
      rmSync(authDir, { recursive: true, force: true });
    }
  }, 60_000);
});
