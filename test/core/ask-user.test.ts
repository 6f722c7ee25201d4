import { describe, expect, it } from 'vitest';

import { Agent, type AgentEvent, askUser, askUserTool } from '../../src/index.js';
import { loadRuntime } from '../../src/runtime/index.js';
import { mcpServedParts } from '../../src/runtime/mcp-served-parts.js';
import { openStore } from '../../src/storage/index.js';
import { ScriptedModel } from '../../src/testing/index.js';
import { ASK_USER_RESULT } from '../../src/tools/ask-user.js';
import { lines, tempDir } from '../config/temp-dir.js';

// ask_user ends the run's turn after the step that called it: the question is the answer
// (`RunResult.needsInput`, `run_end.needsInput`), the conversation holds the call and its result,
// and the user's answer is the next turn's message.

const ask = (question: string, text = '') => ({ ...(text ? { text } : {}), toolCalls: [{ toolName: 'ask_user', input: { question } }] });

describe('ask_user', () => {
  it('ends the turn with the question; the next turn carries the answer', async () => {
    const model = new ScriptedModel([ask('Which city?', 'I need one detail.'), { text: 'Booked Paris.' }]);
    const agent = new Agent({ name: 'booker', model, tools: [askUserTool()] });
    const conversation = agent.conversation();
    const events: AgentEvent[] = [];
    const first = await conversation.run('Book a flight', { onEvent: (e) => events.push(e) });
    expect(first.status).toBe('completed');
    expect(first.text).toBe('Which city?');
    expect(first.needsInput).toEqual({ question: 'Which city?', toolCallId: expect.any(String) });
    expect(first.steps).toHaveLength(1);
    expect(model.calls).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(['run_start', 'step_start', 'tool_call', 'tool_result', 'step_end', 'answer', 'run_end']);
    expect(events.find((e) => e.type === 'answer')).toMatchObject({ text: 'Which city?' });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', status: 'completed', needsInput: { question: 'Which city?' } });
    expect(first.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);

    const second = await conversation.run('Paris');
    expect(second.text).toBe('Booked Paris.');
    expect(second.needsInput).toBeUndefined();
    const prompt = model.calls[1].prompt;
    expect(prompt.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(JSON.stringify(prompt[2].content)).toContain(ASK_USER_RESULT);
    expect(JSON.stringify(prompt[3].content)).toContain('Paris');
  });

  it('streams the same way, and two questions in one step are asked together', async () => {
    const model = new ScriptedModel([
      {
        toolCalls: [
          { toolName: 'ask_user', input: { question: 'From where?' } },
          { toolName: 'ask_user', input: { question: ' To where? ' } },
        ],
      },
    ]);
    const stream = new Agent({ name: 'a', model, tools: [askUser] }).stream('Book');
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    const result = await stream.result;
    expect(result.text).toBe('From where?\n\nTo where?');
    expect(types.at(-2)).toBe('answer');
  });

  it('sends an empty question back to the model as an error, and the turn goes on (a renamed tool)', async () => {
    const model = new ScriptedModel([{ toolCalls: [{ toolName: 'ask_human', input: { question: '  ' } }] }, { text: 'Fine.' }]);
    const result = await new Agent({ name: 'a', model, tools: [askUserTool({ name: 'ask_human', description: 'Ask the human.' })] }).run(
      'x',
    );
    expect(result.text).toBe('Fine.');
    expect(result.needsInput).toBeUndefined();
    expect(result.steps[0].toolResults[0]).toMatchObject({ toolName: 'ask_human', isError: true });
    expect(model.calls[0].tools?.map((t) => ('description' in t ? t.description : ''))).toEqual(['Ask the human.']);
  });

  it('in a session run: the run completes, and the session holds the exchange', async () => {
    const store = await openStore({ driver: 'memory' });
    try {
      const model = new ScriptedModel([ask('Which date?'), { text: 'Booked for Monday.' }]);
      const agent = new Agent({ name: 'booker', model, tools: [askUser], store });
      const first = await agent.run('Book it', { session: 's1' });
      expect(first).toMatchObject({ status: 'completed', text: 'Which date?', needsInput: { question: 'Which date?' } });
      expect((await store.checkpoints.listRuns({ sessionId: 's1' })).map((r) => r.status)).toEqual(['completed']);
      const second = await agent.run('Monday', { session: 's1' });
      expect(second.text).toBe('Booked for Monday.');
      expect((await store.sessions.messages('s1')).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user', 'assistant']);
    } finally {
      await store.close();
    }
  });

  it('is a built-in tool of config agents (tools: [ask_user]), not served over MCP', async () => {
    const cwd = tempDir({
      'corvid.yaml': lines('agents:', '  booker:', '    model: "ollama:llama3.2"', '    tools: [ask_user, get_memories]'),
    });
    const runtime = await loadRuntime({ cwd, env: {}, dotenv: false });
    try {
      const agent = runtime.agent<Agent>('booker');
      agent.setModel(new ScriptedModel([ask('Where to?')]));
      const result = await agent.run('Book a flight');
      expect(result.needsInput?.question).toBe('Where to?');
      const served = await mcpServedParts(runtime, { baseDir: cwd });
      expect(served.tools.map((t) => t.name)).toEqual(['get_memories']);
    } finally {
      await runtime.close();
    }
  });
});
