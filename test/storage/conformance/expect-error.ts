import { expect } from 'vitest';

import { CorvidError } from '../../../src/errors/index.js';

/** Awaits a rejection and checks it is a CorvidError with `code` (and, optionally, words in its message). */
export async function expectCode(promise: Promise<unknown>, code: string, ...words: string[]): Promise<CorvidError> {
  let error: unknown;
  try {
    await promise;
  } catch (err) {
    error = err;
  }
  expect(error, `expected a rejection with code ${code}`).toBeDefined();
  expect(CorvidError.isInstance(error), `not a CorvidError: ${String(error)}`).toBe(true);
  const e = error as CorvidError;
  expect(e.code, e.message).toBe(code);
  for (const w of words) expect(e.message).toContain(w);
  return e;
}
