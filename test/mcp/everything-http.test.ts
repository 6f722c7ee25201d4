import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { McpHub } from '../../src/mcp/index.js';
import { EVERYTHING, freePort, runTool, until } from './support.js';

async function startEverything(transport: 'streamableHttp' | 'sse'): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, transport], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: 'ignore' });
  // A TCP probe: the SSE server never answers a POST without a session.
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
  await until(listening, `server-everything ${transport}`, 10_000);
  return { child, port };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

// server-everything's own HTTP transports: Streamable HTTP, and the legacy HTTP+SSE one that
// `transport: http` falls back to.
describe('MCP client against server-everything over HTTP', () => {
  let http: { child: ChildProcess; port: number };
  let sse: { child: ChildProcess; port: number };
  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  });
  afterAll(async () => {
    await Promise.all([stop(http.child), stop(sse.child)]);
  });

  it('Streamable HTTP: lists, calls, and streams progress', async () => {
    const hub = new McpHub({
      servers: { ev: { transport: 'http', url: `http://127.0.0.1:${http.port}/mcp`, include: ['echo', 'trigger-long-running-operation'] } },
    });
    try {
      const tools = await hub.tools('ev');
      expect(tools.map((t) => t.name)).toEqual(['ev_echo', 'ev_trigger-long-running-operation']);
      expect(hub.status()[0]).toMatchObject({ state: 'connected', transport: 'streamable_http' });
      expect((await runTool(tools[0], { message: 'over http' })).output).toBe('Echo: over http');
      const { events } = await runTool(tools[1], { duration: 0.2, steps: 2 });
      expect(events.filter((e) => e.type === 'mcp_notification').length).toBe(2);
    } finally {
      await hub.close();
    }
  });

  it('falls back to HTTP+SSE when the server does not speak Streamable HTTP', async () => {
    const hub = new McpHub({ servers: { old: { transport: 'http', url: `http://127.0.0.1:${sse.port}/sse`, include: ['echo'] } } });
    try {
      const [echo] = await hub.tools('old');
      expect(hub.status()[0]).toMatchObject({ state: 'connected', transport: 'sse' });
      expect((await runTool(echo, { message: 'legacy' })).output).toBe('Echo: legacy');
    } finally {
      await hub.close();
    }
  });
});
