import { access, readFile, writeFile } from 'node:fs/promises';
import nodePath from 'node:path';

import { compactContext, estimateTokens } from '../core/context-budget.js';
import { summarizer } from '../core/summarizer.js';
import type { Message } from '../types/message.js';
import { emptyUsage, type Usage } from '../types/usage.js';
import { resolveCodeModel } from './code-model.js';
import { costOf } from './code-prices.js';
import type { CodeSessionEngine } from './code-session-engine.js';
import { CODE_MODES, CODE_SLASH_COMMANDS, type CodeMode, type CodeSlashCommand } from './code-session-types.js';
import { CODE_SESSION_AGENT, type CodeSessionMetadata, listCodeSessions } from './code-store.js';
import { mcpReport } from './mcp-status.js';
import { UNDO_SCOPES, type UndoScope, undoTurn } from './undo-turn.js';

/** One line of `/help` per command. */
export const SLASH_HELP: Record<CodeSlashCommand, string> = {
  help: '/help               List the commands',
  model: '/model [id]         Show the model, or switch (provider:model or a corvid.yaml model name)',
  mode: `/mode [mode]        Show the mode, or switch: ${CODE_MODES.join(', ')}`,
  plan: '/plan [task]         Plan mode: the model reads and plans, you approve the plan before anything changes',
  clear: '/clear              Start a new session (the old one stays in /sessions)',
  compact: '/compact            Summarise the conversation now and continue in a compacted session',
  undo: '/undo [what]         Undo the last turn: both (default), files, or conversation',
  diff: '/diff               Show every change made by the agent this session',
  sessions: '/sessions           List the sessions of this folder',
  resume: '/resume [id]        Continue a session of this folder (default: the latest other one)',
  cost: '/cost               Tokens and cost of this session',
  init: '/init               Write an AGENTS.md for this project',
  mcp: '/mcp [reconnect [id]] The MCP servers of corvid.yaml: state, tools; reconnect restarts',
  exit: '/exit               Quit',
};

