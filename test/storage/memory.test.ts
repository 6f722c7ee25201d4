import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/storage/index.js';
import { expectCode } from './conformance/expect-error.js';
import { storeConformance } from './store-conformance.js';
import { memoryTarget } from './support/targets.js';

storeConformance(memoryTarget);

describe('memory store', () => {
  it('reports itself and refuses use after close', async () => {
    const store = await openStore({ driver: 'memory' });
    expect(store.info).toEqual({ driver: 'memory', location: 'memory:', schemaVersion: 1 });
    await store.close();
    await store.close();
    await expectCode(store.sessions.create({ agent: 'a' }), 'storage_error', 'closed');
  });

  it('keeps no reference to caller objects', async () => {
    const store = await openStore({ url: 'memory:' });
    const { id } = await store.sessions.create({ agent: 'a' });
    const message = { role: 'user' as const, content: [{ type: 'text' as const, text: 'original' }] };
    await store.sessions.append(id, { message });
    message.content[0].text = 'mutated';
    const [loaded] = await store.sessions.messages(id);
    expect(loaded).toEqual({ role: 'user', content: [{ type: 'text', text: 'original' }] });
    await store.close();
  });
});
