import { describe, expect, it } from 'vitest';

import { unifiedDiff } from '../../../src/tools/files/unified-diff.js';

const lines = (n: number, f = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', { path: 'x' })).toBe('');
  });

  it('shows a changed first line with following context', () => {
    expect(unifiedDiff('a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', { path: 'f' })).toBe('--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d');
  });

  it('numbers hunks in the middle of a long file and keeps separate hunks apart', () => {
    const before = lines(100);
    const after = before.replace('line 20\n', 'line twenty\n').replace('line 80\n', 'line 80\nextra\n');
    expect(unifiedDiff(before, after, { path: 'f' })).toBe(
      [
        '--- a/f',
        '+++ b/f',
        '@@ -17,7 +17,7 @@',
        ' line 17',
        ' line 18',
        ' line 19',
        '-line 20',
        '+line twenty',
        ' line 21',
        ' line 22',
        ' line 23',
        '@@ -78,6 +78,7 @@',
        ' line 78',
        ' line 79',
        ' line 80',
        '+extra',
        ' line 81',
        ' line 82',
        ' line 83',
      ].join('\n'),
    );
  });

  it('handles appends, a missing final newline and a change inside a line that starts the common end', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\nc\n', { path: 'f' })).toBe('--- a/f\n+++ b/f\n@@ -1,2 +1,3 @@\n a\n b\n+c');
    expect(unifiedDiff('a\nb', 'a\nc', { path: 'f' })).toBe('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c');
    expect(unifiedDiff('a\nb\n', 'a\nXb\n', { path: 'f' })).toBe('--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+Xb');
  });

  it('is fast on a 5 MB text with one change and cuts very long diffs', () => {
    const before = lines(100_000, (i) => `line ${String(i).padStart(6, '0')} of the large file, some text`);
    const after = before.replace('line 050000 of', 'line 050000 OF');
    const t = performance.now();
    const diff = unifiedDiff(before, after, { path: 'big' });
    expect(performance.now() - t).toBeLessThan(200);
    expect(diff).toContain('@@ -49997,7 +49997,7 @@');
    const long = unifiedDiff('', lines(5000), { path: 'f', maxChars: 1000 });
    expect(long).toMatch(/… \(diff cut at 1000 characters\)$/);
  });
});