/** Runs one `/command` line on the engine; output arrives as notices. */
export async function runSlashCommand(engine: CodeSessionEngine, line: string): Promise<void> {
  const [rawName = '', ...args] = line.trim().replace(/^\//, '').split(/\s+/);
  const name = rawName.toLowerCase();
  if (!(CODE_SLASH_COMMANDS as readonly string[]).includes(name)) {
    const custom = await engine.reloadCustomCommands();
    if (custom.has(name)) {
      if (engine.busy) return engine.notice(`/${rawName} waits until the running turn ends (Ctrl-C cancels it).`, 'warning');
      await engine.send(line.trim());
      return;
    }
    const known = [...CODE_SLASH_COMMANDS, ...custom.keys()].filter((c) => c.startsWith(name.slice(0, 2)) && name !== '');
    engine.notice(
      `Unknown command "/${rawName}".${known.length ? ` Did you mean ${known.map((c) => `/${c}`).join(', ')}?` : ''} /help lists the commands; your own are Markdown files in .corvid/commands/ (this project) or ~/.corvid/commands/.`,
      'error',
    );
    return;
  }
  const command = name as CodeSlashCommand;
  if (engine.busy && !['help', 'mode', 'plan', 'cost', 'diff', 'sessions', 'mcp', 'exit'].includes(command)) {
    engine.notice(`/${command} waits until the running turn ends (Ctrl-C cancels it).`, 'warning');
    return;
  }
  await COMMANDS[command](engine, args);
}

type Handler = (engine: CodeSessionEngine, args: string[]) => Promise<void> | void;

const COMMANDS: Record<CodeSlashCommand, Handler> = {
  help: async (e) => {
    const custom = [...(await e.reloadCustomCommands()).values()];
    e.notice(
      [
        'Commands:',
        ...CODE_SLASH_COMMANDS.map((c) => `  ${SLASH_HELP[c]}`),
        '  !<command>          Run a shell command in the project folder',
        ...(custom.length ? ['Your commands (.corvid/commands/, ~/.corvid/commands/):'] : []),
        ...custom.map(
          (c) =>
            `  ${`/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ''}`.padEnd(19)} ${c.description ?? '(no description)'} (${c.scope})`,
        ),
      ].join('\n'),
    );
  },
  model: (e, args) => {
    if (args[0] === undefined) return e.notice(`Model: ${e.status().model}`);
    e.setModel(resolveCodeModel({ model: args[0], config: e.runtime.config, env: e.env }));
    e.notice(`Model: ${e.status().model}`);
  },
  mode: (e, args) => {
    if (args[0] === undefined) return e.notice(`Mode: ${e.gate.mode} (modes: ${CODE_MODES.join(', ')})`);
    if (!(CODE_MODES as readonly string[]).includes(args[0]))
      return e.notice(`Unknown mode "${args[0]}": use one of ${CODE_MODES.join(', ')}.`, 'error');
    const before = e.gate.mode;
    e.setMode(args[0] as CodeMode);
    if (e.gate.mode !== before || args[0] === before) e.notice(`Mode: ${e.gate.mode}`);
  },
  plan: async (e, args) => {
    if (e.gate.mode !== 'plan') e.setMode('plan');
    e.notice('Mode: plan (the model reads and plans; you approve the plan before anything changes).');
    if (args.length > 0) await e.send(args.join(' '));
  },
  clear: async (e) => {
    const id = await newCodeSession(e, {});
    await e.switchSession(id, { turns: 0, usage: emptyUsage() });
    e.notice(`New session ${id}.`);
  },
  compact: compact,
  undo: async (e, args) => {
    const scope = (args[0] ?? 'both').toLowerCase();
    if (!(UNDO_SCOPES as readonly string[]).includes(scope))
      return e.notice(`/undo takes ${UNDO_SCOPES.join(', ')} (default both), not "${args[0]}".`, 'error');
    await undoTurn(e, scope as UndoScope);
  },
  diff: async (e) => {
    const diff = await e.snapshots.diff();
    e.notice(diff === '' ? 'No changes by the agent in this session.' : diff);
  },
  sessions: async (e) => {
    const sessions = await listCodeSessions(e.store, e.cwd);
    if (sessions.length === 0) return e.notice('No sessions in this folder yet.');
    const lines = sessions.map((s) => {
      const mark = s.id === e.id ? '*' : ' ';
      const title = typeof s.metadata.title === 'string' ? s.metadata.title : '(empty)';
      return `${mark} ${s.id}  ${s.updatedAt.toISOString().slice(0, 16).replace('T', ' ')}  ${title}`;
    });
    e.notice(`Sessions of ${e.cwd} (newest first; /resume <id>):\n${lines.join('\n')}`);
  },
  resume: async (e, args) => {
    if (args[0] === undefined && e.interrupted !== undefined) {
      e.notice(`Continuing the interrupted turn ("${e.interrupted.input.split('\n')[0].slice(0, 60)}").`);
      await e.continueInterrupted();
      return;
    }
    const target = args[0] ?? (await listCodeSessions(e.store, e.cwd)).find((s) => s.id !== e.id)?.id;
    if (target === undefined) return e.notice('No other session of this folder to resume.', 'warning');
    const session = await e.store.sessions.get(target);
    if (session === undefined || session.metadata.cwd !== e.cwd)
      return e.notice(`No session "${target}" in this folder (/sessions lists them).`, 'error');
    const state = await storedSessionState(e, target);
    await e.switchSession(target, state);
    e.notice(`Resumed session ${target} (${e.messages().length} messages).`);
  },
  cost: (e) => {
    const s = e.status();
    const u = e.usage;
    const cost = costOf(s.model, u);
    e.notice(
      `Session: ${u.inputTokens} input + ${u.outputTokens} output tokens (${u.totalTokens} total)` +
        (cost !== undefined ? `, $${cost.toFixed(4)} at ${s.model} list prices` : ` (no price known for ${s.model})`),
    );
  },
  init: init,
  mcp: async (e, args) => e.notice(await mcpReport(e.runtime, args, new Set(e.agent.tools.map((t) => t.name)))),
  exit: (e) => e.emit({ type: 'exit' }),
};

/** Creates a stored `corvid code` session of the engine's folder and returns its id. */
export async function newCodeSession(e: CodeSessionEngine, extra: Partial<CodeSessionMetadata>): Promise<string> {
  const metadata: CodeSessionMetadata = { cwd: e.cwd, model: e.status().model, ...extra };
  const session = await e.store.sessions.create({ agent: CODE_SESSION_AGENT, activeAgent: e.agent.name, metadata: { ...metadata } });
  return session.id;
}

