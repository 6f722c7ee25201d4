// Cold start of `corvid run -q`: wall time from spawning the CLI to the first model request
// arriving at a local OpenAI-compatible server (127.0.0.1, ephemeral port), beside `node -e 0`
// timed the same way (spawn to exit). The server then answers so the CLI exits normally.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { join } from 'node:path';

const ANSWER = 'pong';

function completion(stream) {
  const base = { id: 'chatcmpl-bench', created: 0, model: 'bench' };
  if (!stream) {
    return JSON.stringify({
      ...base,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: ANSWER }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }
  const chunk = (choices, extra = {}) => `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices, ...extra })}\n\n`;
  return (
    chunk([{ index: 0, delta: { role: 'assistant', content: ANSWER }, finish_reason: null }]) +
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }], { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }) +
    'data: [DONE]\n\n'
  );
}

/** Starts the fake server; `onRequest` is called when a model request arrives. */
async function startServer(onRequest) {
  const server = createServer((req, res) => {
    onRequest();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      let stream = false;
      try {
        stream = JSON.parse(body).stream === true;
      } catch {}
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      res.end(completion(stream));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

function run(args, env, cwd, until) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    let mark;
    until.hit = () => (mark ??= Number(process.hrtime.bigint() - t0) / 1e6);
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      const exitMs = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited with ${code}: ${err.slice(-2000)}`));
      else resolve({ ms: mark ?? exitMs, exitMs, out });
    });
  });
}

/** Returns { node: ms[], run: ms[] } for `rounds` interleaved rounds. */
export async function measureRunUntilRequest(cliPath, env, rounds) {
  const dir = mkdtempSync(join(os.tmpdir(), 'corvid-bench-cli-'));
  const until = { hit: () => {} };
  const server = await startServer(() => until.hit());
  try {
    const { port } = server.address();
    const config = join(dir, 'corvid.yaml');
    writeFileSync(
      config,
      [
        'models:',
        '  local:',
        '    provider: openai-compatible',
        '    model: bench',
        `    base_url: http://127.0.0.1:${port}/v1`,
        '    api_key: bench',
        '    retry:',
        '      max_retries: 0',
        'agents:',
        '  assistant:',
        '    model: local',
        '    instructions: Answer in one word.',
        '',
      ].join('\n'),
    );
    const childEnv = { ...env, NO_COLOR: '1' };
    const cli = [cliPath, 'run', '-q', 'ping', '-c', config];
    const first = await run(cli, childEnv, dir, until); // warm the file cache; check the answer
    if (first.out.trim() !== ANSWER) throw new Error(`corvid run printed ${JSON.stringify(first.out)}, expected ${JSON.stringify(ANSWER)}`);
    const times = { node: [], run: [] };
    for (let i = 0; i < rounds; i++) {
      times.node.push((await run(['-e', '0'], childEnv, dir, { hit: () => {} })).exitMs);
      const r = await run(cli, childEnv, dir, until);
      if (r.out.trim() !== ANSWER) throw new Error(`corvid run printed ${JSON.stringify(r.out)}`);
      times.run.push(r.ms);
    }
    return times;
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
