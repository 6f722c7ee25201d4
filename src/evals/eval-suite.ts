import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

import { ValidationError } from '../errors/validation-error.js';
import type { ScoreExpectation } from '../types/scorer.js';
import { type ScorerSpec, scorerSpecSchema } from './scorer-spec.js';

const expectedCall = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).optional() });

/** One dataset case as written (inline under `cases:`, or one line of a JSONL `dataset:`). */
export const evalCaseSchema = z.strictObject({
  id: z.string().min(1).optional().describe('Case id (default case-<n>).'),
  input: z.string().min(1).describe('The user message.'),
  expected: z.string().optional().describe('The expected answer.'),
  expected_tool_calls: z.array(expectedCall).optional().describe('The expected tool calls.'),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

/** An eval suite file (`corvid eval suite.yaml`). */
export const evalSuiteSchema = z
  .strictObject({
    name: z.string().min(1).optional().describe('Suite name (default the file name).'),
    config: z.string().min(1).optional().describe('The corvid.yaml of the agent, relative to this file (default: corvid.yaml next to it).'),
    agent: z.string().min(1).optional().describe("The agent to evaluate (default the config's default agent)."),
    k: z.number().int().min(1).max(100).optional().describe('Runs per case (default 1).'),
    cassette: z.string().min(1).optional().describe('Cassette file of the model calls, relative to this file (record once, replay in CI).'),
    dataset: z.string().min(1).optional().describe('A JSONL file of cases, relative to this file.'),
    cases: z.array(evalCaseSchema).optional().describe('Cases written inline.'),
    scorers: z
      .array(
        scorerSpecSchema({
          all_k: z.boolean().optional().describe('Also require every case to pass in all k runs.'),
        }),
      )
      .min(1, { error: 'a suite needs at least one scorer' }),
  })
  .refine((s) => s.dataset !== undefined || (s.cases?.length ?? 0) > 0, { error: 'give cases: (inline) or dataset: (a JSONL file)' });

/** A case ready to run. */
export interface EvalCase {
  id: string;
  input: string;
  expected?: ScoreExpectation;
  metadata?: Record<string, unknown>;
}

/** A suite scorer with its gate. */
export interface SuiteScorer {
  spec: ScorerSpec;
  /** The mean score over every case and run must reach this (default 1). */
  threshold: number;
  /** Every case must pass in all k runs. */
  allK: boolean;
}

/** A loaded suite: paths absolute, cases read. */
export interface EvalSuite {
  name: string;
  file: string;
  configPath: string;
  agent?: string;
  k: number;
  cassette?: string;
  cases: EvalCase[];
  scorers: SuiteScorer[];
}

/**
 * Reads and checks a suite file and its dataset. `shown` is how messages name the file (default `file`).
 * @throws ValidationError naming the file, line and field.
 */
export async function loadSuite(path: string, shown: string = path): Promise<EvalSuite> {
  const file = shown;
  path = resolve(path);
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new ValidationError(`Cannot read the eval suite ${file}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (err) {
    throw new ValidationError(`${file}: not valid YAML: ${(err as Error).message}`);
  }
  const parsed = evalSuiteSchema.safeParse(raw);
  if (!parsed.success) throw new ValidationError(`${file}: ${issuesText(parsed.error)}`);
  const s = parsed.data;
  const dir = dirname(path);
  const cases = [...(s.cases ?? [])];
  if (s.dataset !== undefined) cases.push(...(await readDataset(resolve(dir, s.dataset), s.dataset)));
  const ids = new Set<string>();
  const ready = cases.map((c, i): EvalCase => {
    const id = c.id ?? `case-${i + 1}`;
    if (ids.has(id)) throw new ValidationError(`${file}: two cases have the id "${id}"`);
    ids.add(id);
    const out: EvalCase = { id, input: c.input };
    if (c.expected !== undefined || c.expected_tool_calls !== undefined) {
      out.expected = {};
      if (c.expected !== undefined) out.expected.output = c.expected;
      if (c.expected_tool_calls !== undefined) out.expected.toolCalls = c.expected_tool_calls;
    }
    if (c.metadata !== undefined) out.metadata = c.metadata;
    return out;
  });
  const names = new Set<string>();
  const scorers = s.scorers.map(({ all_k, ...spec }): SuiteScorer => {
    const name = spec.name ?? spec.type;
    if (names.has(name)) throw new ValidationError(`${file}: two scorers are named "${name}" (give one a name:)`);
    names.add(name);
    return { spec: { ...spec, name }, threshold: spec.threshold ?? 1, allK: all_k === true };
  });
  const suite: EvalSuite = {
    name: s.name ?? path.replace(/^.*[\\/]/, '').replace(/\.ya?ml$/, ''),
    file: path,
    configPath: resolve(dir, s.config ?? 'corvid.yaml'),
    k: s.k ?? 1,
    cases: ready,
    scorers,
  };
  if (s.agent !== undefined) suite.agent = s.agent;
  if (s.cassette !== undefined) suite.cassette = resolve(dir, s.cassette);
  return suite;
}

async function readDataset(path: string, shown: string): Promise<Array<z.output<typeof evalCaseSchema>>> {
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    throw new ValidationError(`Cannot read the dataset ${shown}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
  });
  const out: Array<z.output<typeof evalCaseSchema>> = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new ValidationError(`${shown}:${i + 1}: not JSON: ${(err as Error).message}`);
    }
    const r = evalCaseSchema.safeParse(value);
    if (!r.success) throw new ValidationError(`${shown}:${i + 1}: ${issuesText(r.error)}`);
    out.push(r.data);
  });
  return out;
}

function issuesText(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(top level)'}: ${i.message}`)
    .join('; ');
}