/** Turns and usage of a stored session (to continue it). */
export async function storedSessionState(
  e: { store: CodeSessionEngine['store'] },
  sessionId: string,
): Promise<{ turns: number; usage: Usage }> {
  const usage = emptyUsage();
  let turns = 0;
  for (const entry of await e.store.sessions.entries(sessionId)) {
    if (entry.message?.role === 'user') turns++;
    if (entry.usage) {
      usage.inputTokens += entry.usage.inputTokens;
      usage.outputTokens += entry.usage.outputTokens;
      usage.reasoningTokens += entry.usage.reasoningTokens;
      usage.cachedInputTokens += entry.usage.cachedInputTokens;
      usage.totalTokens += entry.usage.totalTokens;
    }
  }
  return { turns, usage };
}

/**
 * `/compact`: the conversation is cut with the context budget's own compaction (tool calls stay
 * with their results), older turns summarised by the session's model (dropped with a note when
 * the model cannot summarise), and the session continues as a new stored session holding the
 * compacted history (the full one stays listed in `/sessions`).
 */
async function compact(e: CodeSessionEngine): Promise<void> {
  const history: Message[] = e.messages();
  const before = estimateTokens(history);
  if (history.length < 6) return e.notice('Nothing to compact yet.');
  const budget = { maxTokens: Math.max(1, Math.floor(before / 4)), keepRecentMessages: 4 };
  const report = await compactContext({
    history,
    system: undefined,
    budget: { ...budget, strategy: 'summarize', summarize: summarizer(() => e.agent.resolveModel()) },
  });
  if (report === undefined) return e.notice('Nothing to compact: the conversation is already short.');
  if (report.tokensAfter >= report.tokensBefore)
    return e.notice(
      `Not compacted: the summary (${report.tokensAfter} tokens) would not be shorter than the conversation (${report.tokensBefore} tokens). The session continues as it is.`,
      'warning',
    );
  if (report.summaryError !== undefined)
    e.notice(`The model could not summarise (${report.summaryError}); the oldest turns were dropped instead.`, 'warning');
  const old = e.id;
  const id = await newCodeSession(e, { compactedFrom: old });
  // A summary is a system message; sessions hold it as a user note so every provider accepts it.
  const messages = history.map((m): Message => (m.role === 'system' ? { role: 'user', content: [{ type: 'text', text: m.content }] } : m));
  await e.store.sessions.appendMany(
    id,
    messages.map((message) => ({ message, agent: e.agent.name })),
  );
  await e.switchSession(id, { turns: messages.filter((m) => m.role === 'user').length, usage: e.usage });
  e.notice(
    `Compacted ${report.removedMessages} messages (${report.tokensBefore} → ${report.tokensAfter} tokens, ${report.strategy}); continuing in session ${id} (the full one is ${old}).`,
  );
}

const INIT_PROMPT = `Write an AGENTS.md file at the root of this project for coding agents working on it. First look at the project (list the folder, read the README and the build/package files). Then write AGENTS.md with: a one-paragraph overview; the layout (main folders and what they hold); how to build, test and lint (exact commands); code conventions you can see. Keep it under 60 lines. Use write_file to create it.`;

/** `/init`: asks the model to write AGENTS.md; when no model answers, writes a template to fill in. */
async function init(e: CodeSessionEngine): Promise<void> {
  const file = nodePath.join(e.cwd, 'AGENTS.md');
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    return e.notice('AGENTS.md exists already; edit it, or delete it and run /init again.', 'warning');
  const result = await e.send(INIT_PROMPT);
  if (
    await access(file).then(
      () => true,
      () => false,
    )
  )
    return e.notice('Wrote AGENTS.md.');
  if (result.status === 'cancelled') return;
  await writeFile(file, await templateFor(e.cwd));
  e.notice(`The model did not write AGENTS.md${result.error ? ` (${result.error})` : ''}; wrote a template to fill in.`, 'warning');
}

async function templateFor(cwd: string): Promise<string> {
  const pkg = await readFile(nodePath.join(cwd, 'package.json'), 'utf8')
    .then((t) => JSON.parse(t) as { name?: string; scripts?: Record<string, string> })
    .catch(() => undefined);
  const scripts = Object.keys(pkg?.scripts ?? {}).map((s) => `- \`npm run ${s}\``);
  return [
    `# ${pkg?.name ?? nodePath.basename(cwd)}`,
    '',
    'Instructions for coding agents (corvid code reads this file).',
    '',
    '## Overview',
    '',
    'What this project is and does.',
    '',
    '## Commands',
    '',
    ...(scripts.length > 0 ? scripts : ['- Build: ', '- Test: ', '- Lint: ']),
    '',
    '## Conventions',
    '',
    '- ',
    '',
  ].join('\n');
}
