import type { ApprovalDecision, ApprovalRequest } from '../types/durable-options.js';
import type { Tool } from '../types/tool.js';
import type { CodeApproval, CodeApprovalAnswer, CodeMode } from './code-session-types.js';
import { commandPrefix, prefixCovers } from './command-prefix.js';
import { EXIT_PLAN_MODE } from './exit-plan-mode-tool.js';
import { TODO_WRITE } from './todo-write-tool.js';

/** What a tool is, for the mode rules; `session`: the session's own tools (the todo list, offering a plan). */
export type ToolClass = 'read' | 'edit' | 'shell' | 'session' | 'other';

const READ_TOOLS = new Set(['read_file', 'list_dir', 'glob', 'grep', 'search_files', 'web_fetch']);
const EDIT_TOOLS = new Set(['write_file', 'edit_file', 'multi_edit']);
const SHELL_TOOLS = new Set(['bash']);
const SESSION_TOOLS = new Set([TODO_WRITE, EXIT_PLAN_MODE]);

/** The class of a tool by its name: the built-in file, shell and web tools; anything else is `other`. */
export function toolClass(name: string): ToolClass {
  if (READ_TOOLS.has(name)) return 'read';
  if (EDIT_TOOLS.has(name)) return 'edit';
  if (SHELL_TOOLS.has(name)) return 'shell';
  if (SESSION_TOOLS.has(name)) return 'session';
  return 'other';
}

/** Why a call is refused outright in the current mode, or `undefined` when it may run (maybe after approval). */
export function refusalInMode(mode: CodeMode, cls: ToolClass, toolName: string): string | undefined {
  if (cls === 'read' || cls === 'session') return undefined;
  if (mode === 'ask')
    return `Refused: the session is in ask mode (read-only), so ${toolName} may not run. Answer from what you can read, or ask the user to switch modes (/mode default).`;
  if (mode === 'plan')
    return `Refused: the session is in plan mode, so ${toolName} may not run yet. Read what you need, then offer your plan with ${EXIT_PLAN_MODE}; once the user approves it you can make changes.`;
  return undefined;
}

/** The mode a session goes to when its plan is approved: the one it was in before plan mode (`default` after a read-only one). */
export function modeAfterPlan(before: CodeMode | undefined): CodeMode {
  return before === undefined || before === 'plan' || before === 'ask' ? 'default' : before;
}

/** Options of an `ApprovalGate`. */
export interface ApprovalGateOptions {
  mode: CodeMode;
  /** Called when a call needs a person's answer; absent in headless runs, where such calls are denied. */
  ask?: (approval: CodeApproval) => void;
  /** The tools by name (for previews). */
  tools: () => ReadonlyMap<string, Tool>;
  /** Shell command prefixes allowed from the start (`--allow`, `code.allow` in corvid.yaml); see `allowRuleError`. */
  allow?: readonly string[];
  /** Whether the shell sandbox is on (for the hints of a headless denial). */
  sandbox?: boolean;
  /** Called when the gate itself changed the mode (an approved plan). */
  onModeChange?: () => void;
}

/** Why a `--allow` rule is refused (a bare interpreter, a launcher, a compound line), or `undefined` when it is good. */
export function allowRuleError(rule: string): string | undefined {
  if (commandPrefix(rule) !== undefined) return undefined;
  return `--allow "${rule}" is not a command prefix corvid code accepts: name the command with its subcommand or script (e.g. "npm test", "node --test", "python -m pytest"), never a bare interpreter, shell or launcher (node, python, bash, npx, env, sudo), inline code (-e, -c) or several commands`;
}

/**
 * The mode rules and the approvals of one session: which calls need asking, the "always" answers
 * (per tool, per shell command prefix), and the calls waiting for an answer.
 */
export class ApprovalGate {
  private current: CodeMode;
  /** The mode before plan mode was entered (where an approved plan goes back to). */
  private beforePlan: CodeMode | undefined;
  private readonly onModeChange: (() => void) | undefined;
  private readonly ask: ((approval: CodeApproval) => void) | undefined;
  private readonly tools: () => ReadonlyMap<string, Tool>;
  private readonly alwaysTools = new Set<string>();
  private readonly alwaysPrefixes: Set<string>;
  private readonly sandbox: boolean;
  private readonly pending = new Map<string, (answer: CodeApprovalAnswer) => void>();
  private next = 0;

  constructor(options: ApprovalGateOptions) {
    this.current = options.mode;
    this.onModeChange = options.onModeChange;
    this.ask = options.ask;
    this.tools = options.tools;
    this.alwaysPrefixes = new Set(options.allow ?? []);
    this.sandbox = options.sandbox ?? true;
  }

  /** The mode of the session. */
  get mode(): CodeMode {
    return this.current;
  }

  set mode(mode: CodeMode) {
    if (mode === 'plan' && this.current !== 'plan') this.beforePlan = this.current;
    this.current = mode;
  }

  /** The shell command prefixes that run without asking. */
  get allowedPrefixes(): string[] {
    return [...this.alwaysPrefixes];
  }

