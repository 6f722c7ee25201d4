import { resolve } from 'node:path';

import type { Runtime } from '../../runtime/load-runtime.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { formatError } from '../format-error.js';
import { loadCliRuntime } from '../load-cli-runtime.js';

/**
 * `corvid replay <run-id> [--out <file>] [--run]`: turns a stored run into a cassette (its model
 * answers and tool results, keyed by the requests the agent makes now); with `--run`, runs the
 * agent again against that cassette only (replay mode: no model is called) and prints the answer.
 */
export async function replayCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values, positionals } = context;
  const [runId] = positionals;
  if (runId === undefined) throw new UsageError('Missing the run id: corvid replay <run-id> (corvid runs list shows them)', 'replay');
  const out = resolve(context.cwd, typeof values.out === 'string' && values.out !== '' ? values.out : `cassettes/${runId}.cassette.json`);
  const colors = colorsFor(stderr, context.globals);
  const runtimes: Runtime[] = [];
  try {
    const runtime = await loadCliRuntime(context);
    runtimes.push(runtime);
    const { agentForRun } = await import('../../durable/runtime-runs.js');
    const { cassetteFromRun } = await import('../../durable/run-cassette.js');
    const { agent } = await agentForRun(runtime, runId);
    const made = await cassetteFromRun({ agent, store: await runtime.store(), runId, path: out });
    stderr.write(`${colors.dim(`Wrote ${out}: ${made.calls} model call(s) of run ${runId} (agent ${agent.name})`)}\n`);
    if (values.run !== true) return EXIT.ok;
    const { loadRuntime } = await import('../../runtime/load-runtime.js');
    const replaying = await loadRuntime({
      configPath: context.globals.config,
      cwd: context.cwd,
      env: context.env,
      cassette: { path: out, mode: 'replay' },
    });
    runtimes.push(replaying);
    const result = await replaying.agent(agent.name).run(made.input);
    stdout.write(result.text.endsWith('\n') ? result.text : `${result.text}\n`);
    return EXIT.ok;
  } catch (err) {
    stderr.write(formatError(err, { debug: context.globals.debug, colors }));
    return EXIT.failure;
  } finally {
    for (const r of runtimes) await r.close().catch(() => undefined);
  }
}
