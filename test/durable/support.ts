/** Shared helpers of the durable-run tests: store targets and small tools. */
import type { Message } from '../../src/index.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { type Location, memoryTarget, mysqlTarget, postgresTarget, sqliteTarget, type StoreTarget } from '../storage/support/targets.js';

export const TARGETS: StoreTarget[] = [memoryTarget, sqliteTarget, postgresTarget, mysqlTarget];

for (const t of TARGETS) if (t.skip) console.log(`[durable] ${t.name} suites skipped: ${t.skip}`);

/**
 * A fresh location of `target` and a way to open stores on it. The memory target has one store
 * (a second "open" returns it again); the others open a new connection each time.
 */
export async function storeAt(target: StoreTarget): Promise<{ open(): Promise<Store>; close(): Promise<void>; location: Location }> {
  const location = await target.createLocation();
  const opened: Store[] = [];
  let shared: Store | undefined;
  return {
    location,
    async open() {
      if (target.driver === 'memory') return (shared ??= await openStore(location.options));
      const s = await openStore(location.options);
      opened.push(s);
      return s;
    },
    async close() {
      await Promise.all([...opened, ...(shared ? [shared] : [])].map((s) => s.close()));
      await location.drop();
    },
  };
}

/** The text of every message of a prompt, one line each, for assertions on what the model saw. */
export function promptText(prompt: Message[]): string[] {
  return prompt.map((m) => {
    if (m.role === 'system') return `system: ${m.content}`;
    return `${m.role}: ${m.content
      .map((c) => {
        if (c.type === 'text') return c.text;
        if (c.type === 'tool-call') return `call ${c.toolName}(${JSON.stringify(c.input)})`;
        if (c.type === 'tool-result') return `result ${c.toolName} ${JSON.stringify(c.output)}`;
        return c.type;
      })
      .join(' ')}`;
  });
}
