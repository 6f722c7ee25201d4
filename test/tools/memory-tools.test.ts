import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Agent, createMemoryTools, memoryTools, type Message } from '../../src/index.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { openStore, type Store } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { lines, tempDir } from '../config/temp-dir.js';
import {
  announceSkip,
  type Location,
  memoryTarget,
  mysqlTarget,
  postgresTarget,
  sqliteTarget,
  type StoreTarget,
} from '../storage/support/targets.js';

/** The tool results the model was shown in its last call, parsed (JSON results) or as text. */
function toolResults(model: ScriptedModel, call = model.calls.length - 1): Array<{ toolName: string; type: string; value: unknown }> {
  const prompt = model.calls[call]!.prompt;
  return prompt.flatMap((m) =>
    m.role === 'tool'
      ? m.content.flatMap((p) =>
          p.type === 'tool-result' ? [{ toolName: p.toolName, type: p.output.type, value: (p.output as { value: unknown }).value }] : [],
        )
      : [],
  );
}

for (const target of [sqliteTarget, memoryTarget, postgresTarget, mysqlTarget] as StoreTarget[]) {
  announceSkip(target);
  describe.skipIf(Boolean(target.skip))(`memory tools in agent runs: ${target.name}`, () => {
    let location: Location;
    let store: Store;
    beforeAll(async () => {
      location = await target.createLocation();
      store = await openStore(location.options);
    });
    afterAll(async () => {
      await store?.close();
      await location?.drop();
    });

    it('saves memories in one run and finds them in a later run (get, filter, search)', async () => {
      const first = new ScriptedModel([
        {
          toolCalls: [
            {
              toolName: 'save_memory',
              input: {
                key: 'units',
                value: 'The user prefers metric units',
                category: 'preference',
                tags: ['units', 'format'],
                importance: 8,
              },
            },
            { toolName: 'save_memory', input: { key: 'pet', value: 'The user has a cat called Miso', category: 'fact', tags: ['pets'] } },
          ],
        },
        { text: 'Noted.' },
      ]);
      const agent = new Agent({ name: 'helper', model: first, tools: memoryTools });
      expect((await agent.run('I use metric units and my cat is Miso.', { store })).text).toBe('Noted.');
      const saved = toolResults(first);
      expect(saved.map((r) => r.type)).toEqual(['json', 'json']);
      expect(saved[0]!.value).toMatchObject({
        status: 'created',
        memory: { key: 'units', value: 'The user prefers metric units', category: 'preference', tags: ['units', 'format'], importance: 8 },
      });
      expect(saved[1]!.value).toMatchObject({ status: 'created', memory: { key: 'pet', importance: 5, tags: ['pets'] } });

      const second = new ScriptedModel([
        {
          toolCalls: [
            { toolName: 'get_memories', input: { category: 'preference' } },
            { toolName: 'get_memories', input: { min_importance: 6 } },
            { toolName: 'get_memories', input: { tags: ['units', 'pets'], tag_mode: 'all' } },
            { toolName: 'search_memories', input: { query: 'cat name' } },
          ],
        },
        { text: 'Your cat is Miso.' },
      ]);
      const later = new Agent({ name: 'helper', model: second, tools: memoryTools });
      expect((await later.run('What is my cat called?', { store })).text).toBe('Your cat is Miso.');
      const [byCategory, byImportance, allTags, search] = toolResults(second).map((r) => r.value) as Array<Record<string, unknown>>;
      expect(byCategory).toMatchObject({ count: 1, memories: [{ key: 'units' }] });
      expect(byImportance).toMatchObject({ count: 1, memories: [{ key: 'units' }] });
      expect(allTags).toEqual({ count: 0, memories: [] });
      expect(search).toMatchObject({ count: 1, results: [{ key: 'pet', value: 'The user has a cat called Miso' }] });
    });

    it('updates a memory saved again under its key, keeping created_at', async () => {
      const model = new ScriptedModel([
        { toolCalls: [{ toolName: 'save_memory', input: { key: 'city', value: 'The user lives in Lyon' } }] },
        { toolCalls: [{ toolName: 'save_memory', input: { key: 'city', value: 'The user moved to Nantes', importance: 9 } }] },
        { text: 'ok' },
      ]);
      await new Agent({ name: 'movers', model, tools: memoryTools }).run('I moved.', { store });
      const [first] = toolResults(model, 1).map((r) => r.value as { status: string; memory: { created_at: string } });
      const [, second] = toolResults(model, 2).map((r) => r.value as { status: string; memory: { created_at: string; value: string } });
      expect(first!.status).toBe('created');
      expect(second).toMatchObject({
        status: 'updated',
        memory: { value: 'The user moved to Nantes', created_at: first!.memory.created_at },
      });
      expect((await store.memories.list({ userId: 'default', agent: 'movers' })).map((m) => m.value)).toEqual(['The user moved to Nantes']);
    });

    it('keeps memories per agent: another agent does not see them', async () => {
      const model = new ScriptedModel([{ toolCalls: [{ toolName: 'search_memories', input: { query: 'cat' } }] }, { text: 'nothing' }]);
      await new Agent({ name: 'stranger', model, tools: memoryTools }).run('cat?', { store });
      expect(toolResults(model)[0]!.value).toEqual({ count: 0, results: [] });
    });

    it('rejects bad arguments with a message the model can act on', async () => {
      const model = new ScriptedModel([
        {
          toolCalls: [
            { toolName: 'save_memory', input: { key: 'x', value: 'y', importance: 11 } },
            { toolName: 'search_memories', input: { query: '' } },
          ],
        },
        { text: 'sorry' },
      ]);
      await new Agent({ name: 'helper', model, tools: memoryTools }).run('save', { store });
      const [bad, empty] = toolResults(model);
      expect(bad).toMatchObject({ type: 'error-text' });
      expect(String(bad!.value)).toMatch(/Invalid arguments for tool "save_memory".*importance/s);
      expect(String(empty!.value)).toMatch(/Invalid arguments for tool "search_memories".*query/s);
    });

    it('searches past conversations of the store by keyword', async () => {
      const s1 = await store.sessions.create({ agent: 'helper', userId: 'alice' });
      const s2 = await store.sessions.create({ agent: 'helper', userId: 'bob' });
      const say = (text: string, role: 'user' | 'assistant' = 'user'): { message: Message } => ({
        message: { role, content: [{ type: 'text', text }] } as Message,
      });
      await store.sessions.appendMany(s1.id, [
        say('When is the rocket launch?'),
        { ...say('The rocket launch is on March 3.', 'assistant'), agent: 'helper' },
      ]);
      await store.sessions.appendMany(s2.id, [say('Bob asks about the rocket launch too')]);
      const model = new ScriptedModel([
        { toolCalls: [{ toolName: 'search_conversations', input: { query: 'rocket launch', limit: 5 } }] },
        { text: 'March 3.' },
      ]);
      await new Agent({ name: 'helper', model, tools: memoryTools }).run('When was the launch again?', { store });
      const found = toolResults(model)[0]!.value as {
        count: number;
        results: Array<{ session_id: string; snippet: string; role?: string }>;
      };
      expect(found.count).toBe(3);
      expect(found.results.map((r) => r.session_id).sort()).toEqual([s1.id, s1.id, s2.id].sort());
      expect(found.results.some((r) => r.role === 'assistant' && r.snippet.includes('March 3'))).toBe(true);
    });
  });
}

