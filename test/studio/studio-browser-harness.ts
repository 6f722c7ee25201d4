/**
 * Helpers for the Studio's browser tests: `corvid serve` (the real built CLI, which serves the built Studio at
 * `/studio/`) on a config whose model is the fake LLM server, with a keyword knowledge base and a stdio MCP
 * server; Chromium; where screenshots go.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { CLI, cliEnv, type CliProcess, ROOT, spawnCli, writeConfig } from '../cli/cli-harness.js';
import { FIXTURES } from '../mcp/support.js';

/** Chromium from Debian (`.ci/run` installs it). */
export const CHROMIUM = process.env.CORVID_CHROMIUM ?? '/usr/bin/chromium';

/** The Studio `npm run build` writes, which `corvid serve` serves. */
export const STUDIO_INDEX = join(ROOT, 'dist', 'studio', 'index.html');

/** Screenshots of every page, light and dark (gitignored). */
export const SHOTS = process.env.CORVID_STUDIO_SCREENSHOTS ?? join(ROOT, 'test-artifacts', 'studio');

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CORVID_CHROMIUM)`;
  if (!existsSync(CLI)) return `${CLI} is missing: run "npm run build" first`;
  if (!existsSync(STUDIO_INDEX)) return `${STUDIO_INDEX} is missing: run "npm run build" first`;
  return undefined;
}

/** `sha256:<hex>` of an API key, as `server.auth.api_keys[].hash` wants it. */
export const keyHash = (key: string): string => `sha256:${createHash('sha256').update(key).digest('hex')}`;

/** Two bird notes for the keyword knowledge base `birds` (in `<dir>/notes`). */
export function writeNotes(dir: string): void {
  mkdirSync(join(dir, 'notes'), { recursive: true });
  writeFileSync(
    join(dir, 'notes', 'herons.md'),
    '# Herons\n\n## Food\n\nHerons wade in shallow water and hunt fish with their long bills.\n',
  );
  writeFileSync(join(dir, 'notes', 'crows.md'), '# Crows\n\nCrows solve puzzles, use tools and remember human faces for years.\n');
}

/**
 * The config of the tests: an assistant with a tool that needs approval, an agent tool and a handoff; a keyword
 * knowledge base over `./notes` and the kitchen-sink MCP server (stdio), both used by the researcher.
 */
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
knowledge:
  birds:
    sources:
      - { type: directory, path: ./notes, include: ["**/*.md"] }
    search: { mode: keyword }
mcp_servers:
  sink:
    command: ${JSON.stringify(process.execPath)}
    args: [${JSON.stringify(join(FIXTURES, 'kitchen-sink.mjs'))}]
    include: [read.file, structured, fail]
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
    knowledge: [birds]
    tools: [sink]
  billing:
    description: Answers billing questions.
`;
}

/** Writes the notes and the config into `dir` and indexes the knowledge base (`corvid ingest`). */
export function prepareProject(dir: string, config: string): void {
  writeNotes(dir);
  writeConfig(dir, config);
  execFileSync(process.execPath, [CLI, 'ingest'], { cwd: dir, env: cliEnv(dir), stdio: 'pipe', timeout: 60_000 });
}

/** A running `corvid serve` and the Studio it serves. */
export interface StudioServer {
  process: CliProcess;
  apiUrl: string;
  /** `http://127.0.0.1:<port>/studio/`. */
  studioUrl: string;
  close(): Promise<void>;
}

/** Starts `corvid serve` on `config` in `dir` (the config is written first). */
export async function startStudioServer(opts: { dir: string; config: string; port?: number }): Promise<StudioServer> {
  writeConfig(opts.dir, opts.config);
  const child = spawnCli(['serve', '--port', String(opts.port ?? 0)], { cwd: opts.dir, env: cliEnv(opts.dir) });
  const text = await child.waitFor(/http:\/\/127\.0\.0\.1:\d+/, { stream: 'stderr', timeoutMs: 30_000 });
  const apiUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(text)![0];
  return {
    process: child,
    apiUrl,
    studioUrl: `${apiUrl}/studio/`,
    close: async () => {
      if (child.child.exitCode === null) child.child.kill('SIGTERM');
      await child.exit(15_000);
    },
  };
}
