#!/usr/bin/env node
// MCP round trips: one trivial tool call (`pid` of a small SDK McpServer) through Corvid's MCP
// client, over stdio with the reused connection, over stdio reconnecting for every call (the
// process is started each time), and over Streamable HTTP (a Corvid server from
// `createMcpServer`). Standalone: `npm run build`, then `node bench/mcp.mjs [--json]`.
// Target: stdio, reused connection, median < 1 ms.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'mcp', 'index.js');
if (!existsSync(ENTRY)) {
  console.error(`${ENTRY} is missing: run "npm run build" first`);
  process.exit(1);
}
const { McpHub, createMcpServer, serveMcpHttp } = await import(pathToFileURL(ENTRY).href);
const { tool } = await import(pathToFileURL(join(ROOT, 'dist', 'index.js')).href);
const json = process.argv.includes('--json');
const SERVER = join(ROOT, 'test', 'mcp', 'fixtures', 'kitchen-sink.mjs');

function stats(samples) {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return { n: s.length, median: at(0.5), p90: at(0.9), p99: at(0.99) };
}

async function measure(n, call, warmup = 20) {
  for (let i = 0; i < warmup; i++) await call();
  const out = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    out.push(performance.now() - t);
  }
  return stats(out);
}

const results = {};
{
  const hub = new McpHub({ servers: { s: { transport: 'stdio', command: process.execPath, args: [SERVER] } } });
  results['stdio, reused connection'] = await measure(2000, () => hub.callTool('s', 'pid'));
  results['stdio, reconnect per call'] = await measure(
    20,
    async () => {
      await hub.connection('s').restart();
      await hub.callTool('s', 'pid');
    },
    2,
  );
  await hub.close();
}
{
  const pid = tool({ name: 'pid', description: 'pid', parameters: { type: 'object' }, execute: () => String(process.pid) });
  const http = await serveMcpHttp(createMcpServer({ name: 'bench', tools: [pid] }), { port: 0 });
  const hub = new McpHub({ servers: { h: { transport: 'streamable_http', url: http.mcpUrl } } });
  results['Streamable HTTP, one session'] = await measure(1000, () => hub.callTool('h', 'pid'));
  await hub.close();
  await http.close();
}

if (json) console.log(JSON.stringify(results, null, 2));
else {
  console.log('| MCP tool call round trip | calls | median | p90 | p99 |\n| --- | --- | --- | --- | --- |');
  for (const [k, v] of Object.entries(results))
    console.log(`| ${k} | ${v.n} | ${v.median.toFixed(3)} ms | ${v.p90.toFixed(3)} ms | ${v.p99.toFixed(3)} ms |`);
}
