/**
 * The Studio chat in a real Chromium against a real `corvid serve` (SQLite store, its worker, a fake LLM server
 * whose answers the tests hold mid-stream and let go on): a reload during a streamed answer follows the run again
 * and the rest appears once; Stop keeps the partial answer, stores it and the run is `cancelled`; a reopened
 * session shows each turn's event tree and a failed turn's error; the chat follows new content at the bottom
 * unless the reader scrolled up, with the composer at the bottom of the window.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
  startStudioServer,
  studioConfig,
  type StudioServer,
} from './studio-browser-harness.js';

const skip = browserSkipReason();
if (skip) console.log(`studio chat browser tests skipped: ${skip}`);

/** A promise the test resolves when the held answer may go on. */
function gate(): { until: Promise<void>; open: () => void } {
  let open!: () => void;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

const gates = { slow: gate(), stop: gate(), long: gate() };
/** Three parts of 20 characters: the fake server streams them as three deltas. */
const SLOW = 'Slow part one here. Slow part two here. Slow part end here.';
const STOP = 'Stop part one here. Stop part two here. Stop part end here.';
const STORY = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of the story.`).join('\n\n');

function lastText(req: RecordedRequest): { role?: string; text: string } {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content: unknown }>;
  const last = messages.at(-1);
  return { role: last?.role, text: typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '') };
}

function reply(req: RecordedRequest): FakeReply {
  const { role, text } = lastText(req);
  if (role === 'tool') return { text: 'Saved, and done.' };
  if (/slow story/.test(text)) return { text: SLOW, holdBefore: { contains: 'part two', until: gates.slow.until } };
  if (/stoppable story/.test(text)) return { text: STOP, holdBefore: { contains: 'part two', until: gates.stop.until } };
  if (/long story/.test(text)) return { text: STORY, holdBefore: { contains: 'Line 40', until: gates.long.until } };
  if (/research/.test(text)) return { toolCalls: [{ name: 'ask_researcher', arguments: { message: 'find corvids' } }] };
  if (/find corvids/.test(text)) return { text: 'Corvids are crows and ravens.' };
  if (/break for good/.test(text)) return { status: 500, errorMessage: 'the fake model is down' };
  return { text: `Hello! You said: ${text.slice(0, 40)}`, usage: { input: 12, output: 6 } };
}

describe.skipIf(skip !== undefined)('Studio chat in Chromium: reattach, stop, reopened turns, following the bottom', () => {
  let llm: FakeLlmServer;
  let browser: Browser;
  let server: StudioServer;
  let dir: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'corvid-studio-chat-'));
    llm = await startFakeLlmServer(reply);
    const config = studioConfig({ llmUrl: llm.url, dbFile: join(dir, 'store.db') });
    prepareProject(dir, config);
    server = await startStudioServer({ dir, config });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 120_000);

  afterAll(async () => {
    for (const g of Object.values(gates)) g.open();
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await server?.close();
    await llm?.close();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  async function open(path: string, opts: { height?: number } = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: opts.height ?? 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.studioUrl}#/${path}`);
    return page;
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByLabel('Message').fill(text);
    await page.getByLabel('Message').press('Enter');
  }

  const sessionOf = (page: Page) => new URL(page.url().replace('#/', '')).searchParams.get('session')!;
  const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
  const json = async (path: string) => (await fetch(`${server.apiUrl}/api/v1${path}`)).json();

  it('a reload during a streamed answer follows the run again: the rest appears once', async () => {
    const page = await open('chat/assistant');
    await send(page, 'tell a slow story');
    const log = page.locator('.chat-log');
    await log.getByText('Slow part one here.').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.url()).toContain('session=');
    await page.reload();
    // The turn is rebuilt from the run's log and streams on.
    await log.getByText('Slow part one here.').waitFor({ timeout: 30_000 });
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(1);
    gates.slow.open();
    await page.locator('.turn-footer .badge-completed').waitFor({ timeout: 30_000 });
    const text = (await log.textContent())!;
    expect(count(text, 'Slow part one here.')).toBe(1);
    expect(count(text, 'Slow part two here.')).toBe(1);
    expect(count(text, 'Slow part end here.')).toBe(1);
    expect(count(text, 'tell a slow story')).toBe(1);
    // The model was asked once: the run went on where it was, it did not start again.
    expect(llm.requests.filter((r) => lastText(r).text.includes('slow story'))).toHaveLength(1);
    const session = await json(`/sessions/${sessionOf(page)}`);
    expect(session.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant']);
  }, 120_000);

  it('Stop keeps the partial answer, stores it in the session and the run is cancelled, not resumable', async () => {
    const page = await open('chat/assistant');
    await send(page, 'tell a stoppable story');
    const turn = page.locator('.turn').last();
    await turn.getByText('Stop part one here.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await turn.locator('.turn-footer .badge-cancelled').waitFor({ timeout: 30_000 });
    expect(await turn.textContent()).toContain('Stop part one here.');
    expect(await turn.locator('.turn-footer').textContent()).toContain('Stopped.');
    gates.stop.open();
    const session = await json(`/sessions/${sessionOf(page)}`);
    const partial = session.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(partial).toMatchObject({ interrupted: true, content: [{ type: 'text', text: 'Stop part one here. ' }] });
    const runId: string = partial.runId;
    const listed = await json(`/runs?sessionId=${sessionOf(page)}`);
    expect(listed.runs).toEqual([expect.objectContaining({ runId, status: 'cancelled' })]);
    // Runs lists it as cancelled and offers no Resume.
    const runs = await open('runs?status=cancelled');
    const row = runs.locator('tr', { hasText: runId });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain('cancelled');
    expect(await runs.getByRole('button', { name: `Resume ${runId}` }).count()).toBe(0);
    await runs.goto(`${server.studioUrl}#/runs/${runId}`);
    await runs.locator('dl.facts').getByText('cancelled').waitFor({ timeout: 15_000 });
    expect(await runs.getByRole('button', { name: 'Resume' }).count()).toBe(0);
    // The session opened again shows the partial answer as the turn's, stopped.
    const reopened = await open(`chat/assistant?session=${sessionOf(page)}`);
    await reopened.locator('.turn-footer .badge-cancelled').waitFor({ timeout: 30_000 });
    expect(await reopened.locator('.turn').textContent()).toContain('Stop part one here.');
  }, 120_000);

  it('a reopened session shows each turn with its event tree, and a failed turn with its error', async () => {
    const page = await open('chat/assistant');
    await send(page, 'please research corvids');
    await page.locator('.turn-footer .badge-completed').waitFor({ timeout: 30_000 });
    await send(page, 'break for good');
    await page.locator('.turn-footer .badge-failed').waitFor({ timeout: 30_000 });
    const reopened = await open(`chat/assistant?session=${sessionOf(page)}`);
    await reopened.locator('.turn-footer .badge-failed').waitFor({ timeout: 30_000 });
    await expect.poll(() => reopened.locator('.turn').count()).toBe(2);
    const [first, second] = [reopened.locator('.turn').nth(0), reopened.locator('.turn').nth(1)];
    expect(await first.locator('.user-text').textContent()).toBe('please research corvids');
    await expect.poll(() => first.locator('.agent-path').allTextContents()).toEqual(['assistant', 'assistant › researcher']);
    expect(await first.locator('.tool-name').first().textContent()).toBe('ask_researcher');
    expect(await first.textContent()).toContain('Saved, and done.');
    expect(await first.locator('.turn-footer .badge-completed').count()).toBe(1);
    expect(await second.locator('.user-text').textContent()).toBe('break for good');
    expect(await second.locator('.turn-footer .error-text').textContent()).toContain('the fake model is down');
    const audit = await new AxeBuilder({ page: reopened }).analyze();
    const bad = audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }, 120_000);

  it('follows new content at the bottom unless the reader scrolled up; the composer stays at the bottom', async () => {
    const page = await open('chat/assistant', { height: 480 });
    const atBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 64;
    const composerAtBottom = () => {
      const r = document.querySelector('.composer')!.getBoundingClientRect();
      return Math.abs(r.bottom - window.innerHeight) <= 2;
    };
    await page.getByLabel('Message').waitFor();
    await page.waitForFunction(composerAtBottom, undefined, { timeout: 15_000 });
    for (const n of [1, 2, 3, 4]) {
      await send(page, `hello number ${n}`);
      await expect.poll(() => page.locator('.turn-footer .badge-completed').count(), { timeout: 30_000 }).toBe(n);
      await page.waitForFunction(atBottom, undefined, { timeout: 15_000 });
      await page.waitForFunction(composerAtBottom, undefined, { timeout: 15_000 });
    }
    // A long answer streams (held before its end); the reader scrolls up to an earlier turn, and stays there.
    await send(page, 'tell a long story');
    await page.locator('.turn').last().getByText('Line 2 of the story.').waitFor({ timeout: 30_000 });
    await page.waitForFunction(atBottom, undefined, { timeout: 15_000 });
    await page.mouse.move(640, 200);
    await page.mouse.wheel(0, -100_000);
    await page.waitForFunction(() => window.scrollY === 0, undefined, { timeout: 15_000 });
    gates.long.open();
    await expect.poll(() => page.locator('.turn-footer .badge-completed').count(), { timeout: 30_000 }).toBe(5);
    await page.locator('.turn').last().getByText('Line 40 of the story.').waitFor({ state: 'attached', timeout: 15_000 });
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await page.evaluate(composerAtBottom)).toBe(true);
    // Sending follows the bottom again.
    await send(page, 'hello again');
    await expect.poll(() => page.locator('.turn-footer .badge-completed').count(), { timeout: 30_000 }).toBe(6);
    await page.waitForFunction(atBottom, undefined, { timeout: 15_000 });
    // The session opened anew starts at its newest turn.
    const reopened = await open(`chat/assistant?session=${sessionOf(page)}`, { height: 480 });
    await expect.poll(() => reopened.locator('.turn-footer .badge-completed').count(), { timeout: 30_000 }).toBe(6);
    await reopened.waitForFunction(atBottom, undefined, { timeout: 15_000 });
    expect(await reopened.locator('.turn .user-text').last().textContent()).toBe('hello again');
  }, 180_000);
});
