/** The live line of `corvid ingest`: redrawn in place on a terminal, throttled, absent otherwise. */
import { describe, expect, it } from 'vitest';

import { IngestProgressView } from '../../src/cli/ingest-progress.js';
import type { IngestProgress } from '../../src/knowledge/index.js';

const sink = (isTTY: boolean, columns = 200) => {
  const out = { text: '', isTTY, columns, write: (s: string) => (out.text += s) };
  return out;
};
const progress = (done: number, status: IngestProgress['status'] = 'unchanged'): IngestProgress => ({
  uri: `d${done}.md`,
  status,
  done,
  total: 100,
  chunks: done * 2,
  embedded: done,
  tokens: done * 500,
});

describe('IngestProgressView', () => {
  it('redraws one line with counts, rate and ETA, at most every 100 ms', () => {
    let now = 0;
    const tty = sink(true);
    const view = new IngestProgressView({ name: 'docs', lines: tty, live: tty, now: () => now });
    now = 1000;
    view.update(progress(10));
    view.update(progress(11)); // same instant: not redrawn
    now = 1200;
    view.update(progress(20, 'added'));
    expect(tty.text).not.toMatch(/\n.*\n.*\n/);
    expect(tty.text).toBe(
      '\rdocs: [##..............] 10/100 files · 20 chunks · 10 embedded · 5.0k tokens · 10 files/s · ETA 9s\x1b[K' +
        '\r\x1b[Kdocs: added d20.md\n' +
        '\rdocs: [###.............] 20/100 files · 40 chunks · 20 embedded · 10k tokens · 17 files/s · ETA 5s\x1b[K',
    );
    view.clear();
    expect(tty.text.endsWith('\r\x1b[K')).toBe(true);
  });

  it('cuts the line to the terminal width', () => {
    const tty = sink(true, 40);
    new IngestProgressView({ name: 'docs', lines: tty, live: tty }).update(progress(5));
    // eslint-disable-next-line no-control-regex
    expect(tty.text.replace(/\r|\x1b\[K/g, '').length).toBe(39);
  });

  it('writes only the document lines without a terminal', () => {
    const out = sink(false);
    const view = new IngestProgressView({ name: 'docs', lines: out, live: out });
    view.start();
    view.update(progress(1));
    view.update(progress(2, 'updated'));
    view.clear();
    expect(out.text).toBe('docs: updated d2.md\n');
  });
});
