import { describe, expect, it } from 'vitest';
import { Role, TaskState, type Message, type Part, type Task } from '@a2a-js/sdk';
import { legacyAnswerJson } from '../../src/a2a/compat/legacy-answer-json.js';
import { legacyResult } from '../../src/a2a/compat/legacy-send.js';

// What a v0.3 client receives for a blocking message/send must not change with the direct
// writer: every shape below is held to JSON.stringify of the converted answer, byte for byte.
const oracle = (id: string | number | null, result: Message | Task) => JSON.stringify({ jsonrpc: '2.0', id, result: legacyResult(result) });

const text = (value: string, metadata?: Record<string, unknown>): Part => ({ content: { $case: 'text', value }, metadata, filename: '', mediaType: 'text/plain' });
const message = (over: Partial<Message> = {}): Message => ({ messageId: 'm-1', contextId: 'ctx-1', taskId: 'task-1', role: Role.ROLE_USER, parts: [text('hello')], metadata: undefined, extensions: [], referenceTaskIds: [], ...over });

function finished(over: Partial<Task> = {}, answer = 'ok'): Task {
  const said = message({ messageId: 'm-2', role: Role.ROLE_AGENT, parts: [text(answer)] });
  return {
    id: 'task-1',
    contextId: 'ctx-1',
    status: { state: TaskState.TASK_STATE_COMPLETED, message: said, timestamp: '2026-11-26T14:00:00.000Z' },
    history: [message(), said],
    artifacts: [{ artifactId: 'task-1-answer', name: 'answer', description: '', parts: [text(answer)], metadata: undefined, extensions: [] }],
    metadata: undefined,
    ...over,
  };
}

const awkward = ['say "hi"', 'back\\slash', 'line\nbreak\ttab', '\u0001control', 'émoji 🎉 and 中文', 'lone \ud800 surrogate', '\u2028separator', ''];

describe('legacyAnswerJson', () => {
  it('writes a finished task exactly as JSON.stringify of the converted answer', () => {
    for (const id of [1, 0, 123456789, 'req-1', 'quote"id', null] as const) expect(legacyAnswerJson(id, finished())).toBe(oracle(id, finished()));
  });

  it('escapes every awkward text, id and name as JSON.stringify does', () => {
    for (const s of awkward) {
      const task = finished({ id: `t${s}`, contextId: `c${s}` }, s);
      task.history[0] = message({ messageId: s, parts: [text(s), text(`${s}!`, { note: s })] });
      task.artifacts[0] = { ...task.artifacts[0], artifactId: s, name: s, description: s };
      expect(legacyAnswerJson(7, task), JSON.stringify(s)).toBe(oracle(7, task));
    }
  });

  it('covers every state, and tasks without status, message, timestamp, history or artifacts', () => {
    for (const state of Object.values(TaskState).filter((v) => typeof v === 'number') as TaskState[]) {
      const task = finished();
      task.status = { state, message: undefined, timestamp: '' };
      expect(legacyAnswerJson(1, task)).toBe(oracle(1, task));
    }
    const bare: Task = { id: 'task-2', contextId: 'ctx-2', status: undefined, history: [], artifacts: [], metadata: undefined };
    expect(legacyAnswerJson(2, bare)).toBe(oracle(2, bare));
    const unknownState = finished({ status: { state: 99 as TaskState, message: undefined, timestamp: '2026-11-26T14:00:00.000Z' } });
    expect(legacyAnswerJson(3, unknownState)).toBe(oracle(3, unknownState));
  });

  it('keeps metadata, extensions, reference task ids, and non-text parts', () => {
    const parts: Part[] = [
      text('a', { lang: 'en' }),
      { content: { $case: 'url', value: 'https://example.com/a.pdf' }, metadata: undefined, filename: 'a.pdf', mediaType: 'application/pdf' },
      { content: { $case: 'raw', value: Buffer.from([1, 2, 3]) }, metadata: { k: 1 }, filename: '', mediaType: '' },
      { content: { $case: 'data', value: { answer: 42, nested: { list: [1, 'two', null] } } }, metadata: undefined, filename: '', mediaType: '' },
      { content: { $case: 'data', value: [1, 2] as unknown as Record<string, unknown> }, metadata: undefined, filename: '', mediaType: '' },
    ];
    const task = finished({ metadata: { corvid: { type: 'tool_call', toolName: 'x' }, empty: {} } });
    task.history[0] = message({ parts, metadata: { source: 'test' }, extensions: ['https://ext/1'], referenceTaskIds: ['task-0'] });
    task.artifacts.push({ artifactId: 'extra', name: '', description: 'more', parts, metadata: { a: [1] }, extensions: ['https://ext/2'] });
    expect(legacyAnswerJson('x', task)).toBe(oracle('x', task));
  });

  it('writes a message answer as JSON.stringify does', () => {
    for (const m of [message(), message({ role: Role.ROLE_AGENT, contextId: '', taskId: '', metadata: { a: 1 } }), message({ parts: [] })]) {
      expect(legacyAnswerJson(5, m)).toBe(oracle(5, m));
    }
  });

  it('writes a status message that is not in the history, and a history entry equal but not identical to it', () => {
    const task = finished();
    task.history = [message(), { ...task.status!.message! }];
    expect(legacyAnswerJson(1, task)).toBe(oracle(1, task));
    task.history = [message()];
    expect(legacyAnswerJson(1, task)).toBe(oracle(1, task));
  });
});