describe('memory tools without a store', () => {
  it('return a clear error result to the model instead of failing the run', async () => {
    const model = new ScriptedModel([
      { toolCalls: [{ toolName: 'save_memory', input: { key: 'k', value: 'v' } }] },
      { text: 'I could not save it.' },
    ]);
    const result = await new Agent({ name: 'helper', model, tools: memoryTools }).run('remember k');
    expect(result.text).toBe('I could not save it.');
    const [r] = toolResults(model);
    expect(r!.type).toBe('error-text');
    expect(String(r!.value)).toMatch(/memory tools need storage: save_memory has no store in this run/);
  });

  it('use their own store (createMemoryTools) when the run has none, opened on first use', async () => {
    let opened = 0;
    const own = await openStore({ driver: 'memory' });
    const tools = createMemoryTools({ store: async () => (opened++, own) });
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'save_memory', input: { key: 'k', value: 'v' } }] }, { text: 'saved' }]);
    const agent = new Agent({ name: 'helper', model, tools: Object.values(tools) });
    expect(opened).toBe(0);
    await agent.run('remember');
    expect(opened).toBe(1);
    expect((await own.memories.get({ userId: 'default', agent: 'helper' }, 'k'))?.value).toBe('v');
    await own.close();
  });
});

describe('memory tools in corvid.yaml', () => {
  it('are built-ins agents list by name; they use the runtime store (storage:)', async () => {
    const cwd = tempDir({
      'corvid.yaml': lines(
        'storage: { path: data/memories.db }',
        'agents:',
        '  helper:',
        '    model: "openai:gpt-4.1-mini"',
        '    tools: [save_memory, get_memories, search_memories, search_conversations]',
      ),
    });
    const runtime = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false });
    const agent = runtime.agent('helper');
    expect(agent.tools.map((t) => t.name)).toEqual(['save_memory', 'get_memories', 'search_memories', 'search_conversations']);
    agent.setModel(
      new ScriptedModel([
        { toolCalls: [{ toolName: 'save_memory', input: { key: 'tz', value: 'The user is in UTC+2', tags: ['time'] } }] },
        { text: 'Saved.' },
      ]),
    );
    expect((await agent.run('I am in UTC+2')).text).toBe('Saved.');
    await runtime.close();

    const again = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false });
    const store = await again.store();
    expect(store.info.location).toBe(`${cwd}/data/memories.db`);
    expect((await store.memories.get({ userId: 'default', agent: 'helper' }, 'tz'))?.tags).toEqual(['time']);
    await again.close();
  });

  it('do not load or open anything for agents that do not use them', async () => {
    const cwd = tempDir({ 'corvid.yaml': lines('agents:', '  plain: { model: "openai:gpt-4.1-mini" }') });
    const runtime = await loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false });
    expect(runtime.agent('plain').tools).toEqual([]);
    await runtime.close();
  });
});

