import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';

import type { EvalResults } from '../../evals/eval-results.js';
import type { GatedScorer } from '../../evals/run-eval.js';
import type { CassetteOverride } from '../../runtime/runtime-cassette.js';
import { type CliContext, EXIT, UsageError } from '../cli-context.js';
import { colorsFor } from '../colors.js';
import { caseLine, summaryText } from '../eval-summary.js';
import { formatError } from '../format-error.js';

function parseK(value: string | boolean | undefined): number | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 100)
    throw new UsageError(`--k must be a whole number from 1 to 100, got "${value}"`, 'eval');
  return Number(value);
}

const str = (v: string | boolean | undefined): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * `corvid eval <suite.yaml>`: runs the suite's cases k times, scores and gates them, compares with
 * a baseline, writes the reports asked for and the results under `.corvid/evals/`. Exit code 1
 * when a gate fails.
 */
export async function evalCommand(context: CliContext): Promise<number> {
  const { stdout, stderr, values, cwd } = context;
  const colors = colorsFor(stderr, context.globals);
  const out = colorsFor(stdout, context.globals);
  const suiteFile = context.positionals[0];
  if (suiteFile === undefined) throw new UsageError('Missing the suite file: corvid eval suite.yaml', 'eval');
  const k = parseK(values.k);
  if (values.record === true && values.replay === true) throw new UsageError('Give --record or --replay, not both', 'eval');
  const baselineFile = baselineOption(values);
  const json = values.json === true;

  const { loadSuite } = await import('../../evals/eval-suite.js');
  const { buildScorer } = await import('../../evals/scorer-spec.js');
  const { runEval } = await import('../../evals/run-eval.js');
  const { loadRuntime } = await import('../../runtime/load-runtime.js');
  let runtime: Awaited<ReturnType<typeof loadRuntime>> | undefined;
  try {
    const suite = await loadSuite(resolve(cwd, suiteFile), suiteFile);
    const cassettePath = str(values.cassette) !== undefined ? resolve(cwd, str(values.cassette)!) : suite.cassette;
    const mode = values.record === true ? 'record' : values.replay === true ? 'replay' : undefined;
    if (mode !== undefined && cassettePath === undefined && !context.env.CORVID_CASSETTE)
      throw new UsageError(`--${mode} needs a cassette: --cassette <file>, or cassette: in the suite`, 'eval');
    const cassette: CassetteOverride | undefined =
      cassettePath === undefined && mode === undefined
        ? undefined
        : { ...(cassettePath ? { path: cassettePath } : {}), ...(mode ? { mode } : {}) };
    const configPath = context.globals.config !== undefined ? resolve(cwd, context.globals.config) : suite.configPath;
    runtime = await loadRuntime({ configPath, cwd, env: context.env, cassette });
    const rt = runtime;
    const agent = rt.agent(str(values.agent) ?? suite.agent);
    const scorers: GatedScorer[] = suite.scorers.map((s) => ({
      scorer: buildScorer(s.spec, (ref) => rt.model(ref)),
      threshold: s.threshold,
      allK: s.allK,
    }));
    const runs = k ?? suite.k;
    if (!json)
      stderr.write(
        `${colors.bold(`eval ${suite.name}`)} ${colors.dim(`· agent ${agent.name} · ${suite.cases.length} case(s) × k = ${runs}`)}\n`,
      );
    const results = await runEval({
      suite: suite.name,
      agent,
      cases: suite.cases,
      scorers,
      k: runs,
      onCase: (c) => {
        if (!json) stderr.write(`${caseLine(c, colors)}\n`);
      },
    });
    if (baselineFile !== undefined) {
      const path = resolve(cwd, baselineFile);
      const baseline = await readBaseline(path);
      if (baseline !== undefined) {
        const { diffBaseline } = await import('../../evals/baseline-diff.js');
        results.baseline = { file: baselineFile, changes: diffBaseline(results, baseline) };
      } else if (values['update-baseline'] !== true) {
        stderr.write(colors.yellow(`No baseline at ${baselineFile} yet: write one with --update-baseline\n`));
      }
    }
    const saved = await saveResults(cwd, results);
    if (json) stdout.write(`${JSON.stringify(results, null, 2)}\n`);
    else stdout.write(summaryText(results, out));
    const regressed = values['fail-on-regression'] === true && failedOnRegression(context, results, colors);
    await writeReports(context, results, regressed ? undefined : baselineFile);
    if (values['update-baseline'] === true && !regressed && !json) stderr.write(colors.dim(`Baseline written to ${baselineFile}\n`));
    if (!json) stderr.write(colors.dim(`Results: ${relative(cwd, saved)}\n`));
    return results.pass && !regressed ? EXIT.ok : EXIT.failure;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    stderr.write(formatError(err, { debug: context.globals.debug, colors }));
    return EXIT.failure;
  } finally {
    await runtime?.close().catch(() => undefined);
  }
}

