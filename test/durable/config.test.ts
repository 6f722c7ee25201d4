import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { type Agent, tool } from '../../src/index.js';
import { loadRuntime, type Runtime } from '../../src/runtime/index.js';
import { ScriptedModel } from '../../src/testing/index.js';

let dir: string | undefined;
let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.close();
  runtime = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const wipe = tool({
  name: 'wipe',
  description: 'Wipe',
  parameters: { type: 'object', properties: { what: { type: 'string' } } },
  execute: ({ what }: { what: string }) => `wiped ${what}`,
});
const look = tool({ name: 'look', description: 'Look', parameters: { type: 'object' }, execute: () => 'seen' });

async function load(yaml: string): Promise<Runtime> {
  dir = mkdtempSync(join(tmpdir(), 'corvid-durable-config-'));
  writeFileSync(join(dir, 'corvid.yaml'), yaml);
  runtime = await loadRuntime({ cwd: dir, tools: [wipe, look], env: { OPENAI_API_KEY: 'test' } });
  return runtime;
}

describe('config: require_approval and storage for runs', () => {
  it('require_approval (map form) pauses a runtime agent session run in the runtime store; resume finishes it', async () => {
    const rt = await load(
      'storage:\n  driver: memory\nagents:\n  ops:\n    model: openai:gpt-4.1-mini\n    tools: [wipe, look]\n    require_approval:\n      wipe: "Wipe {what}?"\n',
    );
    const agent = rt.agent<Agent>('ops');
    agent.setModel(
      new ScriptedModel([
        {
          toolCalls: [
            { toolName: 'wipe', input: { what: 'disk' } },
            { toolName: 'look', input: {} },
          ],
        },
        { text: 'Wiped.' },
      ]),
    );
    const r = await agent.run('wipe the disk', { session: 'ops-1' });
    expect(r.status).toBe('paused');
    expect(r.pendingApprovals?.map((p) => p.prompt)).toEqual(['Wipe disk?']);
    const store = await rt.store();
    await store.approvals.answer(r.pendingApprovals![0].approvalId, { approved: true });
    expect((await agent.resume(r.runId)).text).toBe('Wiped.');
    expect((await store.sessions.messages('ops-1')).length).toBe(4);
  });

  it('require_approval (list form) uses the default prompt', async () => {
    const rt = await load('agents:\n  ops:\n    model: openai:gpt-4.1-mini\n    tools: [wipe]\n    require_approval: [wipe]\n');
    const agent = rt.agent<Agent>('ops');
    agent.setModel(new ScriptedModel([{ toolCalls: [{ toolName: 'wipe', input: { what: 'x' } }] }, { text: 'no' }]));
    const prompts: string[] = [];
    await agent.run('wipe', { onApproval: (q) => (prompts.push(q.prompt), { approved: false }) });
    expect(prompts).toEqual(['Allow wipe({"what":"x"})?']);
  });

  it('a tool name the agent does not have, or a wrong shape, is reported with its path', async () => {
    await expect(
      load('agents:\n  ops:\n    model: openai:gpt-4.1-mini\n    tools: [look]\n    require_approval: [wipe]\n'),
    ).rejects.toThrow(/agents\.ops\.require_approval: agent "ops" has no tool named "wipe" \(its tools: look\)/);
    await expect(
      load('agents:\n  ops:\n    model: openai:gpt-4.1-mini\n    tools: [look]\n    require_approval: yes please\n'),
    ).rejects.toThrow(/require_approval.*(list of tool names|map of tool name)/s);
  });
});
