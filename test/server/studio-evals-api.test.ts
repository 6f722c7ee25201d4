/**
 * The Studio's eval routes over real HTTP on 127.0.0.1, on the files the real `corvid eval` (the built CLI, a child
 * process) saved: the example suite replayed from its cassette, then again with a changed expectation and one more
 * scorer. The list names both runs newest first with their gates; a run carries the changes since the previous run
 * of its suite (the regression, the new scorer); files that are no eval results are listed as unreadable and answer
 * 422; malformed ids (path traversal included) answer 400; credentials are needed, the `read` scope is enough.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { RunningServer } from '../../src/server/app/serve.js';
import { hashApiKey } from '../../src/server/auth/api-keys.js';
import { assertBuilt, cliEnv, ROOT, runCli, tempDir } from '../cli/cli-harness.js';
import { scriptedAgent, startServer } from './helpers.js';

const EXAMPLE = join(ROOT, 'examples', 'evals');
const READER = 'reader-key-123';
const tmp = tempDir('corvid-evals-api-');

/** The example suite with absolute paths, `sum` expecting 6 instead of 5 (its exact score drops) and a new scorer. */
function changedSuite(): string {
  return readFileSync(join(EXAMPLE, 'calc.eval.yaml'), 'utf8')
    .replace('config: corvid.yaml', `config: ${join(EXAMPLE, 'corvid.yaml')}`)
    .replace('cassette: calc.cassette.json', `cassette: ${join(EXAMPLE, 'calc.cassette.json')}`)
    .replace("expected: '5'", "expected: '6'")
    .replace('scorers:\n', () => "scorers:\n  - { type: regex, name: digits, pattern: '^\\d+$' }\n");
}

describe('GET /api/v1/evals on the runs corvid eval saved', () => {
  const dir = tmp.dir;
  let server: RunningServer;
  let url = '';
  const ids: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    const evalCli = (suite: string) => runCli(['eval', suite, '--replay', '--no-color'], { cwd: dir, env: cliEnv(dir), timeoutMs: 60_000 });
    const first = await evalCli(join(EXAMPLE, 'calc.eval.yaml'));
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(join(dir, 'changed.eval.yaml'), changedSuite());
    const second = await evalCli('changed.eval.yaml');
    expect(second.stdout, second.stderr).toContain('✗ exact'); // the exact gate fails now
    expect(second.code).toBe(1);
    for (const out of [first.stderr, second.stderr]) ids.push(/Results: \.corvid\/evals\/(\S+)\.json/.exec(out)![1]!);
    // Beside them: a file that is not JSON, and JSON that is no eval result.
    writeFileSync(join(dir, '.corvid', 'evals', 'broken.json'), '{"corvidEval": 1, "suite": ');
    writeFileSync(join(dir, '.corvid', 'evals', 'notes.json'), '{"hello": "world"}');
    mkdirSync(join(dir, '.corvid', 'evals', 'folder.json'));
    ({ server, url } = await startServer([scriptedAgent('helper')], {
      load: { cwd: dir },
      server: { auth: { apiKeys: [{ name: 'reader', hash: hashApiKey(READER), scopes: ['read'] }] } },
    }));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  const get = async (path: string, key: string | null = READER) => {
    const res = await fetch(`${url}/api/v1/evals${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
    return { status: res.status, body: (await res.json()) as any };
  };

  it('lists both runs of the suite, newest first, with their gates, k and cases; the unreadable files apart', async () => {
    const { status, body } = await get('');
    expect(status).toBe(200);
    expect(body.runs.map((r: { id: string }) => r.id)).toEqual([ids[1], ids[0]]);
    const [changed, original] = body.runs;
    expect(original).toMatchObject({ suite: 'calc', agent: 'calc', k: 2, cases: 2, pass: true });
    expect(original.gates.map((g: { scorer: string }) => g.scorer)).toEqual(['exact', 'trajectory', 'steps', 'judge']);
    expect(changed).toMatchObject({ suite: 'calc', k: 2, cases: 2, pass: false });
    expect(changed.gates.find((g: { scorer: string }) => g.scorer === 'exact')).toMatchObject({ pass: false, mean: 0.5, allK: true });
    expect(body.unreadable).toEqual([
      { id: 'broken', message: expect.stringContaining('not JSON') },
      { id: 'notes', message: expect.stringContaining('not a corvid eval result') },
    ]);
  });

  it('answers a run with its results and the changes since the previous run of its suite', async () => {
    const { status, body } = await get(`/${ids[1]}`);
    expect(status).toBe(200);
    expect(body.results).toMatchObject({ corvidEval: 1, suite: 'calc', k: 2, pass: false });
    expect(body.results.cases.find((c: { id: string }) => c.id === 'sum').scores[1]).toMatchObject({ scorer: 'exact', mean: 0, passes: 0 });
    expect(body.previous).toEqual({ id: ids[0], startedAt: expect.any(String) });
    expect(body.changes).toContainEqual({ case: 'sum', scorer: 'exact', before: 1, after: 0, change: 'regressed' });
    expect(body.changes).toContainEqual({ case: 'product', scorer: 'exact', before: 1, after: 1, change: 'unchanged' });
    expect(body.changes).toContainEqual({ case: 'sum', scorer: 'digits', after: 1, change: 'new' });
    // The first run has nothing before it.
    const first = await get(`/${ids[0]}`);
    expect(first.status).toBe(200);
    expect(first.body.previous).toBeUndefined();
    expect(first.body.changes).toBeUndefined();
  });

  it('answers an unreadable file with 422, an unknown id with 404, a malformed or traversing id with 400', async () => {
    expect(await get('/broken')).toMatchObject({ status: 422, body: { error: { code: 'eval_unreadable' } } });
    expect((await get('/broken')).body.error.message).toMatch(/The eval run "broken" cannot be read: not JSON/);
    expect(await get('/notes')).toMatchObject({ status: 422, body: { error: { code: 'eval_unreadable' } } });
    expect(await get('/calc-nope')).toMatchObject({ status: 404, body: { error: { code: 'eval_not_found' } } });
    expect(await get('/folder')).toMatchObject({ status: 404 });
    for (const id of ['..%2F..%2Fcorvid', '..%2Fchanged.eval', '..%2F.corvid%2Fevals%2Fnotes', '.hidden', 'a%5Cb', 'a%00b'])
      expect(await get(`/${id}`), id).toMatchObject({ status: 400, body: { error: { code: 'invalid_eval_id' } } });
    // `%2E%2E` is `..` to the URL parser: the request leaves /api/v1/evals/ and no eval route answers it.
    expect((await get('/%2E%2E')).status).toBe(404);
  });

  it('needs a credential; the read scope is enough', async () => {
    expect((await get('', null)).status).toBe(401);
    expect((await get(`/${ids[0]}`, null)).status).toBe(401);
    expect((await get('', 'wrong-key-000')).status).toBe(401);
  });
});
