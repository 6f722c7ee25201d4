import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import nodePath from 'node:path';

import { Agent, type AgentOptions } from '../core/agent.js';
import { fileTools } from '../tools/files/index.js';
import { shellTool } from '../tools/shell/index.js';
import type { ModelConfig } from '../types/model.js';
import type { Store } from '../types/storage/store.js';
import type { Tool } from '../types/tool.js';
import { type ApprovalGate, toolClass } from './approval-gate.js';
import type { CodeHooks } from './code-hooks.js';
import type { CodeRuntime } from './code-runtime.js';
import type { CodeMode } from './code-session-types.js';
import type { FileSnapshots } from './file-snapshots.js';
import { withHooks } from './hooked-tool.js';

/** The instructions every `corvid code` agent starts with. */
export const CODE_INSTRUCTIONS = `You are corvid code, a coding agent working in a software project on the user's machine.

How you work:
- Be concise. Answer in a few sentences or a short list; no preamble, no repetition of the question.
- Look before you change: read the relevant files, use grep and glob to find code. Never guess at file contents.
- Cite code as path:line (e.g. src/app.ts:42) when you refer to it.
- For a task with several steps, keep a todo list with todo_write (the user sees it): write it first, keep exactly one item in_progress, mark items completed as you finish them.
- Make the smallest change that does the job; follow the project's style and conventions. Prefer edit_file / multi_edit over rewriting whole files.
- After changing code, run the project's tests or type checks with the bash tool, read failures, fix them, and run again until they pass (or say why they cannot).
- Do not run destructive commands (rm -rf, git reset --hard, force pushes) unless the user asked for them.
- If a tool call is denied, respect it: do not retry the same call; use the reason given, or explain what you would need.
- When you finish, say briefly what you changed (files) and how you verified it.`;

const MODE_NOTES: Record<CodeMode, string> = {
  ask: 'Mode: ask. You may only read (read_file, list_dir, glob, grep). Do not try to edit files or run commands: explain what you would change instead.',
  default: 'Mode: default. Reading is free; file edits and shell commands ask the user for approval first.',
  'auto-edit': 'Mode: auto-edit. Reading and file edits are free; shell commands ask the user for approval first.',
  plan: 'Mode: plan. You may only read (read_file, list_dir, glob, grep): no edits, no shell commands. Investigate, then write a concrete plan (the files to change and how, in order, and how you will verify it) and offer it with exit_plan_mode. Once the user approves it, carry it out.',
  yolo: 'Mode: yolo. Every tool runs without asking; shell commands run in a sandbox (no network, writes only inside the project).',
};

/** Names of the project instruction files, read from the folder and its parents. */
export const PROJECT_INSTRUCTION_FILES = ['AGENTS.md', 'CORVID.md'] as const;

/**
 * The project instructions: `AGENTS.md` and `CORVID.md` of `cwd` and of each parent folder, the
 * farthest first and the nearest last (so the nearest have the last word), each under a heading
 * naming its file.
 */
export async function projectInstructions(cwd: string): Promise<{ text: string; files: string[] }> {
  const dirs: string[] = [];
  for (let dir = nodePath.resolve(cwd); ; dir = nodePath.dirname(dir)) {
    dirs.unshift(dir);
    if (nodePath.dirname(dir) === dir) break;
  }
  const parts: string[] = [];
  const files: string[] = [];
  for (const dir of dirs) {
    for (const name of PROJECT_INSTRUCTION_FILES) {
      const file = nodePath.join(dir, name);
      const text = await readFile(file, 'utf8').catch(() => undefined);
      if (text === undefined || text.trim() === '') continue;
      files.push(file);
      parts.push(`## Project instructions from ${nodePath.relative(cwd, file) || name}\n\n${text.trim()}`);
    }
  }
  return { text: parts.join('\n\n'), files };
}

