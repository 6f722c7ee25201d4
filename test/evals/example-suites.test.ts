import { existsSync } from 'node:fs';
import { relative } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadSuite } from '../../src/evals/eval-suite.js';
import { buildScorer } from '../../src/evals/scorer-spec.js';
import { EXAMPLES_DIR, exampleSuites } from '../config/example-files.js';

describe('example eval suites', () => {
  it('exist', () => expect(exampleSuites().length).toBeGreaterThan(0));

  it.each(exampleSuites().map((f) => [relative(EXAMPLES_DIR, f), f]))(
    '%s loads, its config and cassette exist, its scorers build',
    async (_name, file) => {
      const suite = await loadSuite(file);
      expect(suite.cases.length).toBeGreaterThan(0);
      expect(existsSync(suite.configPath)).toBe(true);
      expect(suite.cassette !== undefined && existsSync(suite.cassette)).toBe(true);
      for (const s of suite.scorers) expect(buildScorer(s.spec, () => 'openai:gpt-4.1-mini').name).toBe(s.spec.name);
    },
  );
});
