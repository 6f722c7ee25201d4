import { describe, expect, it } from 'vitest';

import type { TraceSpan } from '../../studio/src/api-types.js';
import { firstWords, relativeTime } from '../../studio/src/relative-time.js';
import { argumentsOf, schemaFields } from '../../studio/src/schema-args.js';
import { createSseParser, type SseMessage } from '../../studio/src/sse-parser.js';
import { layoutStructure, taskLayers } from '../../studio/src/structure-diagram-layout.js';
import { diffOf, isUnifiedDiff, splitApprovalPrompt } from '../../studio/src/tool-diff.js';
import { formatCost, visibleSpans } from '../../studio/src/trace-spans.js';

describe('SSE parser', () => {
  it('reassembles events split across chunks, skips comments and handles CRLF', () => {
    const seen: SseMessage[] = [];
    const parser = createSseParser((m) => seen.push(m));
    for (const chunk of [
      'event: session\ndata: {"sessionId":',
      '"s1"}\n\n: heartbeat\n\nevent: text_delta\r',
      '\ndata: {"delta":"hi"}\r\n\r\n',
      'data: a\ndata: b\n',
    ])
      parser.push(chunk);
    parser.end();
    expect(seen).toEqual([
      { event: 'session', data: '{"sessionId":"s1"}' },
      { event: 'text_delta', data: '{"delta":"hi"}' },
      { event: 'message', data: 'a\nb' },
    ]);
  });
});

describe('approval prompts', () => {
  it('keep the question as the title and show the preview under it: a diff as diff lines, a command as text', () => {
    const prompt = 'Edit src/app.ts?\n--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1 +1 @@\n-const a = 1;\n+const a = 2;\n';
    const split = splitApprovalPrompt(prompt);
    expect(split.title).toBe('Edit src/app.ts?');
    expect(split.diff?.map((l) => l.kind)).toEqual(['meta', 'meta', 'hunk', 'del', 'add']);
    expect(splitApprovalPrompt('Run this command?\n$ npm test')).toEqual({ title: 'Run this command?', preview: '$ npm test' });
    expect(splitApprovalPrompt('Remember green?')).toEqual({ title: 'Remember green?' });
  });
});

describe('tool diffs', () => {
  it('colours a unified diff and turns an edit into removed and added lines', () => {
    const patch = '--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n-old\n+new\n same';
    expect(isUnifiedDiff(patch)).toBe(true);
    expect(diffOf({ patch })?.map((l) => l.kind)).toEqual(['meta', 'meta', 'hunk', 'del', 'add', 'same']);
    expect(diffOf({ path: 'a.txt', old_string: 'one', new_string: 'two\nthree' })).toEqual([
      { kind: 'meta', text: 'a.txt' },
      { kind: 'del', text: '-one' },
      { kind: 'add', text: '+two' },
      { kind: 'add', text: '+three' },
    ]);
    expect(diffOf({ q: 'weather' })).toBeUndefined();
    expect(diffOf('- a list\n- of things')).toBeUndefined();
  });
});

describe('tool call form', () => {
  const schema = {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'Where' },
      days: { type: 'integer', default: 3 },
      units: { enum: ['c', 'f'] },
      verbose: { type: 'boolean' },
      filter: { type: 'object' },
    },
    required: ['city'],
  };
  it('makes one field per property and the arguments of the values', () => {
    const fields = schemaFields(schema);
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['city', 'string', true],
      ['days', 'integer', false],
      ['units', 'enum', false],
      ['verbose', 'boolean', false],
      ['filter', 'json', false],
    ]);
    expect(argumentsOf(fields, { city: 'Oslo', verbose: 'true', filter: '{"a":1}' })).toEqual({
      ok: true,
      value: { city: 'Oslo', days: 3, verbose: true, filter: { a: 1 } },
    });
    expect(argumentsOf(fields, {})).toEqual({ ok: false, error: 'city is required' });
    expect(argumentsOf(fields, { city: 'x', days: '2.5' })).toEqual({ ok: false, error: 'days must be an integer' });
    expect(argumentsOf(fields, { city: 'x', filter: '{' })).toEqual({ ok: false, error: 'filter must be JSON' });
  });
});

describe('structure diagram', () => {
  it('puts each DAG task one layer right of its deepest dependency', () => {
    const layers = taskLayers([
      { name: 'fetch', dependsOn: [] },
      { name: 'parse', dependsOn: ['fetch'] },
      { name: 'summarise', dependsOn: ['parse', 'fetch'] },
      { name: 'loop', dependsOn: ['loop', 'missing'] },
    ]);
    expect(Object.fromEntries(layers)).toEqual({ fetch: 0, parse: 1, summarise: 2, loop: 0 });
  });

  it('draws agents called as tools as their own boxes with a dotted edge, beside sub-agents and handoffs', () => {
    const { boxes, edges } = layoutStructure('assistant', { subAgents: ['billing'], agentTools: ['researcher'], handoffs: ['support'] });
    expect(boxes.map((b) => [b.id, b.sub])).toEqual([
      ['root', undefined],
      ['agent:billing', undefined],
      ['tool:researcher', 'agent tool'],
      ['agent:support', 'handoff'],
    ]);
    expect(edges).toEqual([
      { from: 'root', to: 'agent:billing', kind: 'sub' },
      { from: 'root', to: 'tool:researcher', kind: 'tool' },
      { from: 'root', to: 'agent:support', kind: 'handoff' },
    ]);
  });
});

describe('record labels and traces', () => {
  it('says how long ago, and cuts long inputs to their first words', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(relativeTime('2026-01-10T11:59:50Z', now)).toBe('just now');
    expect(relativeTime('2026-01-10T11:55:00Z', now)).toBe('5 min ago');
    expect(relativeTime('2026-01-10T09:00:00Z', now)).toBe('3 h ago');
    expect(relativeTime('2026-01-09T12:00:00Z', now)).toBe('1 day ago');
    expect(firstWords('  please   research\ncorvids  ')).toBe('please research corvids');
    expect(firstWords('x'.repeat(100), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(firstWords('   ')).toBeUndefined();
  });

  it('hides the spans under a collapsed one, and formats costs', () => {
    const span = (id: string, parentId?: string) => ({ id, parentId }) as TraceSpan;
    const spans = [span('a'), span('b', 'a'), span('c', 'b'), span('d', 'a')];
    expect(visibleSpans(spans, new Set(['b'])).map((s) => s.id)).toEqual(['a', 'b', 'd']);
    expect(visibleSpans(spans, new Set(['a'])).map((s) => s.id)).toEqual(['a']);
    expect([formatCost(undefined), formatCost(0), formatCost(0.00001), formatCost(0.01234), formatCost(2.5)]).toEqual([
      undefined,
      '$0',
      '<$0.0001',
      '$0.0123',
      '$2.50',
    ]);
  });
});