/** `--baseline`, checked with the options that need it. */
function baselineOption(values: CliContext['values']): string | undefined {
  const file = str(values.baseline);
  if (file !== undefined) return file;
  if (values['update-baseline'] === true) throw new UsageError('--update-baseline needs --baseline <file> (where to write it)', 'eval');
  if (values['fail-on-regression'] === true)
    throw new UsageError('--fail-on-regression needs --baseline <file> (what to compare with)', 'eval');
  return undefined;
}

/**
 * `--fail-on-regression`: whether a case's mean score went down against the baseline for any
 * scorer; if so, says which (case · scorer, before → after) on stderr.
 */
function failedOnRegression(context: CliContext, results: EvalResults, colors: ReturnType<typeof colorsFor>): boolean {
  const regressed = (results.baseline?.changes ?? []).filter((c) => c.change === 'regressed');
  if (regressed.length === 0) return false;
  const list = regressed.map((c) => `${c.case} · ${c.scorer} (${(c.before ?? 0).toFixed(2)} → ${(c.after ?? 0).toFixed(2)})`);
  const kept = context.values['update-baseline'] === true ? '; the baseline is not updated' : '';
  context.stderr.write(
    colors.red(`Failed: ${regressed.length} regression(s) against ${results.baseline!.file}: ${list.join(', ')}${kept}\n`),
  );
  return true;
}

/** `--junit`, `--report`, and with `--update-baseline` the baseline file (unless `undefined`). */
async function writeReports(context: CliContext, results: EvalResults, baselineFile: string | undefined): Promise<void> {
  const { values, cwd } = context;
  const junit = str(values.junit);
  if (junit !== undefined) {
    const { junitReport } = await import('../../evals/junit-report.js');
    await writeText(resolve(cwd, junit), junitReport(results));
  }
  const report = str(values.report);
  if (report !== undefined) {
    const { markdownReport } = await import('../../evals/markdown-report.js');
    await writeText(resolve(cwd, report), markdownReport(results));
  }
  if (values['update-baseline'] === true && baselineFile !== undefined) {
    const { baseline: _diff, ...plain } = results;
    await writeText(resolve(cwd, baselineFile), `${JSON.stringify(plain, null, 2)}\n`);
  }
}

async function readBaseline(path: string): Promise<EvalResults | undefined> {
  if (!existsSync(path)) return undefined;
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`The baseline ${path} is not JSON: ${(err as Error).message}`, 'eval');
  }
  if ((value as { corvidEval?: unknown })?.corvidEval !== 1 || !Array.isArray((value as { cases?: unknown }).cases))
    throw new UsageError(`The baseline ${path} is not a corvid eval result (write one with --update-baseline)`, 'eval');
  return value as EvalResults;
}

/** Saves the results as `.corvid/evals/<suite>-<time>.json` (what the Studio's Evals view lists). */
async function saveResults(cwd: string, results: EvalResults): Promise<string> {
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const safe = results.suite.replace(/[^\w.-]+/g, '_');
  const path = join(cwd, '.corvid', 'evals', `${safe}-${stamp}.json`);
  await writeText(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}

async function writeText(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}
