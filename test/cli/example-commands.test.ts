/**
 * Every example's header commands, run exactly as written, in order, from a directory laid out
 * like the repository root (examples/, node_modules/ with `corvid` in it) with `corvid` on the
 * PATH. The models are replaced by the fake LLM server through the providers' base-URL variables
 * (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GENERATIVE_AI_BASE_URL, OLLAMA_HOST), the way a
 * user points Corvid at a proxy. Each command must end with exit code 0, or the one its comment
 * names (`# … exit code 3`). `corvid serve` runs until the example's other commands are done and
 * must then stop cleanly on SIGTERM; `corvid chat` gets one message on stdin.
 */
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { exampleFiles, EXAMPLES_DIR, type HeaderCommand, headerCommands } from '../config/example-files.js';
import { closedPort, type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { assertBuilt, CLI, CliProcess, ROOT, tempDir } from './cli-harness.js';

const tmp = tempDir('corvid-examples-');
let base: string;
let server: FakeLlmServer;

/** The text of the last message of a request when a user wrote it (Chat Completions or Responses). */
function lastUserText(req: RecordedRequest): string | undefined {
  const items: Array<{ role?: string; content?: unknown }> = req.body?.messages ?? req.body?.input ?? [];
  const last = items.at(-1);
  if (last?.role !== 'user') return undefined;
  return typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
}

/** Offered tools' names (Chat Completions, Responses). */
const toolNames = (req: RecordedRequest): string[] =>
  ((req.body?.tools ?? []) as Array<{ name?: string; function?: { name?: string } }>).map((t) => t.name ?? t.function?.name ?? '');

/**
 * The fake model: answers "ok", except that a user asking to "Delete <file>" while delete_file is
 * offered gets that call (so the approvals example pauses where its header says it does).
 */
function reply(req: RecordedRequest): FakeReply {
  const file = /Delete (\S+?)["\\]*$/.exec(lastUserText(req) ?? '')?.[1];
  if (file && toolNames(req).includes('delete_file')) return { toolCalls: [{ name: 'delete_file', arguments: { path: file } }] };
  return { text: 'ok' };
}

beforeAll(async () => {
  assertBuilt();
  server = await startFakeLlmServer(reply);
  // A stand-in for the repository root: the examples, and node_modules holding the dependencies and corvid itself.
  base = join(tmp.dir, 'repo');
  cpSync(EXAMPLES_DIR, join(base, 'examples'), { recursive: true });
  mkdirSync(join(base, 'node_modules'));
  for (const entry of readdirSync(join(ROOT, 'node_modules')))
    symlinkSync(join(ROOT, 'node_modules', entry), join(base, 'node_modules', entry));
  symlinkSync(ROOT, join(base, 'node_modules', 'corvid'));
  mkdirSync(join(base, 'bin'));
  writeFileSync(join(base, 'bin', 'corvid'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`);
  chmodSync(join(base, 'bin', 'corvid'), 0o755);
});
afterAll(async () => {
  await server?.close();
  tmp.cleanup();
});

/** The environment of the commands: the fake server for every provider, placeholders on loopback. */
async function environment(home: string): Promise<NodeJS.ProcessEnv> {
  const port = await closedPort();
  const closed = await closedPort();
  return {
    PATH: `${join(base, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
    HOME: home,
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    CORVID_HISTORY_FILE: join(home, 'history'),
    OPENAI_API_KEY: 'sk-test',
    ANTHROPIC_API_KEY: 'sk-ant-test',
    GEMINI_API_KEY: 'g-test',
    OPENAI_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_BASE_URL: `${server.url}/v1`,
    GOOGLE_GENERATIVE_AI_BASE_URL: `${server.url}/v1beta`,
    OLLAMA_HOST: server.url,
    // corvid serve's port, and the remote-agents example's remote side on it.
    PORT: String(port),
    RESEARCHER_URL: `http://127.0.0.1:${port}/agents/researcher/.well-known/agent-card.json`,
    // Placeholder servers of the examples (an MCP server, a JWT issuer): a closed loopback port.
    TRACKER_MCP_URL: `http://127.0.0.1:${closed}/mcp`,
    CORVID_JWKS_URL: `http://127.0.0.1:${closed}/jwks.json`,
    npm_config_offline: 'true',
  };
}

/** Replaces a placeholder such as `apr_...` by the last id of that kind the earlier commands printed. */
function fillPlaceholders(line: string, output: string): string {
  return line.replace(/\b([a-z]+)_\.\.\./g, (whole, prefix: string) => {
    const ids = [...output.matchAll(new RegExp(`\\b${prefix}_[A-Za-z0-9]{6,}\\b`, 'g'))].map((m) => m[0]);
    if (ids.length === 0) throw new Error(`no ${prefix}_ id was printed before: ${line}`);
    return ids.at(-1)!;
  });
}

/** Runs a line with the shell; `corvid serve` replaces the shell, so that SIGTERM reaches it. */
function start(c: HeaderCommand, line: string, cwd: string, env: NodeJS.ProcessEnv): CliProcess {
  return new CliProcess(spawn('/bin/sh', ['-c', c.serve ? `exec ${line}` : line], { cwd, env, stdio: 'pipe' }));
}

const examples = exampleFiles().map((f) => [basename(dirname(f)), f] as const);

describe('example header commands', () => {
  it.each(examples)(
    '%s',
    async (name, file) => {
      const commands: HeaderCommand[] = headerCommands(readFileSync(file, 'utf8'));
      expect(commands.length).toBeGreaterThan(0);
      const cwd = join(tmp.dir, name);
      mkdirSync(cwd);
      symlinkSync(join(base, 'examples'), join(cwd, 'examples'));
      symlinkSync(join(base, 'node_modules'), join(cwd, 'node_modules'));
      // examples/knowledge indexes ../../docs, the repository's documentation.
      symlinkSync(join(ROOT, 'docs'), join(cwd, 'docs'));
      const env = await environment(join(cwd, '.home'));
      const before = server.requests.length;
      const servers: Array<{ line: string; p: CliProcess }> = [];
      let output = '';
      try {
        for (const c of commands) {
          const line = fillPlaceholders(c.line, output);
          const p = start(c, line, cwd, env);
          if (c.serve) {
            await p.waitFor(/listening on/, { stream: 'stderr', timeoutMs: 20_000 });
            servers.push({ line, p });
            continue;
          }
          p.child.stdin.end(c.chat ? 'Hello\n' : '');
          const code = await p.exit(30_000);
          output += p.stdout + p.stderr;
          expect({ command: line, code, stderr: code === c.exitCode ? '' : p.stderr }).toEqual({
            command: line,
            code: c.exitCode,
            stderr: '',
          });
        }
        for (const { line, p } of servers) {
          p.child.kill('SIGTERM');
          expect({ command: line, code: await p.exit(15_000) }).toEqual({ command: line, code: 0 });
        }
      } finally {
        for (const { p } of servers) if (p.child.exitCode === null) p.child.kill('SIGKILL');
      }
      // The example talked to the model (the fake server), not only to the file system.
      expect(server.requests.length, relative(EXAMPLES_DIR, file)).toBeGreaterThan(before);
    },
    120_000,
  );
});
