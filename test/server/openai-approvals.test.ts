import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, tool } from '../../src/index.js';
import type { RunningServer } from '../../src/server/app/serve.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { openStore } from '../../src/storage/open-store.js';
import type { Store } from '../../src/types/storage/store.js';
import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { startServer } from './helpers.js';

// An approval of the agent's own tool, over the OpenAI-compatible API on a server with a store: the
// answer carries a `corvid_approval` tool call whose id is the approval's; the next request answers
// it with a tool result (`{"approved": …}`) and gets the resumed run's answer. The agent's model is
// the fake model server (OpenAI Responses wire format): it deletes the files the user names ("Delete
// a.txt b.txt"), then says what the (last) tool answered.

type ChatCall = OpenAI.Chat.ChatCompletionMessageFunctionToolCall;
type Item = { type?: string; role?: string; output?: string; content?: Array<{ text?: string }> };

function modelReply(req: RecordedRequest): FakeReply {
  const input = (req.body.input ?? []) as Item[];
  const last = input[input.length - 1];
  if (last?.type === 'function_call_output') return { text: `Tool said: ${last.output}`, usage: { input: 5, output: 4 } };
  const said = [...input].reverse().find((i) => i.role === 'user')?.content?.[0]?.text ?? '';
  const paths = said.split(' ').slice(1);
  return { toolCalls: paths.map((path) => ({ name: 'delete_file', arguments: { path } })), usage: { input: 5, output: 3 } };
}

/** An agent whose `delete_file` tool really deletes files under `dir`, once approved. */
function filesAgent(llm: FakeLlmServer, dir: string): Agent {
  const remove = tool({
    name: 'delete_file',
    description: 'Delete a file',
    input: z.object({ path: z.string() }),
    requireApproval: 'Delete {path}?',
    execute: ({ path }) => (rmSync(join(dir, path)), `deleted ${path}`),
  });
  const model = { provider: 'openai' as const, model: 'gpt-4.1-mini', apiKey: 'test', baseURL: `${llm.url}/v1` };
  return new Agent({ name: 'files', model, tools: [remove] });
}

/** The approval call a paused chat completion carries. */
function approvalCall(answer: OpenAI.Chat.ChatCompletion): ChatCall {
  expect(answer.choices[0].finish_reason).toBe('tool_calls');
  const call = answer.choices[0].message.tool_calls![0] as ChatCall;
  expect(call.function.name).toBe('corvid_approval');
  return call;
}

