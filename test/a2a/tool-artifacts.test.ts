import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { Agent, tool, toolArtifact } from '../../src/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { fakeRuntime, startServer, type TestServer } from './harness.js';

// A tool that returns `toolArtifact(...)` hands the A2A client a file or data: the task gets an
// artifact with FilePart (bytes or URL) / DataPart, before the answer artifact. Over real HTTP,
// v1.0 JSON-RPC (sent and streamed), v1.0 REST and v0.3 JSON-RPC.

type Json = Record<string, any>;

const report = tool({
  name: 'report',
  description: 'Writes the report',
  input: z.object({ kind: z.string() }),
  execute: async ({ kind }) =>
    kind === 'file'
      ? toolArtifact({
          name: 'report',
          parts: [{ file: { name: 'output.txt', mediaType: 'text/plain', bytes: Buffer.from('hello file').toString('base64') } }],
        })
      : kind === 'url'
        ? toolArtifact({ parts: [{ file: { name: 'output.txt', mediaType: 'text/plain', url: 'https://files.example/output.txt' } }] })
        : kind === 'data'
          ? toolArtifact({ parts: [{ data: { key: 'value', count: 42 } }] })
          : { type: 'artifact', parts: [{ nonsense: true }] },
});

/** Calls `report` with the kind named in the user's message, then answers "Done.". */
function reporterModel(): ScriptedModel {
  return new ScriptedModel((call) => {
    const last = call.prompt[call.prompt.length - 1];
    if (last.role === 'tool') return { text: 'Done.' };
    const text = last.role === 'user' ? last.content.map((p) => (p.type === 'text' ? p.text : '')).join('') : '';
    return { toolCalls: [{ toolName: 'report', input: { kind: text } }] };
  });
}

let server: TestServer;
beforeAll(async () => {
  const agent = new Agent({ name: 'reporter', instructions: 'Report.', model: reporterModel(), tools: [report] });
  const runtime = fakeRuntime([agent]);
  server = await startServer({ runtime: () => runtime, visibility: () => 'public' });
});
afterAll(() => server.close());

async function rpc(method: string, params: unknown, version?: string): Promise<Json> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (version) headers['A2A-Version'] = version;
  const res = await fetch(`${server.url}/a2a/reporter`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as Json;
}
const v1Send = (text: string) => ({ message: { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }] } });

describe('tool results made with toolArtifact()', () => {
  it('become a file artifact (bytes) before the answer, over v1.0 JSON-RPC', async () => {
    const task = (await rpc('SendMessage', v1Send('file'), '1.0')).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toHaveLength(2);
    const [file, answer] = task.artifacts;
    expect(file.name).toBe('report');
    expect(file.parts).toEqual([{ raw: Buffer.from('hello file').toString('base64'), filename: 'output.txt', mediaType: 'text/plain' }]);
    expect(answer.parts[0].text).toBe('Done.');
  });

  it('become a file URL artifact and a data artifact, over v1.0 REST', async () => {
    for (const [kind, part] of [
      ['url', { url: 'https://files.example/output.txt', filename: 'output.txt', mediaType: 'text/plain' }],
      ['data', { data: { key: 'value', count: 42 }, mediaType: 'application/json' }],
    ] as const) {
      const res = await fetch(`${server.url}/a2a/reporter/rest/message:send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'A2A-Version': '1.0' },
        body: JSON.stringify(v1Send(kind)),
      });
      expect(res.status).toBe(200);
      const task = ((await res.json()) as Json).task;
      expect(task.artifacts[0].parts).toEqual([part]);
    }
  });

  it('stream as an artifact update, and reach v0.3 clients as kind "file" / "data" parts', async () => {
    const res = await fetch(`${server.url}/a2a/reporter`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'A2A-Version': '1.0', accept: 'text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 's', method: 'SendStreamingMessage', params: v1Send('data') }),
    });
    const events = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => (JSON.parse(l.slice(5)) as { result: Json }).result);
    const updates = events.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate.artifact);
    expect(updates[0].parts).toEqual([{ data: { key: 'value', count: 42 }, mediaType: 'application/json' }]);
    const legacy = (
      await rpc('message/send', {
        message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'file' }] },
      })
    ).result;
    expect(legacy.artifacts[0].parts[0]).toMatchObject({
      kind: 'file',
      file: { name: 'output.txt', mimeType: 'text/plain', bytes: Buffer.from('hello file').toString('base64') },
    });
  });

  it('a malformed artifact result stays a plain tool result: only the answer artifact', async () => {
    const task = (await rpc('SendMessage', v1Send('bad'), '1.0')).result.task;
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts.map((a: Json) => a.name)).toEqual(['answer']);
  });
});
