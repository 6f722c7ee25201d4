import type { Part, StreamResponse, Task } from '@a2a-js/sdk';

import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { formatError } from '../format-error.js';
import { readAll } from '../read-all.js';

const STATES: Record<number, string> = {
  0: 'unknown',
  1: 'submitted',
  2: 'working',
  3: 'completed',
  4: 'failed',
  5: 'canceled',
  6: 'input-required',
  7: 'rejected',
  8: 'auth-required',
};
const FAILED = new Set([4, 5, 7]);

function partsText(parts: readonly Part[]): string {
  return parts
    .map((p) => (p.content?.$case === 'text' ? p.content.value : p.content?.$case === 'data' ? JSON.stringify(p.content.value) : ''))
    .join('');
}

function parseHeaders(value: unknown): Record<string, string> {
  const list = Array.isArray(value) ? (value as string[]) : typeof value === 'string' ? [value] : [];
  const headers: Record<string, string> = {};
  for (const h of list) {
    const i = h.search(/[=:]/);
    if (i <= 0) throw new UsageError(`--header takes name=value (or "Name: value"), got "${h}"`, 'call');
    headers[h.slice(0, i).trim()] = h.slice(i + 1).trim();
  }
  return headers;
}

function parseTimeout(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value);
  if (!m || Number(m[1]) <= 0) throw new UsageError(`--timeout takes a duration such as 30s, 500ms or 2m, got "${value}"`, 'call');
  return Math.round(Number(m[1]) * (m[2] === 'ms' ? 1 : m[2] === 'm' ? 60_000 : m[2] === 's' ? 1000 : 1000));
}

