import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, tool } from '../../src/index.js';
import type { RunningServer } from '../../src/server/serve.js';
import { openStore } from '../../src/storage/open-store.js';
import { ScriptedModel } from '../../src/testing/index.js';
import type { Store } from '../../src/types/storage/store.js';
import { startServer } from './helpers.js';

// An approval of the agent's own tool, over the OpenAI-compatible API on a server with a store:
// the answer carries a `corvid_approval` tool call whose id is the approval's; answering it resumes the run.

describe('OpenAI-compatible API: approvals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-oai-approvals-'));
  let store: Store;
  let server: RunningServer;
  const deleted: string[] = [];

  beforeAll(async () => {
    store = await openStore({ driver: 'sqlite', path: join(dir, 'corvid.db') });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'delete_file', input: { path: 'a.txt' } }] }, { text: 'Deleted a.txt.' }], {
      record: false,
    });
    const remove = tool({
      name: 'delete_file',
      description: 'Delete a file',
      input: z.object({ path: z.string() }),
      requireApproval: 'Delete {path}?',
      execute: ({ path }) => (deleted.push(path), 'deleted'),
    });
    ({ server } = await startServer([new Agent({ name: 'files', model, tools: [remove] })], { store }));
  });
  afterAll(async () => {
    await server.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('surfaces the approval as a corvid_approval tool call, answered through the approvals API', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
    const paused = await client.chat.completions.create({
      model: 'files',
      user: 'u1',
      messages: [{ role: 'user', content: 'Delete a.txt' }],
    });
    expect(paused.choices[0].finish_reason).toBe('tool_calls');
    const call = paused.choices[0].message.tool_calls![0] as OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe('corvid_approval');
    expect(JSON.parse(call.function.arguments)).toEqual({ tool: 'delete_file', input: { path: 'a.txt' }, prompt: 'Delete a.txt?' });
    expect(deleted).toEqual([]);

    const res = await fetch(`${server.url}/api/v1/approvals/${call.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approved: true }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'completed', answer: 'Deleted a.txt.' });
    expect(deleted).toEqual(['a.txt']);
  });
});
