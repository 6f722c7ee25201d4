/**
 * Helpers for the Studio's browser tests: the Studio built into a temp folder, `corvid serve` (the real built
 * CLI) on a config whose model is the fake LLM server, the page origin, Chromium, and axe.
 *
 * When the server does not serve `/studio` itself, the harness puts a small static server for the built files in
 * front of it, forwarding everything else (so the pages and the API share one origin, as they do when served).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

import { CLI, cliEnv, type CliProcess, ROOT, spawnCli, writeConfig } from '../cli/cli-harness.js';

/** Chromium from Debian (`.ci/run` installs it). */
export const CHROMIUM = process.env.CORVID_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CORVID_CHROMIUM)`;
  if (!existsSync(CLI)) return `${CLI} is missing: run "npm run build" first`;
  return undefined;
}

/** Builds the Studio into `dir` (the real build script, budget check included). */
export function buildStudio(dir: string): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-studio.mjs'), '--out', dir], { stdio: 'pipe' });
}

/** `sha256:<hex>` of an API key, as `server.auth.api_keys[].hash` wants it. */
export const keyHash = (key: string): string => `sha256:${createHash('sha256').update(key).digest('hex')}`;

/** The config of the tests: an assistant with a tool that needs approval, an agent tool and a handoff. */
export function studioConfig(opts: { llmUrl: string; dbFile: string; apiKey?: string }): string {
  const auth = opts.apiKey ? `server:\n  auth:\n    api_keys:\n      - name: studio\n        hash: "${keyHash(opts.apiKey)}"\n` : '';
  return `models:
  fake:
    provider: openai-compatible
    base_url: ${opts.llmUrl}/v1
    model: test
    retry:
      max_retries: 0
defaults:
  model: fake
storage:
  driver: sqlite
  url: sqlite:${opts.dbFile}
${auth}agents:
  assistant:
    description: A helpful assistant that remembers things.
    tools: [save_memory, get_memories]
    require_approval:
      save_memory: "Remember {value}?"
    agent_tools: [researcher]
    sub_agents: [billing]
  researcher:
    description: Finds facts.
  billing:
    description: Answers billing questions.
`;
}

/** A running `corvid serve` and the origin the pages are opened at. */
export interface StudioServer {
  process: CliProcess;
  apiUrl: string;
  /** `http://127.0.0.1:<port>/studio/`. */
  studioUrl: string;
  close(): Promise<void>;
}

/** Starts `corvid serve` on `config` in `dir` and, when it does not serve `/studio`, a static front for `studioDir`. */
export async function startStudioServer(opts: { dir: string; config: string; studioDir: string; port?: number }): Promise<StudioServer> {
  writeConfig(opts.dir, opts.config);
  const child = spawnCli(['serve', '--port', String(opts.port ?? 0)], { cwd: opts.dir, env: cliEnv(opts.dir) });
  const text = await child.waitFor(/http:\/\/127\.0\.0\.1:\d+/, { stream: 'stderr', timeoutMs: 20_000 });
  const apiUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(text)![0];
  const own = await fetch(`${apiUrl}/studio/`).catch(() => undefined);
  if (own?.ok && (own.headers.get('content-type') ?? '').includes('text/html')) {
    return { process: child, apiUrl, studioUrl: `${apiUrl}/studio/`, close: () => stopChild(child) };
  }
  const front = await staticFront(new URL(apiUrl), opts.studioDir);
  const port = (front.address() as AddressInfo).port;
  return {
    process: child,
    apiUrl,
    studioUrl: `http://127.0.0.1:${port}/studio/`,
    close: async () => {
      await new Promise<void>((resolve) => front.close(() => resolve()));
      front.closeAllConnections();
      await stopChild(child);
    },
  };
}

async function stopChild(child: CliProcess): Promise<void> {
  if (child.child.exitCode === null) child.child.kill('SIGTERM');
  await child.exit(15_000);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
const CSP = "default-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'";

/** `/studio/*` from `dir` (index.html for anything else under it), every other path forwarded to `api`. */
async function staticFront(api: URL, dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/studio' || path.startsWith('/studio/')) {
      const asked = normalize(join(dir, path.slice('/studio'.length)));
      const file = asked.startsWith(dir) && existsSync(asked) && statSync(asked).isFile() ? asked : join(dir, 'index.html');
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-security-policy': CSP });
      createReadStream(file).pipe(res);
      return;
    }
    const headers = { ...req.headers, host: api.host, ...(req.headers.origin && { origin: api.origin }) };
    const upstream = request({ host: api.hostname, port: api.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : (res.writeHead(502), res.end())));
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
