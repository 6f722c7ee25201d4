import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type FakeLlmServer, type FakeScript, startFakeLlmServer } from '../support/fake-llm-server.js';
import { cliEnv, fakeModel, runCli, spawnCli, STACK_LINE, tempDir, writeConfig } from './cli-harness.js';

const tmp = tempDir();
const opts = { cwd: tmp.dir, env: cliEnv(tmp.dir) };
let server: FakeLlmServer | undefined;

async function serve(script: FakeScript): Promise<FakeLlmServer> {
  server = await startFakeLlmServer(script);
  writeConfig(
    tmp.dir,
    `models:\n${fakeModel(server.url)}
agents:
  helper:
    model: fake
    instructions: Be brief.
  poet:
    model: fake
    instructions: Rhyme.
`,
  );
  return server;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => tmp.cleanup());

type ChatBody = { messages: Array<{ role: string; content: unknown }> };
const roles = (body: ChatBody): string[] => body.messages.map((m) => m.role);

describe('corvid chat with piped stdin', () => {
  it('runs each line as a turn, keeps history, and handles /usage and /reset', async () => {
    const s = await serve([
      { text: 'Hi Ann.', usage: { input: 11, output: 3 } },
      { text: 'You are Ann.', usage: { input: 20, output: 4 } },
      { text: 'I do not know.' },
    ]);
    const r = await runCli(['chat'], { ...opts, input: 'I am Ann\nWho am I?\n/usage\n/reset\n\nWho am I?\n' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('Hi Ann.');
    expect(lines[1]).toBe('You are Ann.');
    expect(lines[2]).toMatch(/^conversation: 31 in · 7 out tokens \(4 messages\)$/);
    expect(lines[3]).toMatch(/^session: +31 in · 7 out tokens · 38 total$/);
    expect(lines[4]).toMatch(/New conversation with helper/);
    expect(lines[5]).toBe('I do not know.');
    expect(lines).toHaveLength(6);

    expect(s.requests).toHaveLength(3);
    const second = s.requests[1].body as ChatBody;
    expect(roles(second)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(JSON.stringify(second.messages[1].content)).toContain('I am Ann');
    expect(JSON.stringify(second.messages[2].content)).toContain('Hi Ann.');
    expect(roles(s.requests[2].body as ChatBody)).toEqual(['system', 'user']);
    expect(r.stdout).not.toContain('\u001b[');
  });

  it('prints the question of ask_user as the answer; the next line answers it', async () => {
    server = await startFakeLlmServer([
      { toolCalls: [{ name: 'ask_user', arguments: { question: 'Which city?' } }] },
      { text: 'Booked Lima.' },
    ]);
    writeConfig(tmp.dir, `models:\n${fakeModel(server.url)}agents:\n  helper:\n    model: fake\n    tools: [ask_user]\n`);
    const r = await runCli(['chat'], { ...opts, input: 'Book a flight\nLima\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('Which city?\nBooked Lima.\n');
    const second = server.requests[1].body as ChatBody;
    expect(roles(second)).toEqual(['user', 'assistant', 'tool', 'user']);
  });

  it('chats with the named agent, switches with /agent, and exits on /exit', async () => {
    const s = await serve([{ text: 'Roses.' }, { text: 'Sure.' }]);
    const r = await runCli(['chat', 'poet'], { ...opts, input: 'A poem\n/agent helper\nHelp me\n/exit\nnever sent\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Roses\.\nNow chatting with helper .*new conversation\.\nSure\.\n$/);
    expect((s.requests[0].body as ChatBody).messages[0].content).toBe('Rhyme.');
    expect((s.requests[1].body as ChatBody).messages[0].content).toBe('Be brief.');
    expect(s.requests).toHaveLength(2);
  });

  it('reloads the config and continues the same conversation; a broken file keeps the old one', async () => {
    const s = await serve([{ text: 'Noted.' }, { text: 'Still Ann.' }, { text: 'Yes.' }]);
    const p = spawnCli(['chat'], opts);
    p.write('I am Ann\n');
    await p.waitFor('Noted.');
    writeConfig(tmp.dir, `models:\n${fakeModel(s.url)}agents:\n  helper:\n    model: fake\n    instructions: Be very brief.\n`);
    p.write('/reload\nWho am I?\n');
    await p.waitFor('Still Ann.');
    writeConfig(tmp.dir, 'agents:\n  helper:\n    max_steps: zero\n');
    p.write('/reload\nAnd now?\n');
    p.child.stdin.end();
    expect(await p.exit()).toBe(0);
    expect(p.stdout).toMatch(
      /^Noted\.\nReloaded .*corvid\.yaml; continuing with helper.*\nStill Ann\.\nKept the previous configuration\.\nYes\.\n$/,
    );
    expect(p.stderr).toMatch(/corvid\.yaml:3:\d+ +agents\.helper\.max_steps/);
    const second = s.requests[1].body as ChatBody;
    expect(second.messages[0].content).toBe('Be very brief.');
    expect(roles(second)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(roles(s.requests[2].body as ChatBody)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
  });

  it('reports a failed turn on stderr, keeps going, and exits 1', async () => {
    const s = await serve([{ status: 500, errorMessage: 'Boom.' }, { text: 'Recovered.' }]);
    const r = await runCli(['chat'], { ...opts, input: 'first\nsecond\n/bogus\n' });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('Recovered.\n');
    expect(r.stderr).toMatch(/^error: .*HTTP 500.*Boom\./m);
    expect(r.stderr).toMatch(/Unknown command "\/bogus"/);
    expect(r.stderr).not.toMatch(STACK_LINE);
    // The failed turn left no trace in the history.
    expect(roles(s.requests[1].body as ChatBody)).toEqual(['system', 'user']);
  });

  it('fails cleanly on an unknown agent', async () => {
    await serve([]);
    const r = await runCli(['chat', 'ghost'], { ...opts, input: 'hi\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ghost/);
    expect(r.stderr).not.toMatch(STACK_LINE);
  });
});
