#!/usr/bin/env node
// Memory at scale and serve cold start: 10 agents and 100,000 stored sessions on the default SQLite
// store, served by `corvid serve`; resident memory (RSS) of the serving process when idle, after
// paging through every session over HTTP, and after chat turns on stored sessions. Also the time
// from spawning `corvid serve` until `/health` answers, beside `node -e 0`.
//
//   npm run build && node bench/scale.mjs [--sessions=100000] [--chats=500] [--json]
//
// The model is a local OpenAI-compatible server on 127.0.0.1 that answers at once (no LLM API).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
if (!existsSync(CLI)) {
  console.error(`${CLI} is missing: run "npm run build" first`);
  process.exit(1);
}
const { openStore } = await import(pathToFileURL(join(ROOT, 'dist', 'storage', 'index.js')).href);

const args = process.argv.slice(2);
const opt = (name, d) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? d);
const SESSIONS = opt('sessions', 100_000);
const CHATS = opt('chats', 500);
const AGENTS = 10;
const json = args.includes('--json');

/** A local OpenAI-compatible chat completions server answering every request at once. */
async function startModelServer() {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1,
          model: 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content: 'Noted.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
        }),
      );
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${server.address().port}/v1` };
}

function writeConfig(dir, modelUrl) {
  const agents = Array.from(
    { length: AGENTS },
    (_, i) => `  agent${i}:\n    description: Agent number ${i}\n    instructions: You are agent ${i}. Answer briefly.\n`,
  ).join('');
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `models:\n  fake:\n    provider: openai-compatible\n    base_url: ${modelUrl}\n    model: fake\n    api_key: none\ndefaults:\n  model: fake\nstorage:\n  driver: sqlite\n  path: ./corvid.db\nagents:\n${agents}`,
  );
}

const text = (t) => [{ type: 'text', text: t }];
async function populate(dir) {
  const store = await openStore({ driver: 'sqlite', path: join(dir, 'corvid.db') });
  const started = performance.now();
  const ids = [];
  for (let i = 0; i < SESSIONS; i++) {
    const agent = `agent${i % AGENTS}`;
    const s = await store.sessions.create({ agent, userId: `user${i % 1000}` });
    ids.push(s.id);
    await store.sessions.appendMany(s.id, [
      { agent, message: { role: 'user', content: text(`Hello, this is conversation ${i}. Please remember my order number ${i * 7}.`) } },
      { agent, message: { role: 'assistant', content: text(`Thanks, I noted order ${i * 7}. Anything else?`) } },
      { agent, message: { role: 'user', content: text('What was my order number again?') } },
      { agent, message: { role: 'assistant', content: text(`Your order number is ${i * 7}.`) } },
    ]);
  }
  await store.close();
  return { ids, seconds: (performance.now() - started) / 1000 };
}

const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/** Spawns `corvid serve --port 0`, resolves when it prints its URL and /health answers. */
async function startServe(dir) {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const onData = (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`corvid serve exited (${code}):\n${out}`)));
  });
  for (;;) {
    const r = await fetch(`${url}/health`).catch(() => undefined);
    if (r?.ok) break;
  }
  return { child, url, ms: performance.now() - started };
}

function nodeBaselineMs(runs = 5) {
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    xs.push(performance.now() - t);
  }
  return xs.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const dir = mkdtempSync(join(tmpdir(), 'corvid-scale-'));
const model = await startModelServer();
try {
  writeConfig(dir, model.url);
  const pop = await populate(dir);
  const results = { agents: AGENTS, sessions: SESSIONS, populateSeconds: pop.seconds };

  // Cold start: empty store (the first run) vs. populated store, beside node -e 0.
  const colds = [];
  for (let i = 0; i < 5; i++) {
    const s = await startServe(dir);
    colds.push(s.ms);
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.on('exit', r));
  }
  results.serveHealthMs = colds.sort((a, b) => a - b)[2];
  results.nodeBaselineMs = nodeBaselineMs();

  const s = await startServe(dir);
  await fetch(`${s.url}/health`);
  results.rssIdleMb = rssMb(s.child.pid);

  // Page through every session.
  let cursor;
  let listed = 0;
  do {
    const r = await fetch(`${s.url}/api/v1/sessions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (!r.ok) throw new Error(`GET /api/v1/sessions: ${r.status} ${await r.text()}`);
    const page = await r.json();
    listed += page.sessions.length;
    cursor = page.nextCursor;
  } while (cursor);
  results.listedSessions = listed;
  results.rssAfterListMb = rssMb(s.child.pid);

  // Chat turns on random stored sessions (each loads its history from SQLite).
  const t = performance.now();
  for (let i = 0; i < CHATS; i++) {
    const k = Math.floor(Math.random() * pop.ids.length);
    const r = await fetch(`${s.url}/api/v1/agents/agent${k % AGENTS}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'And my name?', sessionId: pop.ids[k] }),
    });
    if (!r.ok) throw new Error(`chat: ${r.status} ${await r.text()}`);
    await r.json();
  }
  results.chatTurns = CHATS;
  results.chatMsPerTurn = (performance.now() - t) / CHATS;
  results.rssAfterChatsMb = rssMb(s.child.pid);
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.on('exit', r));

  if (json) console.log(JSON.stringify(results, null, 2));
  else {
    const f = (x, d = 1) => (typeof x === 'number' ? x.toFixed(d) : String(x));
    console.log(`| Figure | Value |\n| --- | ---: |`);
    console.log(`| Agents / stored sessions (4 messages each) | ${AGENTS} / ${SESSIONS.toLocaleString('en-US')} |`);
    console.log(`| Populating the store | ${f(results.populateSeconds)} s |`);
    console.log(
      `| \`corvid serve\` until /health answers (median of 5) | ${f(results.serveHealthMs, 0)} ms (node -e 0: ${f(results.nodeBaselineMs, 0)} ms) |`,
    );
    console.log(`| RSS idle after start | ${f(results.rssIdleMb)} MB |`);
    console.log(`| RSS after listing all ${listed.toLocaleString('en-US')} sessions (100 per page) | ${f(results.rssAfterListMb)} MB |`);
    console.log(
      `| RSS after ${CHATS} chat turns on random stored sessions (${f(results.chatMsPerTurn, 2)} ms/turn) | ${f(results.rssAfterChatsMb)} MB |`,
    );
  }
} finally {
  model.server.close();
  rssDirCleanup();
}
function rssDirCleanup() {
  rmSync(dir, { recursive: true, force: true });
}
