import { type Message, Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cliEnv, type CliProcess, fakeModel, spawnCli, tempDir, writeConfig } from '../cli/cli-harness.js';
import { type FakeLlmServer, startFakeLlmServer } from '../support/fake-llm-server.js';

// End to end: two `corvid serve` processes on one SQLite file. A streaming message goes to A,
// whose model streams its answer slowly; the official SDK client resubscribes to the task on B,
// which does not run it, and receives the answer's later chunks and the completed state.

async function started(p: CliProcess): Promise<string> {
  const text = await p.waitFor(/listening on (http\S+)/, { stream: 'stderr', timeoutMs: 20_000 });
  return /listening on (http\S+)/.exec(text)![1];
}

function userMessage(text: string): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const textOf = (parts: { content?: { $case: string; value?: unknown } }[] | undefined) =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? String(p.content.value) : '')).join('');

let release!: () => void;
const held = new Promise<void>((resolve) => (release = resolve));

describe('A2A resubscription across two corvid serve processes', () => {
  let llm: FakeLlmServer;
  const tmp = tempDir('corvid-a2a-two-');
  const children: CliProcess[] = [];

  beforeAll(async () => {
    // The answer comes in three pieces; the last one waits until the test lets it go.
    llm = await startFakeLlmServer(() => ({
      text: 'one two three four five six seven eight nine ten',
      holdBefore: { contains: 'n eight', until: held },
    }));
    writeConfig(
      tmp.dir,
      `models:\n${fakeModel(llm.url)}defaults:\n  model: fake\nstorage:\n  driver: sqlite\n  path: ./data/corvid.db\nagents:\n  teller:\n    description: Tells slowly.\n    instructions: Count.\n`,
    );
  });
  afterAll(async () => {
    release();
    for (const c of children) c.child.kill('SIGKILL');
    await llm.close();
    tmp.cleanup();
  });

  it('streams the task running on A to a subscriber on B until it completes', async () => {
    const env = cliEnv(tmp.dir);
    const [a, b] = [spawnCli(['serve', '--port', '0'], { cwd: tmp.dir, env }), spawnCli(['serve', '--port', '0'], { cwd: tmp.dir, env })];
    children.push(a, b);
    const [urlA, urlB] = await Promise.all([started(a), started(b)]);
    const client = (url: string): Promise<Client> =>
      new ClientFactory({
        transports: [new JsonRpcTransportFactory(), new RestTransportFactory()],
        preferredTransports: ['JSONRPC'],
      }).createFromUrl(`${url}/agents/teller/.well-known/agent-card.json`, '');
    const sending = (await client(urlA)).sendMessageStream({
      tenant: '',
      message: userMessage('count'),
      configuration: undefined,
      metadata: undefined,
    });
    const onA: StreamResponse[] = [];
    // Wait for A to have streamed a piece of the answer: the task is under way there, held before its last piece.
    while (!onA.some((e) => e.payload?.$case === 'artifactUpdate')) onA.push((await sending.next()).value!);
    const taskId = onA[0].payload?.$case === 'task' ? onA[0].payload.value.id : '';
    expect(taskId).not.toBe('');

    const resub = (await client(urlB)).resubscribeTask({ tenant: '', id: taskId });
    const onB: StreamResponse[] = [(await resub.next()).value!];
    release();
    for await (const e of resub) onB.push(e);
    const first = onB[0].payload?.$case === 'task' ? onB[0].payload.value : undefined;
    expect(first?.id).toBe(taskId);
    expect(first?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    const seenAtFirst = textOf(first?.artifacts[0]?.parts);
    expect(seenAtFirst.length).toBeLessThan('one two three four five six seven eight nine ten'.length);
    // Later chunks arrived on B as they were streamed on A, then the whole answer and completed.
    const chunks = onB.flatMap((e) =>
      e.payload?.$case === 'artifactUpdate' && e.payload.value.append ? [textOf(e.payload.value.artifact?.parts)] : [],
    );
    // The last piece was held until B had subscribed: it can only have come as a later update.
    expect(chunks.join('')).toMatch(/n eight nine ten$/);
    expect(seenAtFirst + chunks.join('')).toBe('one two three four five six seven eight nine ten');
    const last = onB.at(-1)!;
    expect(last.payload?.$case === 'statusUpdate' && last.payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    for await (const e of sending) onA.push(e);
    expect(onA.at(-1)?.payload?.$case === 'statusUpdate' && onA.at(-1)?.payload?.value).toMatchObject({
      status: { state: TaskState.TASK_STATE_COMPLETED },
    });
  }, 60_000);
});
