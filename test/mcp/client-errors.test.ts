import { afterEach, describe, expect, it } from 'vitest';

import { Agent } from '../../src/index.js';
import { McpError, McpHub } from '../../src/mcp/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { everything, fixture, runTool } from './support.js';

const hubs: McpHub[] = [];
function hub(options: ConstructorParameters<typeof McpHub>[0]): McpHub {
  const h = new McpHub(options);
  hubs.push(h);
  return h;
}
afterEach(async () => {
  await Promise.all(hubs.splice(0).map((h) => h.close()));
});

describe('MCP client: bad servers and bad results', () => {
  it('a command that does not exist', async () => {
    const h = hub({ servers: { nope: { transport: 'stdio', command: 'corvid-no-such-command-xyz', args: [] } } });
    const err = await h.listTools('nope').catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err.message).toBe(
      'MCP server "nope" failed to start: command "corvid-no-such-command-xyz" not found (check "command" and PATH)',
    );
    expect(h.status()[0]).toMatchObject({ state: 'failed', error: err.message });
  });

  it('a server that exits at start, with the end of its stderr', async () => {
    const h = hub({ servers: { dies: fixture('exit-at-start.mjs') } });
    await expect(h.listTools('dies')).rejects.toThrow(
      /^MCP server "dies" failed to start: the server exited during start-up; its stderr ended with:\n {2}fatal: EXAMPLE_API_KEY is not set/,
    );
  });

  it('a server that prints garbage instead of JSON-RPC', async () => {
    const h = hub({ servers: { noisy: fixture('garbage.mjs', { connectTimeoutMs: 400 }) } });
    await expect(h.listTools('noisy')).rejects.toThrow(
      /^MCP server "noisy" did not complete the MCP handshake within 400 ms; it wrote output that is not JSON-RPC on stdout \(.*Hello/,
    );
  });

  it('malformed results and JSON-RPC errors', async () => {
    const h = hub({ servers: { bad: fixture('malformed.mjs') } });
    const [broken, err] = await h.tools('bad');
    await expect(runTool(broken, {})).rejects.toThrow(/^MCP server "bad": tool "broken" failed: /);
    await expect(runTool(err, {})).rejects.toThrow('MCP server "bad": tool "err" failed: MCP error -32602: Unknown argument "x"');
    // The connection survives a bad answer.
    await expect(runTool(broken, {})).rejects.toThrow(McpError);
  });

  it('isError results become tool errors the model sees; audio and mixed content map to text', async () => {
    const h = hub({ servers: { sink: fixture('kitchen-sink.mjs') } });
    const byName = new Map((await h.tools('sink')).map((t) => [t.name, t]));
    await expect(runTool(byName.get('sink_fail')!, {})).rejects.toThrow('boom: the widget is broken');
    expect((await runTool(byName.get('sink_audio')!, {})).output).toBe('[audio: audio/wav, 16 bytes]');
    expect((await runTool(byName.get('sink_structured')!, {})).output).toBe(
      '{"n":1}\n\n[image: image/png, 8 bytes]\n\nstructured content: {"n":1}',
    );
    // Names are sanitised to the providers' rules.
    expect((await runTool(byName.get('sink_read_file')!, { path: 'a.txt' })).output).toBe('read a.txt');

    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'sink_fail', input: {} }] }, { text: 'It failed.' }]);
    const agent = new Agent({ name: 'a', model, tools: [...byName.values()] });
    const r = await agent.run('go');
    expect(r.steps[0].toolResults[0]).toMatchObject({ isError: true, output: 'Tool "sink_fail" failed: boom: the widget is broken' });
  });

  it('include / exclude filter the tools', async () => {
    const h = hub({
      servers: {
        only: fixture('kitchen-sink.mjs', { include: ['pid', 'audio'] }),
        but: fixture('kitchen-sink.mjs', { exclude: ['crash', 'fail'] }),
      },
    });
    expect((await h.tools('only')).map((t) => t.name).sort()).toEqual(['only_audio', 'only_pid']);
    const but = (await h.tools('but')).map((t) => t.name);
    expect(but).toContain('but_slow');
    expect(but).not.toContain('but_crash');
    expect(but).not.toContain('but_fail');
  });

  it('duplicate tool names across servers: the second is skipped with a warning naming both', async () => {
    const warnings: string[] = [];
    // Server "a" with tool "b_pid" and server "a_b" with tool "pid" both make "a_b_pid".
    const h = hub({
      servers: { a: fixture('kitchen-sink.mjs', { include: ['b_pid'] }), a_b: fixture('kitchen-sink.mjs', { include: ['pid', 'audio'] }) },
      onWarning: (e) => warnings.push(e.message),
    });
    const agent = new Agent({
      name: 'x',
      model: new ScriptedModel([{ toolCalls: [{ toolName: 'a_b_audio', input: {} }] }, { text: 'ok' }]),
    });
    await h.bindAgent(agent, [{ server: 'a' }, { server: 'a_b' }]);
    expect(agent.tools.map((t) => t.name).sort()).toEqual(['a_b_audio', 'a_b_pid']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^MCP server "a(_b)?": tool "(b_)?pid" is skipped for agent "x": its name "a_b_pid" is already used by tool "(b_)?pid" of MCP server "a(_b)?"$/,
    );
    // The agent keeps working with the rest.
    expect((await agent.run('go')).steps[0].toolResults[0]).toMatchObject({ isError: false, output: '[audio: audio/wav, 16 bytes]' });
  });

  it('an agent keeps working with the other servers when one fails', async () => {
    const warnings: McpError[] = [];
    const h = hub({
      servers: { ok: everything({ include: ['echo'] }), gone: { transport: 'stdio', command: 'corvid-missing-server', args: [] } },
      onWarning: (e) => warnings.push(e),
    });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'ok_echo', input: { message: 'hi' } }] }, { text: 'done' }]);
    const agent = new Agent({ name: 'a', model, tools: [] });
    await h.bindAgent(agent, [{ server: 'ok' }, { server: 'gone' }]);
    expect(agent.tools.map((t) => t.name)).toEqual(['ok_echo']);
    expect(warnings.map((w) => w.server)).toEqual(['gone']);
    expect(warnings[0].message).toMatch(/^MCP server "gone" failed to start: command "corvid-missing-server" not found/);
    const r = await agent.run('echo hi');
    expect(r.steps[0].toolResults[0]).toMatchObject({ output: 'Echo: hi', isError: false });
  });

  it('a crashed server: the call fails clearly, the next call starts it again', async () => {
    const h = hub({ servers: { sink: fixture('kitchen-sink.mjs', { include: ['crash', 'pid'] }) } });
    const [crash, pid] = await h.tools('sink');
    const first = (await runTool(pid, {})).output;
    await expect(runTool(crash, {})).rejects.toThrow(
      /^MCP server "sink" exited or closed the connection during tool "crash"; it will be started again on the next call; its stderr ended with:\n {2}crashing on purpose/,
    );
    const second = (await runTool(pid, {})).output;
    expect(second).not.toBe(first);
  });

  it('honours tools/list_changed and updates bound agents', async () => {
    const h = hub({ servers: { sink: fixture('kitchen-sink.mjs', { include: ['add_tool', 'added_1'] }) } });
    const agent = new Agent({ name: 'a', tools: [] });
    await h.bindAgent(agent, [{ server: 'sink' }]);
    expect(agent.tools.map((t) => t.name)).toEqual(['sink_add_tool']);
    await runTool(agent.tools[0], {});
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (agent.tools.some((t) => t.name === 'sink_added_1')) resolve(void clearInterval(check));
      }, 10);
    });
    expect(agent.tools.map((t) => t.name).sort()).toEqual(['sink_add_tool', 'sink_added_1']);
  });

  it('declines elicitation with a reason when no user is present', async () => {
    const h = hub({ servers: { sink: fixture('kitchen-sink.mjs', { include: ['ask'] }) } });
    const [ask] = await h.tools('sink');
    const out = JSON.parse((await runTool(ask, {})).output as string);
    expect(out).toEqual({ action: 'decline', _meta: { 'dev.corvid/reason': expect.stringMatching(/without a user/) } });
  });

  it('progress and logs of a call reach the run as events', async () => {
    const h = hub({ servers: { sink: fixture('kitchen-sink.mjs', { include: ['progress'] }) } });
    const [t] = await h.tools('sink');
    const { events } = await runTool(t, {});
    expect(events.map((e) => (e.type === 'mcp_notification' ? `${e.kind}:${e.message}` : e.type))).toEqual([
      'log:starting work',
      'progress:step 1',
      'progress:step 2',
      'progress:step 3',
    ]);
  });
});