/** What `buildCodeAgent` needs. */
export interface CodeAgentInput {
  cwd: string;
  runtime: CodeRuntime;
  /** A `corvid.yaml` agent to start from (its instructions, tools and MCP servers). */
  agentName?: string;
  model: ModelConfig;
  /** Run shell commands in the bubblewrap sandbox. */
  sandbox: boolean;
  /** Add the web tools (`web_fetch`, `http_request`). */
  web: boolean;
  gate: ApprovalGate;
  snapshots: FileSnapshots;
  store: Store;
  /** The current mode, read at each run for the instructions. */
  mode: () => CodeMode;
  /** Extra instructions (the project's). */
  projectText: string;
  /**
   * The context budget: beyond this many estimated tokens, older turns (tool calls with their results) are summarised
   * by the session's model, or dropped when it cannot summarise.
   */
  contextTokens: number;
  /** The coding tools (`codeTools()`), before wrapping. */
  own: Tool[];
  /** The hooks of `code.hooks` (tool calls run the pre_tool_use and post_tool_use ones). */
  hooks?: CodeHooks;
}

/** The coding tools of a session, before the mode rules and snapshots are applied. */
export async function codeTools(input: { cwd: string; sandbox: boolean; web: boolean }): Promise<Tool[]> {
  const tools: Tool[] = [
    ...fileTools({ root: input.cwd, deny: ['.git/**', '.env', '.env.*', '**/*.pem', '**/*.key'] }),
    // Without the sandbox each command waits for the user's approval (yolo, which asks nothing, needs the sandbox).
    shellTool({
      cwd: input.cwd,
      isolation: input.sandbox ? 'bwrap' : 'none',
      readRoots: nodeInstallRoot(),
      timeoutMs: 120_000,
      onWarning: () => undefined,
    }),
  ];
  if (input.web) {
    const { webTools } = await import('../tools/web/index.js');
    tools.push(...webTools());
  }
  return tools;
}

/** The folder of the running Node.js when it is not part of the system (nvm, volta…): the sandbox shows it read-only. */
function nodeInstallRoot(): string[] {
  const prefix = nodePath.dirname(nodePath.dirname(process.execPath));
  const system = /^\/(usr|bin|sbin|lib\w*)(\/|$)/.test(prefix);
  // Never a folder that holds the home folder (node in ~/bin would show all of it).
  const holdsHome = `${homedir()}/`.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
  return system || holdsHome ? [] : [prefix];
}

/**
 * The session's agent: the coding instructions, the project's instructions and the mode; the file
 * tools confined to `cwd` and the shell tool, each wrapped by the approval gate (mode rules) and
 * by the snapshots (edits: the prior content; shell: the command line); a `corvid.yaml` agent's own tools (MCP included) and instructions
 * when `agentName` is given.
 */
export async function buildCodeAgent(input: CodeAgentInput): Promise<{ agent: Agent; tools: Map<string, Tool> }> {
  const base = input.agentName !== undefined ? input.runtime.agent(input.agentName) : undefined;
  const own = input.own;
  const names = new Set(own.map((t) => t.name));
  const extra = (base?.tools ?? []).filter((t) => !names.has(t.name));
  const tools = new Map<string, Tool>();
  for (const t of [...own, ...extra]) {
    const guarded = input.gate.wrap(input.hooks ? withHooks(t, input.hooks) : t);
    const cls = toolClass(t.name);
    tools.set(t.name, cls === 'edit' ? input.snapshots.wrap(guarded) : cls === 'shell' ? input.snapshots.wrapShell(guarded) : guarded);
  }
  const baseInstructions = typeof base?.options.instructions === 'string' ? base.options.instructions : undefined;
  const fixed = [CODE_INSTRUCTIONS, baseInstructions ? `## Agent instructions\n\n${baseInstructions}` : '', input.projectText]
    .filter((s) => s !== '')
    .join('\n\n');
  const options: AgentOptions = {
    ...(base?.options ?? {}),
    name: base?.name ?? 'code',
    description: 'corvid code: a coding agent',
    model: input.model,
    tools: [...tools.values()],
    store: input.store,
    maxSteps: base?.options.maxSteps ?? 100,
    context: base?.options.context ?? { maxTokens: input.contextTokens, strategy: 'summarize', keepRecentMessages: 8 },
    instructions: () => `${fixed}\n\n## Session\n\nWorking folder: ${input.cwd}\n${MODE_NOTES[input.mode()]}`,
    requireApproval: undefined,
    handoffs: undefined,
  };
  return { agent: new Agent(options), tools };
}
