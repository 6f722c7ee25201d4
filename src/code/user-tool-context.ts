import { RunState } from '../types/run-state.js';
import type { ToolContext } from '../types/tool.js';

/** The context of a tool call the user made (`!command`, `@path`), not the model. */
export function userToolContext(agent: string, kind: string): ToolContext {
  const stamp = Date.now().toString(36);
  return {
    signal: new AbortController().signal,
    agent,
    path: [agent],
    runId: `${kind}_${stamp}`,
    toolCallId: 'user',
    idempotencyKey: `user:${kind}:${stamp}`,
    messages: [],
    state: new RunState(),
  };
}
