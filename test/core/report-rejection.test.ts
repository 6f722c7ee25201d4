import { describe, expect, it } from 'vitest';

import { reportRejection } from '../../src/core/report-rejection.js';

describe('reportRejection', () => {
  it('reports a promise left to run on its own as a CorvidWarning, saying what failed and why', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      void Promise.reject(new Error('disk full')).catch(reportRejection('live scoring'));
      const deadline = Date.now() + 5000;
      while (warnings.length === 0 && Date.now() < deadline) await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => [w.name, w.message])).toEqual([['CorvidWarning', 'live scoring failed: disk full']]);
  });

  it('hands the message to the given logger instead', async () => {
    const seen: string[] = [];
    await Promise.reject('no connection').catch(reportRejection('the webhook of run r1', (m) => seen.push(m)));
    expect(seen).toEqual(['the webhook of run r1 failed: no connection']);
  });
});