  /** Whether a call needs a person's approval in the current mode (the tool's `requireApproval`). */
  needsApproval(toolName: string, input: unknown): boolean {
    const cls = toolClass(toolName);
    if (cls === 'session') return toolName === EXIT_PLAN_MODE && this.mode === 'plan';
    if (cls === 'read' || this.mode === 'yolo' || this.mode === 'ask' || this.mode === 'plan') return false;
    if (cls === 'edit' && this.mode === 'auto-edit') return false;
    if (this.alwaysTools.has(toolName)) return false;
    if (cls === 'shell') {
      const command = (input as { command?: unknown } | undefined)?.command;
      if (typeof command === 'string' && [...this.alwaysPrefixes].some((p) => prefixCovers(p, command))) return false;
    }
    return true;
  }

  /** Wraps a tool: its calls ask when the mode says so, and are refused outright in ask mode (the model reads why). */
  wrap(tool: Tool): Tool {
    const cls = toolClass(tool.name);
    return {
      ...tool,
      requireApproval: (input: unknown) => this.needsApproval(tool.name, input),
      execute: (input, context) => {
        const refusal = refusalInMode(this.mode, cls, tool.name);
        if (refusal !== undefined) throw new Error(refusal);
        return tool.execute(input, context);
      },
    };
  }

  /** The in-process approval handler of the session's runs. */
  async decide(request: ApprovalRequest): Promise<ApprovalDecision> {
    if (!this.ask) return { approved: false, reason: this.headlessDenial(request) };
    const plan = request.toolName === EXIT_PLAN_MODE ? planText(request.input) : undefined;
    const tool = this.tools().get(request.toolName);
    let preview = plan ?? request.prompt;
    if (tool?.preview && plan === undefined) {
      try {
        preview = (await tool.preview(request.input)) ?? request.prompt;
      } catch (err) {
        preview = `${request.prompt}\n(no preview: ${err instanceof Error ? err.message : String(err)})`;
      }
    }
    const id = `apv_${++this.next}`;
    const command = (request.input as { command?: unknown } | undefined)?.command;
    const prefix = toolClass(request.toolName) === 'shell' && typeof command === 'string' ? commandPrefix(command) : undefined;
    const approval: CodeApproval = {
      id,
      toolName: request.toolName,
      input: request.input,
      preview,
      ...(prefix !== undefined ? { prefix } : {}),
      ...(plan !== undefined ? { kind: 'plan' as const } : {}),
    };
    const answer = await new Promise<CodeApprovalAnswer>((resolve) => {
      this.pending.set(id, resolve);
      this.ask!(approval);
    });
    if (plan !== undefined) return this.planAnswer(answer);
    if (answer.approved && answer.always === 'tool') this.alwaysTools.add(request.toolName);
    if (answer.approved && answer.always === 'prefix' && approval.prefix !== undefined) this.alwaysPrefixes.add(approval.prefix);
    if (answer.approved) return { approved: true };
    return { approved: false, reason: answer.reason?.trim() ? `The user said no: ${answer.reason.trim()}` : 'The user said no.' };
  }

  /** An answer to a plan: approved, the mode goes back (or to `auto-edit` for "always"); denied, planning goes on. */
  private planAnswer(answer: CodeApprovalAnswer): ApprovalDecision {
    if (!answer.approved) {
      const why = answer.reason?.trim();
      return {
        approved: false,
        reason: `The user did not approve the plan${why ? `: ${why}` : '.'} Stay in plan mode: revise the plan (ask if something is unclear) and offer it again with ${EXIT_PLAN_MODE}.`,
      };
    }
    this.current = answer.always === 'tool' ? 'auto-edit' : modeAfterPlan(this.beforePlan);
    this.onModeChange?.();
    return { approved: true };
  }

  /** Why a headless run denies a call, with the ways the user can allow it (never the mode already in use). */
  private headlessDenial(request: ApprovalRequest): string {
    if (request.toolName === EXIT_PLAN_MODE)
      return 'This run is headless: the plan is printed for the user, who will review it and run it later. Do not change anything; end your turn now with one short line.';
    const cls = toolClass(request.toolName);
    const hints: string[] = [];
    if (cls === 'edit' && this.mode === 'default') hints.push('--mode auto-edit (file edits)');
    if (cls === 'shell') {
      const command = (request.input as { command?: unknown } | undefined)?.command;
      const prefix = typeof command === 'string' ? commandPrefix(command) : undefined;
      if (prefix !== undefined) hints.push(`--allow "${prefix}" (this command and its arguments)`);
    }
    hints.push(
      this.sandbox
        ? '--mode yolo (everything, shell commands in the sandbox)'
        : '--mode yolo --dangerously-run-unsandboxed (everything, unconfined: trusted containers only)',
    );
    return `Denied: corvid code runs headless in ${this.mode} mode, where ${request.toolName} needs a person's approval and nobody can give it. Do without it, or tell the user to re-run with ${hints.join(' or ')}.`;
  }

  /** Answers a pending approval; false when `id` is not pending. */
  answer(id: string, answer: CodeApprovalAnswer): boolean {
    const resolve = this.pending.get(id);
    if (resolve === undefined) return false;
    this.pending.delete(id);
    resolve(answer);
    return true;
  }

  /** Denies every pending approval (the turn was cancelled); returns their ids. */
  denyAll(reason: string): string[] {
    const ids = [...this.pending.keys()];
    for (const id of ids) this.answer(id, { approved: false, reason });
    return ids;
  }
}

/** The plan of an `exit_plan_mode` call. */
function planText(input: unknown): string {
  const plan = (input as { plan?: unknown } | undefined)?.plan;
  return typeof plan === 'string' ? plan : JSON.stringify(input);
}
