/**
 * The contract between `corvid code`'s engine (the session: agent, tools, modes, approvals, snapshots,
 * durable transcript) and its front ends (the full-screen terminal UI, the plain line output used
 * without a TTY, and headless `-p` mode). Front ends only talk to a `CodeSession`.
 */
import type { AgentEvent } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { Usage } from '../types/usage.js';

/**
 * What the agent may do without asking:
 * - `ask`: read-only tools only (no edits, no shell);
 * - `default`: reads are free; edits and shell commands need approval;
 * - `auto-edit`: file edits are free; shell commands need approval;
 * - `plan`: read-only like `ask`; the model writes a plan and offers it with `exit_plan_mode`, and once the user
 *   approves it the session goes back to the mode it came from (or `auto-edit`) and carries it out;
 * - `yolo`: nothing asks (refused unless the shell sandbox is on).
 */
export type CodeMode = 'ask' | 'default' | 'auto-edit' | 'plan' | 'yolo';

/** The order Shift+Tab cycles through. */
export const CODE_MODES: readonly CodeMode[] = ['default', 'auto-edit', 'plan', 'yolo', 'ask'];

/** What the status line shows. */
export interface CodeStatus {
  sessionId: string;
  /** `provider:model`. */
  model: string;
  /** `host[:port]` the model's requests go to, when known. */
  modelHost?: string;
  mode: CodeMode;
  /** Tokens used by the whole session so far. */
  usage: Usage;
  /** Cost of the session in US dollars, when the model's prices are known. */
  costUsd?: number;
  /** How full the model's context window is, 0–100 (estimated). */
  contextPercent: number;
  /** A turn is running. */
  busy: boolean;
  /** The shell sandbox (bubblewrap) is on. */
  sandbox: boolean;
  cwd: string;
  /** The session is still opening: the model, sandbox and usage are not known yet (see `PendingCodeSession`). */
  starting?: boolean;
}

/** One item of the model's todo list (`todo_write`). */
export interface CodeTodo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** A hook of `code.hooks` that ran and had something to say (output, or an exit code other than 0). */
export interface CodeHookRun {
  event: 'pre_tool_use' | 'post_tool_use' | 'user_prompt_submit' | 'stop';
  command: string;
  /** The tool it ran for (tool events). */
  toolName?: string;
  /** `null` when it timed out or could not start. */
  exitCode: number | null;
  /** Exit code 2: the call, prompt or stop was blocked; `output` is the reason. */
  blocked: boolean;
  output: string;
}

/** A slash command the user defined: a Markdown file in `.corvid/commands/` (project) or `~/.corvid/commands/` (user). */
export interface CodeCustomCommand {
  name: string;
  description?: string;
  argumentHint?: string;
  scope: 'project' | 'user';
}

/** A pending approval, as a front end shows it. */
export interface CodeApproval {
  /** Answer with `CodeSession.answerApproval(id, …)`. */
  id: string;
  toolName: string;
  input: unknown;
  /** What the tool is about to do: a unified diff for edits, the command line for the shell. */
  preview: string;
  /** The command prefix that "always" would allow (shell tools), e.g. `npm test`. */
  prefix?: string;
  /**
   * `plan`: the model offers a plan (`exit_plan_mode`; `preview` is the plan). Approving goes back to the mode the
   * session came from (`always: 'tool'`: to `auto-edit`) and the model carries it out; denying keeps planning.
   */
  kind?: 'plan';
}

/** A front end's answer to an approval. */
export interface CodeApprovalAnswer {
  approved: boolean;
  /** Sent to the model when denied. */
  reason?: string;
  /** Do not ask again this session: for this tool (`tool`), or for this command prefix (`prefix`, shell only). */
  always?: 'tool' | 'prefix';
}

/** How one turn ended. */
export interface CodeTurnResult {
  status: 'completed' | 'failed' | 'cancelled';
  /** The final answer (completed turns). */
  text?: string;
  /** A one-line message (failed turns). */
  error?: string;
  /** Tokens of this turn. */
  usage: Usage;
  /** Files the turn changed (relative to cwd). */
  changedFiles: string[];
}

/** Everything a front end renders, in order. */
export type CodeEvent =
  /** `resumed`: the turn continues an interrupted run (`/resume`), whose input is already in the transcript. */
  | { type: 'turn_start'; turn: number; input: string; resumed?: boolean }
  /** Every event of the running turn's agent (text and reasoning deltas, tool calls and results, …). */
  | { type: 'agent'; event: AgentEvent }
  | { type: 'approval'; approval: CodeApproval }
  | { type: 'approval_answered'; id: string; approved: boolean }
  | { type: 'turn_end'; turn: number; result: CodeTurnResult }
  /** Output of a slash command or a session-level message (e.g. "3 files restored"). `text` may hold a diff or a table. */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; text: string }
  /** The output of a `!command` typed by the user. */
  | { type: 'shell'; command: string; exitCode: number | null; output: string }
  | { type: 'status'; status: CodeStatus }
  /** `/clear` or `/resume`: the front end replaces its transcript with `messages`. */
  | { type: 'transcript'; messages: Message[] }
  /** The model's todo list changed (`todo_write`): the whole list. */
  | { type: 'todos'; todos: CodeTodo[] }
  /** A hook of `code.hooks` ran and printed something or did not exit 0. */
  | { type: 'hook'; hook: CodeHookRun }
  /** `/exit`: the front end should close. */
  | { type: 'exit' };

/** One `corvid code` session. */
export interface CodeSession {
  readonly id: string;
  status(): CodeStatus;
  /** The session's conversation so far (for a resumed session's transcript). */
  messages(): Message[];
  /** Receives every event from now on; returns the unsubscribe function. */
  subscribe(listener: (event: CodeEvent) => void): () => void;
  /** Runs one user turn to its end (never rejects: failures are in the result). */
  send(input: string): Promise<CodeTurnResult>;
  /** Runs a slash command line (`/undo`, `/mode auto-edit`, …); its output arrives as events. */
  command(line: string): Promise<void>;
  /** Runs `!command`: a shell command the user typed, in cwd, outside the model's turn. */
  runShell(command: string): Promise<{ exitCode: number | null; output: string }>;
  answerApproval(id: string, answer: CodeApprovalAnswer): void;
  /** Cancels the running turn: tools are stopped and the session stays consistent. No-op when idle. */
  cancel(): void;
  setMode(mode: CodeMode): void;
  /** Completion candidates for an `@path` mention (paths relative to cwd, files and folders). */
  completePath(prefix: string): Promise<string[]>;
  /** The user's own slash commands (Markdown files), as last read (each `/command` reads them again). */
  customCommands(): CodeCustomCommand[];
  /** The model's current todo list (empty when it has none). */
  todos(): CodeTodo[];
  close(): Promise<void>;
}

/** The names `/help` lists, in order. */
export const CODE_SLASH_COMMANDS = [
  'help',
  'model',
  'mode',
  'plan',
  'clear',
  'compact',
  'undo',
  'diff',
  'sessions',
  'resume',
  'cost',
  'init',
  'mcp',
  'exit',
] as const;

export type CodeSlashCommand = (typeof CODE_SLASH_COMMANDS)[number];