describe('OpenAI-compatible API: approvals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-oai-approvals-'));
  const file = (name: string) => (writeFileSync(join(dir, name), 'x'), name);
  let store: Store;
  let llm: FakeLlmServer;
  let server: RunningServer;
  let client: OpenAI;

  beforeAll(async () => {
    store = await openStore({ driver: 'sqlite', path: join(dir, 'corvid.db') });
    llm = await startFakeLlmServer(modelReply);
    ({ server } = await startServer([filesAgent(llm, dir)], { store }));
    client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('still answers the approval through the approvals API', async () => {
    const name = file('api.txt');
    const paused = await client.chat.completions.create({
      model: 'files',
      user: 'api',
      messages: [{ role: 'user', content: `Delete ${name}` }],
    });
    const call = approvalCall(paused);
    expect(JSON.parse(call.function.arguments)).toEqual({ tool: 'delete_file', input: { path: name }, prompt: `Delete ${name}?` });
    expect(existsSync(join(dir, name))).toBe(true);
    const res = await fetch(`${server.url}/api/v1/approvals/${call.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ approved: true }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'completed', answer: `Tool said: deleted ${name}` });
    expect(existsSync(join(dir, name))).toBe(false);
  });

  it('chat completions: a tool message approving the call resumes the run and answers with its end', async () => {
    const name = file('approved.txt');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: `Delete ${name}` }];
    const paused = await client.chat.completions.create({ model: 'files', user: 'c1', messages });
    const call = approvalCall(paused);
    expect(existsSync(join(dir, name))).toBe(true);

    messages.push(paused.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"approved": true}' });
    const done = await client.chat.completions.create({ model: 'files', user: 'c1', messages });
    expect(done.choices[0].finish_reason).toBe('stop');
    expect(done.choices[0].message.content).toBe(`Tool said: deleted ${name}`);
    expect(existsSync(join(dir, name))).toBe(false);
    expect((await store.approvals.get(call.id))?.status).toBe('approved');
  });

  it('chat completions, streamed: a denial reaches the model and the tool does not run', async () => {
    const name = file('kept.txt');
    const paused = await client.chat.completions.create({
      model: 'files',
      user: 'c2',
      messages: [{ role: 'user', content: `Delete ${name}` }],
    });
    const call = approvalCall(paused);

    // A session client may send only the new message: the approval is found by its id.
    const stream = await client.chat.completions.create({
      model: 'files',
      user: 'c2',
      stream: true,
      messages: [{ role: 'tool', tool_call_id: call.id, content: JSON.stringify({ approved: false, reason: 'keep it' }) }],
    });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('Tool said: The user denied this call of "delete_file": keep it');
    expect(finish).toBe('stop');
    expect(existsSync(join(dir, name))).toBe(true);
  });

  it('responses: a function_call_output answers the approval, with previous_response_id or the whole history', async () => {
    const approved = file('resp-approved.txt');
    const first = await client.responses.create({ model: 'files', input: `Delete ${approved}` });
    const call = first.output.find((o) => o.type === 'function_call')!;
    expect(call).toMatchObject({ name: 'corvid_approval' });
    const done = await client.responses.create({
      model: 'files',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"approved":true}' }],
    });
    expect(done.output_text).toBe(`Tool said: deleted ${approved}`);
    expect(existsSync(join(dir, approved))).toBe(false);

    // Streamed, without previous_response_id: the history carries the approval call.
    const denied = file('resp-denied.txt');
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: `Delete ${denied}` }];
    const paused = await client.responses.create({ model: 'files', input });
    const ask = paused.output.find((o) => o.type === 'function_call')!;
    input.push(ask, { type: 'function_call_output', call_id: ask.call_id, output: '{"approved":false}' });
    const events = await client.responses.create({ model: 'files', input, stream: true });
    let text = '';
    for await (const e of events) if (e.type === 'response.output_text.delta') text += e.delta;
    expect(text).toBe('Tool said: The user denied this call of "delete_file".');
    expect(existsSync(join(dir, denied))).toBe(true);
  });

  it('a run waiting for two approvals resumes once one request answers both', async () => {
    const [a, b] = [file('two-a.txt'), file('two-b.txt')];
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: `Delete ${a} ${b}` }];
    const paused = await client.chat.completions.create({ model: 'files', user: 'c4', messages });
    const [first, second] = paused.choices[0].message.tool_calls as ChatCall[];
    expect([first.function.name, second.function.name]).toEqual(['corvid_approval', 'corvid_approval']);
    messages.push(paused.choices[0].message, { role: 'tool', tool_call_id: first.id, content: '{"approved":true}' });
    const partial = await client.chat.completions.create({ model: 'files', user: 'c4', messages }).catch((e: unknown) => e);
    expect((partial as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
    expect((partial as Error).message).toContain(`the run also waits for approval "${second.id}" (delete_file)`);
    expect((await store.approvals.get(first.id))?.status).toBe('pending');

    messages.push({ role: 'tool', tool_call_id: second.id, content: '{"approved":false,"reason":"not b"}' });
    const done = await client.chat.completions.create({ model: 'files', user: 'c4', messages });
    expect(done.choices[0].message.content).toBe('Tool said: The user denied this call of "delete_file": not b');
    expect([existsSync(join(dir, a)), existsSync(join(dir, b))]).toEqual([false, true]);
  });

  it('refuses an answer that is not {"approved": …} with a 400 naming the field, leaving the approval pending', async () => {
    const name = file('bad.txt');
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: `Delete ${name}` }];
    const paused = await client.chat.completions.create({ model: 'files', user: 'c3', messages });
    const call = approvalCall(paused);
    messages.push(paused.choices[0].message, { role: 'tool', tool_call_id: call.id, content: 'yes' });
    const err = await client.chat.completions.create({ model: 'files', user: 'c3', messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const body = (err as InstanceType<typeof OpenAI.BadRequestError>).error as { message: string; param: string };
    expect(body.param).toBe('messages[2].content');
    expect(body.message).toContain(
      'must answer the corvid_approval call with the JSON {"approved": true} or {"approved": false, "reason": "…"} (got "yes")',
    );

    const mixed = await client.chat.completions
      .create({
        model: 'files',
        user: 'c3',
        messages: [
          ...messages.slice(0, 2),
          { role: 'tool', tool_call_id: call.id, content: '{"approved":true}' },
          { role: 'user', content: 'and hurry' },
        ],
      })
      .catch((e: unknown) => e);
    expect((mixed as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'messages[3]' });

    const resp = await client.responses
      .create({ model: 'files', input: [{ type: 'function_call_output', call_id: call.id, output: '{"approved":"yes"}' }] })
      .catch((e: unknown) => e);
    expect((resp as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
    expect((resp as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({ param: 'input[0].output' });
    expect((await store.approvals.get(call.id))?.status).toBe('pending');
    expect(existsSync(join(dir, name))).toBe(true);
  });
});

describe('OpenAI-compatible API: approvals with auth on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-oai-approvals-auth-'));
  let store: Store;
  let llm: FakeLlmServer;
  let server: RunningServer;

  beforeAll(async () => {
    store = await openStore({ driver: 'sqlite', path: join(dir, 'corvid.db') });
    llm = await startFakeLlmServer(modelReply);
    const apiKeys = [
      { name: 'alice', hash: hashApiKey('sk-alice') },
      { name: 'bob', hash: hashApiKey('sk-bob') },
    ];
    ({ server } = await startServer([filesAgent(llm, dir)], { store, server: { auth: { apiKeys } } }));
  });
  afterAll(async () => {
    await server.close();
    await llm.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("only the caller who may answer the approval can: another's answer is a 404 and runs nothing", async () => {
    writeFileSync(join(dir, 'alice.txt'), 'x');
    const alice = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-alice', maxRetries: 0 });
    const bob = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-bob', maxRetries: 0 });
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Delete alice.txt' }];
    const paused = await alice.chat.completions.create({ model: 'files', user: 'mine', messages });
    const call = approvalCall(paused);
    messages.push(paused.choices[0].message, { role: 'tool', tool_call_id: call.id, content: '{"approved":true}' });

    const err = await bob.chat.completions.create({ model: 'files', messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).error).toMatchObject({ code: 'approval_not_found' });
    expect(existsSync(join(dir, 'alice.txt'))).toBe(true);

    const done = await alice.chat.completions.create({ model: 'files', user: 'mine', messages });
    expect(done.choices[0].message.content).toBe('Tool said: deleted alice.txt');
    expect(existsSync(join(dir, 'alice.txt'))).toBe(false);
  });
});
