import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { McpNotice } from '../../src/mcp/index.js';
import { McpHub } from '../../src/mcp/index.js';
import type { Tool } from '../../src/types/tool.js';
import { alive, everything, runTool, until } from './support.js';

// @modelcontextprotocol/server-everything from npm, over stdio: a server Corvid did not write.
describe('MCP client against server-everything (stdio)', () => {
  const notices: McpNotice[] = [];
  let hub: McpHub;
  let tools: Map<string, Tool>;

  beforeAll(async () => {
    hub = new McpHub({
      servers: { everything: everything() },
      onNotice: (n) => notices.push(n),
      onElicitation: async (req) => ({ action: 'accept', content: { name: `Ann (${req.server})`, check: true } }),
    });
    tools = new Map((await hub.tools('everything')).map((t) => [t.name, t]));
  });
  afterAll(() => hub.close());

  it('lists the tools as <server>_<tool>, with descriptions and input schemas unchanged', async () => {
    const listed = await hub.listTools('everything');
    expect(listed.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'get-structured-content']));
    const echo = listed.find((t) => t.name === 'echo')!;
    const t = tools.get('everything_echo')!;
    expect(t.description).toBe(echo.description);
    expect(t.jsonSchema).toBe(echo.inputSchema);
    expect(t.jsonSchema).toMatchObject({ type: 'object', required: ['message'] });
    expect(tools.has('everything_get-sum')).toBe(true);
    expect(hub.status()[0]).toMatchObject({
      id: 'everything',
      state: 'connected',
      transport: 'stdio',
      serverInfo: { name: 'mcp-servers/everything' },
    });
  });

  it('calls tools and maps text results to strings', async () => {
    expect((await runTool(tools.get('everything_echo')!, { message: 'hello' })).output).toBe('Echo: hello');
    expect((await runTool(tools.get('everything_get-sum')!, { a: 2, b: 40 })).output).toMatch(/42/);
  });

  it('maps images, resource links and embedded resources to text the model can read', async () => {
    const image = (await runTool(tools.get('everything_get-tiny-image')!, {})).output as string;
    expect(image).toMatch(/\[image: image\/png, \d+ bytes\]/);
    expect(image).not.toMatch(/iVBOR/);
    const links = (await runTool(tools.get('everything_get-resource-links')!, { count: 2 })).output as string;
    expect(links).toMatch(/\[resource link: .+ <demo:\/\/resource\/dynamic\/\w+\/1> \(text\/plain\)/);
    const embedded = (await runTool(tools.get('everything_get-resource-reference')!, { resourceType: 'Text', resourceId: 1 }))
      .output as string;
    expect(embedded).toMatch(/\[resource demo:\/\/resource\/dynamic\/text\/1 \(text\/plain\)\]\nResource 1: This is a plaintext resource/);
    const blob = (await runTool(tools.get('everything_get-resource-reference')!, { resourceType: 'Blob', resourceId: 2 })).output as string;
    expect(blob).toMatch(/\[resource demo:\/\/resource\/dynamic\/blob\/2 .*bytes of binary data\]/);
  });

  it('gives structuredContent to the model as JSON', async () => {
    const { output } = await runTool(tools.get('everything_get-structured-content')!, { location: 'Chicago' });
    expect(output).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
  });

  it('turns progress notifications into mcp_notification events of the call', async () => {
    const { output, events } = await runTool(tools.get('everything_trigger-long-running-operation')!, { duration: 0.3, steps: 3 });
    expect(output).toMatch(/Long running operation completed/);
    const progress = events.filter((e) => e.type === 'mcp_notification' && e.kind === 'progress');
    expect(progress.map((e) => (e as { progress?: number }).progress)).toEqual([1, 2, 3]);
    expect(progress[0]).toMatchObject({
      server: 'everything',
      toolName: 'everything_trigger-long-running-operation',
      toolCallId: 'call_1',
      total: 3,
      agent: 'tester',
    });
  });

  it('surfaces log notifications', async () => {
    await runTool(tools.get('everything_toggle-simulated-logging')!, {});
    // The server sends one message at once and then one every 5 s, each at a random level that the
    // client's logging level may filter out: wait for up to three of them.
    await until(() => notices.some((n) => n.kind === 'log' && /-level message/i.test(n.message)), 'a log message', 16_000);
    expect(notices.find((n) => n.kind === 'log')).toMatchObject({ server: 'everything', level: expect.any(String) });
    await runTool(tools.get('everything_toggle-simulated-logging')!, {});
  }, 20_000);

  it('answers elicitation requests with the handler', async () => {
    const t = tools.get('everything_trigger-elicitation-request');
    expect(t, 'offered because Corvid declares elicitation').toBeDefined();
    const { output } = await runTool(t!, {});
    expect(JSON.stringify(output)).toMatch(/Ann \(everything\)/);
  });

  it('applies the per-call timeout with a clear error', async () => {
    const slowHub = new McpHub({ servers: { ev: everything({ callTimeoutMs: 150 }) } });
    try {
      const [t] = (await slowHub.tools('ev')).filter((x) => x.name === 'ev_trigger-long-running-operation');
      await expect(runTool(t, { duration: 3, steps: 3 })).rejects.toThrow(
        'MCP server "ev": tool "trigger-long-running-operation" timed out after 150 ms',
      );
      expect(
        (
          await runTool(
            (await slowHub.tools('ev')).find((x) => x.name === 'ev_echo')!,
            { message: 'still here' },
          )
        ).output,
      ).toBe('Echo: still here');
    } finally {
      await slowHub.close();
    }
  });

  it('restarts a server killed mid-session on the next call; the interrupted call fails clearly', async () => {
    const h = new McpHub({ servers: { ev: everything() } });
    try {
      const list = await h.tools('ev');
      const long = list.find((t) => t.name === 'ev_trigger-long-running-operation')!;
      const echo = list.find((t) => t.name === 'ev_echo')!;
      const pid = h.connection('ev').pid!;
      const running = runTool(long, { duration: 5, steps: 5 });
      await until(() => h.connection('ev').status().state === 'connected', 'the call to start', 1000);
      process.kill(pid, 'SIGKILL');
      await expect(running).rejects.toThrow(
        /MCP server "ev" exited or closed the connection during tool "trigger-long-running-operation"; it will be started again on the next call/,
      );
      expect((await runTool(echo, { message: 'back' })).output).toBe('Echo: back');
      const pid2 = h.connection('ev').pid!;
      expect(pid2).not.toBe(pid);
      expect(alive(pid2)).toBe(true);
      await h.close();
      await until(() => !alive(pid2), 'the server process to end');
    } finally {
      await h.close();
    }
  });
});