/** The URL and headers for the target: a URL as given, or a `type: remote` agent of the config. */
async function resolveTarget(
  context: CliContext,
  target: string,
  headers: Record<string, string>,
): Promise<{ url: string; headers: Record<string, string>; timeoutMs?: number }> {
  if (/^https?:\/\//i.test(target)) return { url: target, headers };
  const { loadConfig } = await import('../../config/load-config.js');
  const { config } = await loadConfig({ path: context.globals.config, cwd: context.cwd, env: context.env });
  const agent = config.agents[target];
  if (!agent) {
    const remotes = Object.values(config.agents)
      .filter((a) => a.type === 'remote')
      .map((a) => a.name);
    throw new UsageError(
      `"${target}" is neither an http(s) URL nor an agent of the config. Remote agents: ${remotes.join(', ') || '(none)'}`,
      'call',
    );
  }
  if (agent.type !== 'remote' || !agent.url)
    throw new UsageError(
      `The agent "${target}" is not a remote agent (type: remote with a url); corvid call talks to A2A servers — use corvid run for local agents`,
      'call',
    );
  return { url: agent.url, headers: { ...agent.headers, ...headers }, timeoutMs: agent.timeoutMs };
}

/**
 * `corvid call <url-or-agent> <message>`: sends one message to an A2A agent and prints the answer
 * on stdout. With `--stream`, text is printed as it arrives and status changes go to stderr;
 * `--json` prints the protocol's events (or result) as JSON lines. Ctrl-C cancels the task.
 */
export async function callCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values, positionals } = context;
  const colors = colorsFor(stderr, context.globals);
  const [target, ...words] = positionals;
  if (!target) throw new UsageError('Missing the agent: corvid call <url-or-agent> "message"', 'call');
  let text = words.join(' ');
  if (text === '-') text = (await readAll(context.stdin)).replace(/\r?\n$/, '');
  if (text.trim() === '') throw new UsageError(`Missing the message: corvid call ${target} "your message"`, 'call');
  const stream = values.stream === true;
  const json = values.json === true;
  const contextId = typeof values.context === 'string' ? values.context : '';
  const timeoutArg = parseTimeout(values.timeout);
  const headerArgs = parseHeaders(values.header);

  const controller = new AbortController();
  let taskId: string | undefined;
  let client: import('@a2a-js/sdk/client').Client | undefined;
  let interrupted = false;
  const onSigint = (): void => {
    if (interrupted) process.exit(EXIT.interrupted);
    interrupted = true;
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    const resolved = await resolveTarget(context, target, headerArgs);
    const timeoutMs = timeoutArg ?? resolved.timeoutMs ?? 300_000;
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]);
    const { importA2ASdk } = await import('../../a2a/client/import-a2a-sdk.js');
    const [{ connectA2A }, sdk] = await Promise.all([
      import('../../a2a/client/connect-a2a.js'),
      importA2ASdk(() => import('@a2a-js/sdk'), 'corvid call'),
    ]);
    client = (await connectA2A({ url: resolved.url, headers: resolved.headers, signal })).client;
    const request = {
      tenant: '',
      message: {
        messageId: crypto.randomUUID(),
        contextId,
        taskId: '',
        role: sdk.Role.ROLE_USER,
        parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false, historyLength: undefined },
      metadata: undefined,
    };
    if (!stream) {
      const result = await client.sendMessage(request, { signal });
      if (json) {
        stdout.write(
          `${JSON.stringify(sdk.SendMessageResponse.toJSON({ payload: 'messageId' in result ? { $case: 'message', value: result } : { $case: 'task', value: result } } as never))}\n`,
        );
        return 'messageId' in result || !FAILED.has(result.status?.state ?? 0) ? EXIT.ok : EXIT.failure;
      }
      if ('messageId' in result) {
        stdout.write(`${partsText(result.parts)}\n`);
        return EXIT.ok;
      }
      return finishTask(result, context, colors);
    }
    const artifacts = new Map<string, string>();
    let state = 0;
    let statusText = '';
    let printed = '';
    for await (const event of client.sendMessageStream(request, { signal })) {
      if (json) stdout.write(`${JSON.stringify(sdk.StreamResponse.toJSON(event))}\n`);
      const p = (event as StreamResponse).payload;
      if (!p) continue;
      if (p.$case === 'task') {
        taskId = p.value.id;
        if (!json) stderr.write(colors.dim(`task ${p.value.id} (context ${p.value.contextId})\n`));
      } else if (p.$case === 'message') {
        if (!json) stdout.write(`${partsText(p.value.parts)}\n`);
        return EXIT.ok;
      } else if (p.$case === 'statusUpdate') {
        const next = p.value.status?.state ?? state;
        if (p.value.status?.message) statusText = partsText(p.value.status.message.parts);
        if (next !== state && !json) stderr.write(colors.dim(`[${STATES[next] ?? next}]\n`));
        state = next;
      } else if (p.$case === 'artifactUpdate' && p.value.artifact) {
        const id = p.value.artifact.artifactId;
        const before = artifacts.get(id) ?? '';
        const after = p.value.append ? before + partsText(p.value.artifact.parts) : partsText(p.value.artifact.parts);
        artifacts.set(id, after);
        // Print only what extends the text already printed (a final replacement adds nothing).
        if (!json && after.startsWith(printed)) {
          stdout.write(after.slice(printed.length));
          printed = after;
        }
      }
    }
    if (json) return FAILED.has(state) ? EXIT.failure : EXIT.ok;
    if (FAILED.has(state)) {
      if (printed) stdout.write('\n');
      stderr.write(`${colors.red('error')}: the agent ${STATES[state]} the task${statusText ? `: ${statusText}` : ''}\n`);
      return EXIT.failure;
    }
    if (!printed) stdout.write([...artifacts.values()].join('\n') || statusText);
    stdout.write('\n');
    return EXIT.ok;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (interrupted) {
      if (taskId && client)
        await client
          .cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal: AbortSignal.timeout(5000) })
          .catch(() => undefined);
      stderr.write(`${colors.dim(`interrupted${taskId ? ` (task ${taskId} canceled)` : ''}`)}\n`);
      return EXIT.interrupted;
    }
    stderr.write(formatError(err, { debug: context.globals.debug, colors }));
    return EXIT.failure;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

function finishTask(task: Task, context: CliContext, colors: ReturnType<typeof colorsFor>): number {
  const state = task.status?.state ?? 0;
  const status = task.status?.message ? partsText(task.status.message.parts) : '';
  if (FAILED.has(state)) {
    context.stderr.write(`${colors.red('error')}: the agent ${STATES[state]} the task${status ? `: ${status}` : ''}\n`);
    return EXIT.failure;
  }
  const answer =
    task.artifacts
      .map((a) => partsText(a.parts))
      .filter(Boolean)
      .join('\n') || status;
  context.stdout.write(`${answer}\n`);
  if (state !== 3) context.stderr.write(colors.dim(`[${STATES[state] ?? state}]\n`));
  return EXIT.ok;
}
