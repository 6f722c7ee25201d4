import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { cliEnv, fakeModel, runCli, stripAnsi, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';

// The built CLI against the local wire-format fake (127.0.0.1 only): workflows and handoffs from
// corvid.yaml, with their events printed by path.

const tmp = tempDir();
const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };
let server: FakeLlmServer | undefined;

async function serve(script: FakeScript): Promise<FakeLlmServer> {
  server = await startFakeLlmServer(script);
  writeConfig(
    tmp.dir,
    `defaults: { model: fake }
models:
${fakeModel(server.url)}
agents:
  triage:
    instructions: You route. Billing questions go to transfer_to_billing.
    sub_agents: [billing]
  billing:
    instructions: You handle billing.
    sub_agents: [triage]
  article:
    type: sequential
    sub_agents: [researcher, writer]
  researcher:
    instructions: You find facts.
  writer:
    instructions: "Write from: {output.researcher}"
`,
  );
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

describe('the CLI with multi-agent configs', () => {
  it("corvid run --verbose prints a workflow's parts by path and the answer on stdout", async () => {
    const s = await serve([{ text: 'Crows use tools.' }, { text: 'A short article.' }]);
    const r = await runCli(['run', '--agent', 'article', '--verbose', '-q', 'crows'], opts);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('A short article.\n');
    const err = stripAnsi(r.stderr);
    expect(err).toMatch(/▶ researcher\n/);
    expect(err).toMatch(/ {2}article > researcher Crows use tools\./);
    expect(err).toMatch(/✓ researcher \(\d+ ms\)/);
    expect(err).toMatch(/ {2}article > writer A short article\./);
    // The summary counts the parts the workflow ran, as run_end does in --json.
    expect(err).toMatch(/\n2 steps · \d+ in · \d+ out tokens/);
    expect(s.requests[1].body.messages[0]).toEqual({ role: 'system', content: 'Write from: Crows use tools.' });
  });

  it('corvid run --json streams the event tree as NDJSON', async () => {
    await serve([{ toolCalls: [{ name: 'transfer_to_billing', arguments: {} }] }, { text: 'Your invoice is on its way.' }]);
    const r = await runCli(['run', '--json', '-q', 'invoice?'], opts);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; path: string[]; from?: string; to?: string; text?: string });
    expect(events.find((e) => e.type === 'handoff')).toMatchObject({ from: 'triage', to: 'billing', path: ['triage'] });
    expect(events.filter((e) => e.type === 'run_start').map((e) => e.path.join(' > '))).toEqual(['triage', 'triage > billing']);
    expect(events.filter((e) => e.type === 'answer')).toEqual([
      expect.objectContaining({ text: 'Your invoice is on its way.', path: ['triage'] }),
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', path: ['triage'], status: 'completed' });
  });

  it('corvid chat keeps talking to the agent a handoff passed control to', async () => {
    const s = await serve([
      { toolCalls: [{ name: 'transfer_to_billing', arguments: {} }] },
      { text: 'Billing here: paid.' },
      { text: 'Still billing.' },
    ]);
    const r = await runCli(['chat'], { ...opts, input: 'was my invoice paid?\nand the next one?\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Billing here: paid.\nStill billing.\n');
    // The second turn went straight to billing, with the whole conversation.
    expect(s.requests[2].body.messages[0]).toEqual({ role: 'system', content: 'You handle billing.' });
    expect(s.requests[2].body.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(2);
  });
});
