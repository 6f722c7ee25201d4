/**
 * One `corvid code` session in a real terminal for the tmux tests: the fake model with its script, the
 * temporary project and the built CLI in a tmux pane; plus readers of what the model received.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { afterEach, beforeAll } from 'vitest';

import { assertBuilt, CLI } from '../cli/cli-harness.js';
import { type FakeLlmServer, type FakeReply, type RecordedRequest, startFakeLlmServer } from '../support/fake-llm-server.js';
import { type CodeProject, makeProject } from './code-project.js';
import { Terminal, tmuxMissing } from './tmux-terminal.js';

/** The input box's placeholder: the prompt is ready for a message. */
export const PROMPT = 'Ask, /command, !shell, @file';

/** A chat message as the OpenAI-compatible API receives it. */
export interface WireMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

/** The text of a wire message (string content or its text parts). */
export function textOf(m: WireMessage | undefined): string {
  if (m === undefined || m.content == null) return '';
  return typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('');
}

/** The messages of a recorded request. */
export const messagesOf = (r: RecordedRequest): WireMessage[] => (r.body as { messages: WireMessage[] }).messages;

/** The last user message of a recorded request. */
export const lastUserText = (r: RecordedRequest): string => textOf(messagesOf(r).findLast((m) => m.role === 'user'));

/** The result the model received for tool call `id`. */
export const toolResultText = (r: RecordedRequest, id: string): string =>
  textOf(messagesOf(r).find((m) => m.role === 'tool' && m.tool_call_id === id));

/**
 * The shared setup of a tmux test file: says once why its tests are skipped (no tmux), checks the build, and closes
 * the sessions a test started after it. Returns the reason to skip, or `undefined`.
 */
export function tmuxCodeSessionSuite(): string | undefined {
  const missing = tmuxMissing();
  if (missing) console.warn(`skipping the tmux tests of corvid code: ${missing}`);
  beforeAll(() => {
    if (!missing) assertBuilt();
  });
  afterEach(async () => {
    for (const s of [...TmuxCodeSession.open]) await s.close();
  });
  return missing;
}

/** A running session: closed by `close()`, or after the test by {@link tmuxCodeSessionSuite}. */
export class TmuxCodeSession {
  /** Sessions started and not closed yet. */
  static readonly open = new Set<TmuxCodeSession>();

  private constructor(
    readonly server: FakeLlmServer,
    readonly project: CodeProject,
    readonly term: Terminal,
  ) {}

  /**
   * Starts the fake model with `script`, a project (`files` added, relative path → content; `config` added to its
   * corvid.yaml) and `corvid code <args>` in a terminal of `size` (default 80×24); resolves once the prompt is shown.
   */
  static async start(
    script: FakeReply[],
    options: { args?: string[]; columns?: number; rows?: number; files?: Record<string, string>; config?: (dir: string) => string } = {},
  ): Promise<TmuxCodeSession> {
    const server = await startFakeLlmServer(script);
    const project = makeProject(server.url);
    if (options.config) appendFileSync(join(project.dir, 'corvid.yaml'), options.config(project.dir));
    for (const [path, content] of Object.entries(options.files ?? {})) writeProjectFile(project, path, content);
    const term = Terminal.start({
      command: [process.execPath, CLI, 'code', ...(options.args ?? [])],
      cwd: project.dir,
      env: project.env,
      ...(options.columns !== undefined ? { columns: options.columns } : {}),
      ...(options.rows !== undefined ? { rows: options.rows } : {}),
    });
    const session = new TmuxCodeSession(server, project, term);
    TmuxCodeSession.open.add(session);
    try {
      await term.waitForText(PROMPT);
    } catch (error) {
      await session.close();
      throw error;
    }
    return session;
  }

  /** The requests the model received so far. */
  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  /** A project file's content. */
  read(path: string): string {
    return readFileSync(join(this.project.dir, path), 'utf8');
  }

  /** Waits until the answer (`text`) and the prompt are both on the screen. */
  answered(text: string): Promise<string> {
    return this.term.waitFor((s) => s.includes(text) && s.includes(PROMPT), { what: `the answer "${text}" and the prompt` });
  }

  async close(): Promise<void> {
    if (!TmuxCodeSession.open.delete(this)) return;
    this.term.close();
    await this.server.close();
    this.project.cleanup();
  }
}

function writeProjectFile(project: CodeProject, path: string, content: string): void {
  const file = join(project.dir, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}