describe('memory tools in session runs', () => {
  it("scope memories and conversation search to the session's user", async () => {
    const store = await openStore({ driver: 'sqlite', path: `${tempDir()}/corvid.db` });
    const alice = new ScriptedModel([
      { toolCalls: [{ toolName: 'save_memory', input: { key: 'color', value: 'Favourite colour is teal' } }] },
      { text: 'I will remember teal.' },
    ]);
    await new Agent({ name: 'helper', model: alice, tools: memoryTools }).run('My favourite colour is teal', {
      session: { id: 'alice-1', userId: 'alice' },
      store,
    });
    expect((await store.memories.get({ userId: 'alice', agent: 'helper' }, 'color'))?.value).toBe('Favourite colour is teal');

    const bob = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'search_memories', input: { query: 'colour' } },
          { toolName: 'search_conversations', input: { query: 'teal' } },
        ],
      },
      { text: 'I do not know your colour.' },
    ]);
    await new Agent({ name: 'helper', model: bob, tools: memoryTools }).run('What is my favourite colour?', {
      session: { id: 'bob-1', userId: 'bob' },
      store,
    });
    expect(toolResults(bob).map((r) => r.value)).toEqual([
      { count: 0, results: [] },
      { count: 0, mode: 'keyword', results: [] },
    ]);

    const aliceAgain = new ScriptedModel([
      { toolCalls: [{ toolName: 'search_conversations', input: { query: 'teal' } }] },
      { text: 'Teal.' },
    ]);
    await new Agent({ name: 'helper', model: aliceAgain, tools: memoryTools }).run('What colour did I say?', {
      session: { id: 'alice-2', userId: 'alice' },
      store,
    });
    const hits = toolResults(aliceAgain)[0]!.value as { results: Array<{ session_id: string; this_session: boolean }> };
    expect(hits.results.map((h) => h.session_id)).toContain('alice-1');
    expect(hits.results.find((h) => h.session_id === 'alice-1')?.this_session).toBe(false);
    await store.close();
  });
});

describe('memory tool definitions', () => {
  it('describe their arguments to the model as JSON Schema', () => {
    const model = new ScriptedModel([{ text: 'hi' }]);
    return new Agent({ name: 'helper', model, tools: memoryTools }).run('hi').then(() => {
      const tools = (model.calls[0]!.tools ?? []) as unknown as Array<{
        name: string;
        description?: string;
        inputSchema: Record<string, unknown>;
      }>;
      expect(tools.map((t) => t.name)).toEqual(['save_memory', 'get_memories', 'search_memories', 'search_conversations']);
      const save = tools[0]!;
      expect(save.description).toMatch(/^Save a long-term memory/);
      expect(save.inputSchema).toMatchObject({
        type: 'object',
        required: ['key', 'value'],
        additionalProperties: false,
        properties: { importance: { type: 'integer', minimum: 1, maximum: 10 }, tags: { type: 'array', items: { type: 'string' } } },
      });
      expect(tools[1]!.inputSchema).toMatchObject({ properties: { tag_mode: { enum: ['any', 'all'] } } });
      expect(tools[2]!.inputSchema).toMatchObject({ required: ['query'] });
    });
  });

  it('trim strings, drop unknown arguments, and name every bad one', async () => {
    const store = await openStore({ driver: 'memory' });
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'save_memory', input: { key: '  lang ', value: ' French ', tags: [' fr '], mood: 'happy' } },
          { toolName: 'get_memories', input: { tag_mode: 'some', limit: 0, tags: 'fr' } },
        ],
      },
      { text: 'ok' },
    ]);
    await new Agent({ name: 'helper', model, tools: memoryTools }).run('x', { store });
    const [saved, bad] = toolResults(model);
    expect(saved!.value).toMatchObject({ status: 'created', memory: { key: 'lang', value: 'French', tags: ['fr'] } });
    expect(saved!.value).not.toHaveProperty('memory.mood');
    expect(bad!.value).toBe(
      'Invalid arguments for tool "get_memories": tags: expected an array of strings, got string; tag_mode: must be one of "any", "all" (got "some"); limit: must be a whole number from 1 to 100 (got 0)',
    );
    await store.close();
  });
});
