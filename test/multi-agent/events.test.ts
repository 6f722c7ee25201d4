import { describe, expect, it } from 'vitest';

import { colorsFor } from '../../src/cli/colors.js';
import { EventRenderer } from '../../src/cli/event-renderer.js';
import { AGENT_EVENT_TYPES, type AgentEvent, assertNever, Orchestrator, Router } from '../../src/index.js';
import { answering, scripted } from './helpers.js';

/** Exhaustive over the union: adding an event type without handling it here fails to compile. */
function describeEvent(e: AgentEvent): string {
  switch (e.type) {
    case 'run_start':
    case 'step_start':
    case 'text_delta':
    case 'reasoning_delta':
    case 'tool_call':
    case 'tool_result':
    case 'step_end':
    case 'retry':
    case 'warning':
    case 'context_compacted':
    case 'mcp_notification':
    case 'retrieval':
    case 'approval_required':
    case 'guardrail':
    case 'answer':
    case 'error':
    case 'run_end':
      return e.type;
    case 'handoff':
      return `${e.from}→${e.to}`;
    case 'task_start':
      return `start ${e.workflow}:${e.task}`;
    case 'task_end':
      return `end ${e.task}:${e.status}`;
    case 'route':
      return `route ${e.route}`;
    default:
      return assertNever(e);
  }
}

function render(events: AgentEvent[]): string {
  let out = '';
  const r = new EventRenderer({ out: { write: (t: string) => (out += t) }, colors: colorsFor({ isTTY: false }) });
  for (const e of events) r.render(e);
  r.endLine();
  return out;
}

describe('multi-agent events', () => {
  it('are part of the documented union', () => {
    expect(AGENT_EVENT_TYPES).toEqual(expect.arrayContaining(['handoff', 'task_start', 'task_end', 'route']));
    expect(describeEvent({ type: 'handoff', runId: 'r', agent: 'a', path: ['a'], from: 'a', to: 'b', toolCallId: 'c' })).toBe('a→b');
  });

  it('are printed by the CLI renderer with their agent path', async () => {
    const events: AgentEvent[] = [];
    const bad = scripted('bad', [{ error: new Error('no data') }]);
    const o = new Orchestrator({
      name: 'plan',
      failFast: false,
      tasks: [
        { id: 'facts', agent: answering('researcher', 'Facts.').agent },
        { id: 'fetch', agent: bad.agent },
        { id: 'parse', agent: answering('parser', 'x').agent, dependsOn: ['fetch'] },
        { id: 'draft', agent: answering('writer', 'Draft.').agent, dependsOn: ['facts'] },
      ],
    });
    const s = o.stream('go', { onEvent: (e) => events.push(e) });
    for await (const _ of s) void _;
    const text = render(events);
    expect(text).toContain('▶ facts → researcher\n');
    expect(text).toContain('▶ draft → writer (after facts)\n');
    expect(text).toMatch(/\n✓ facts \(\d+ ms\)\n/);
    expect(text).toMatch(/\n✗ fetch .*no data/);
    expect(text).toContain('\n– parse skipped\n');
    expect(text).toContain('  plan > writer Draft.\n');
    // The answer was streamed by the last part: it is not printed twice.
    expect(text.match(/Draft\./g)).toHaveLength(1);

    const routed: AgentEvent[] = [];
    const router = new Router({ name: 'desk', routes: [{ agent: answering('billing', 'Paid.').agent, keywords: ['invoice'] }] });
    await router.run('invoice please', { onEvent: (e) => routed.push(e) });
    expect(render(routed)).toContain('↦ route billing (keyword) → billing');

    const handoff = render([
      { type: 'handoff', runId: 'r', agent: 'triage', path: ['triage'], from: 'triage', to: 'billing', toolCallId: 'c' },
    ]);
    expect(handoff).toBe('⇢ triage hands over to billing\n');
  });
});
