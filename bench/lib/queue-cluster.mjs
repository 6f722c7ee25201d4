// A local cluster for the queue benchmarks: a fake OpenAI-compatible model server (127.0.0.1, no
// LLM API), a corvid.yaml whose queue is the chosen backend, one `corvid serve --no-worker` and
// `corvid worker` processes, and helpers to submit runs, read them back and sample memory.
//
// Each run: the model asks for tool `record` (label = the run's input), the tool waits TOOL_MS and
// appends the label to a ledger file (so a tool executed twice shows), then the model streams a
// 10-chunk answer. Markers (`<label> <phase>` lines in events.txt) tell where a run is.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** `--name value` / `--name=value` from argv, else `fallback`. */
export function arg(name, fallback) {
  const argv = process.argv.slice(2);
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i === -1) return fallback;
  return argv[i].includes('=') ? argv[i].split('=').slice(1).join('=') : (argv[i + 1] ?? fallback);
}

export function requireBuild() {
  if (!existsSync(CLI)) {
    console.error(`${CLI} is missing: run "npm run build" first`);
    process.exit(1);
  }
}

/** The fake model: first call → tool call; after the tool → a streamed answer. `delays` per phase (ms). */
export async function startModel({ markers, firstMs = 0, secondMs = 0, chunkMs = 0 }) {
  const mark = (line) => appendFileSync(typeof markers === 'function' ? markers() : markers, `${line}\n`);
  const sockets = new Set();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', async () => {
      const json = JSON.parse(body || '{}');
      const messages = json.messages ?? [];
      const last = messages.at(-1);
      const firstUser = messages.find((m) => m.role === 'user');
      const label = String(typeof firstUser?.content === 'string' ? firstUser.content : JSON.stringify(firstUser?.content)).replace(
        /\W/g,
        '',
      );
      const afterTool = last?.role === 'tool';
      mark(`${label} ${afterTool ? 'answer-request' : 'model-request'}`);
      await sleep(afterTool ? secondMs : firstMs);
      const base = { id: 'chatcmpl-q', created: 0, model: 'fake', object: 'chat.completion.chunk' };
      const send = (choices, extra = {}) => res.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (!afterTool) {
        send([
          {
            index: 0,
            delta: {
              role: 'assistant',
              tool_calls: [
                { index: 0, id: `call_${label}`, type: 'function', function: { name: 'record', arguments: JSON.stringify({ label }) } },
              ],
            },
            finish_reason: null,
          },
        ]);
        send([{ index: 0, delta: {}, finish_reason: 'tool_calls' }], {
          usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
        });
      } else {
        for (let i = 0; i < 10; i++) {
          send([{ index: 0, delta: { ...(i === 0 ? { role: 'assistant' } : {}), content: `part${i} ` }, finish_reason: null }]);
          if (i === 2) mark(`${label} answer-streaming`);
          if (chunkMs) await sleep(chunkMs);
        }
        send([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 } });
      }
      res.end('data: [DONE]\n\n');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((r) => server.close(r));
    },
  };
}

/** A temp project: corvid.yaml for `backend`, the `record` tool, ledger and marker files. */
export function makeProject({ backend, modelUrl, toolMs = 0, concurrency = 4 }) {
  const dir = mkdtempSync(join(tmpdir(), 'corvid-queue-bench-'));
  const ledger = join(dir, 'ledger.txt');
  const markers = join(dir, 'events.txt');
  writeFileSync(ledger, '');
  writeFileSync(markers, '');
  const dist = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
  writeFileSync(
    join(dir, 'tools.mjs'),
    `import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tool } from ${JSON.stringify(dist)};
export const record = tool({
  name: 'record',
  description: 'Records a label',
  parameters: { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] },
  execute: async ({ label }) => {
    appendFileSync(${JSON.stringify(markers)}, label + ' tool-start\\n');
    await sleep(${toolMs});
    appendFileSync(${JSON.stringify(ledger)}, label + '\\n');
    return 'recorded ' + label;
  },
});
`,
  );
  const pg = process.env.CORVID_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const redis = process.env.CORVID_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const prefix = `bench${Date.now().toString(36)}`;
  const storage = backend === 'postgres' ? `storage:\n  url: ${pg}\n` : `storage:\n  path: ./runs.db\n`;
  const queue =
    backend === 'embedded'
      ? `queue:\n  backend: embedded\n  concurrency: ${concurrency}\n`
      : backend === 'postgres'
        ? `queue:\n  backend: postgres\n  concurrency: ${concurrency}\n`
        : `queue:\n  backend: redis\n  url: ${redis}\n  prefix: ${prefix}\n  concurrency: ${concurrency}\n`;
  writeFileSync(
    join(dir, 'corvid.yaml'),
    `models:\n  fake:\n    provider: openai-compatible\n    model: fake\n    base_url: ${modelUrl}\ndefaults:\n  model: fake\ntools:\n  t: { module: ./tools.mjs }\n${storage}${queue}agents:\n  helper:\n    instructions: Be brief.\n    tools: [t.record]\n`,
  );
  return { dir, ledger, markers, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Spawns `corvid <args>` in `dir`; resolves once stderr matches `ready`. */
export function spawnCorvid(dir, args, ready) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  const up = new Promise((resolve, reject) => {
    child.stderr.on('data', (d) => {
      err += d;
      const m = ready.exec(err);
      if (m) resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`corvid ${args.join(' ')} exited (${code}) before it was ready:\n${err}`)));
  });
  return { child, pid: child.pid, up, stderr: () => err };
}

export async function startServer(dir) {
  const s = spawnCorvid(dir, ['serve', '--port', '0', '--no-worker'], /listening on (http\S+)/);
  const m = await s.up;
  return { ...s, url: m[1] };
}

export async function startWorker(dir) {
  const w = spawnCorvid(dir, ['worker'], /executing queued runs/);
  await w.up;
  return w;
}

export async function submit(url, input) {
  const res = await fetch(`${url}/api/v1/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent: 'helper', input }),
  });
  if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
  return (await res.json()).runId;
}

export async function getRun(url, runId, waitSeconds = 0) {
  return (await fetch(`${url}/api/v1/runs/${runId}${waitSeconds ? `?wait=${waitSeconds}` : ''}`)).json();
}

/** Resident memory of `pid` in MB (Linux /proc; else `ps`). */
export function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (m) return Number(m[1]) / 1024;
  } catch {}
  return NaN;
}

/** Least-squares slope of `ys` over `xs`. */
export function slope(xs, ys) {
  const n = xs.length;
  if (n < 2) return 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** Lines of a file as a count per line. */
export function counts(file) {
  const out = new Map();
  for (const l of readFileSync(file, 'utf8').split('\n').filter(Boolean)) out.set(l, (out.get(l) ?? 0) + 1);
  return out;
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` every 20 ms until it is truthy or `timeoutMs` passes. */
export async function until(check, timeoutMs) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (check()) return true;
    await sleep(20);
  }
  return false;
}
