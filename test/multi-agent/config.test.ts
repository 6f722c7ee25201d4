import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { Agent, CassetteError, type Runnable } from '../../src/index.js';
import { ConfigError, formatConfigIssue, loadRuntime, printConfig, validateConfigText } from '../../src/runtime/index.js';
import { ScriptedModel, type ScriptedTurn } from '../../src/testing/index.js';
import { lines, tempDir } from '../config/temp-dir.js';
import { recorder } from './helpers.js';

/** Validates text as `corvid.yaml` and returns every issue as `file:line:col  path: message`. */
function problems(text: string): string[] {
  const r = validateConfigText(text, { file: 'corvid.yaml', allowUnknownTools: true });
  expect(r.ok).toBe(false);
  return r.issues.map(formatConfigIssue);
}

const TEAM = lines(
  'defaults:',
  '  model: "openai:gpt-4.1-mini"',
  '  agent: desk',
  'agents:',
  '  desk:',
  '    instructions: You route customers. Use transfer_to_billing for invoices.',
  '    sub_agents: [billing]',
  '  billing:',
  '    description: Invoices and refunds',
  '    instructions: You handle billing; transfer_to_desk when done.',
  '    sub_agents: [desk]',
  '  researcher:',
  '    description: Finds facts',
  '    output_key: notes',
  '  writer:',
  '    instructions: "Write from: {state.notes}"',
  '  critic:',
  '    instructions: "Review {output.writer?}"',
  '    tools: [exit_loop]',
  '  article:',
  '    type: sequential',
  '    sub_agents: [researcher, writer]',
  '  reviews:',
  '    type: parallel',
  '    sub_agents: [researcher, critic]',
  '    fail_fast: false',
  '    max_concurrency: 2',
  '  refine:',
  '    type: loop',
  '    sub_agents: [writer, critic]',
  '    max_iterations: 3',
  '  report:',
  '    type: orchestrator',
  '    max_parallel: 2',
  '    tasks:',
  '      facts: { agent: researcher }',
  '      draft: { agent: writer, depends_on: [facts] }',
  '      review: { agent: critic, depends_on: [draft], input: "Check: {output.draft}" }',
  '  chain:',
  '    type: pipeline',
  '    stages:',
  '      - researcher',
  '      - { agent: writer, input: "Turn into prose: {previous}" }',
  '  triage:',
  '    type: router',
  '    routes:',
  '      - { agent: billing, keywords: [invoice, refund], priority: 5 }',
  '      - { agent: researcher, patterns: ["^why\\\\b"] }',
  '    default_route: desk',
  '    classifier: { instructions: Pick well. }',
  '  boss:',
  '    agent_tools: [researcher, { agent: critic, persistent: true }]',
  '    limits: { max_total_steps: 15, max_depth: 4 }',
);

/**
 * The team's model calls, recorded: the researcher answers "Facts.", the writer "Prose.", the critic
 * "Weak.", "Review 2", `exit_loop`, then "Done." in the loop and "Fine." as a task; desk and billing
 * hand off to each other. Each recording holds its request (prompt, tools), so a prompt the YAML
 * builds differently (a template, a task's input) is a replay miss naming the field that changed.
 */
const CASSETTE = join(import.meta.dirname, '..', 'fixtures', 'cassettes', 'multi-agent-config.cassette.json');

/** The runtime of TEAM; `replay`: its models answered by the cassette alone (a call it lacks throws). */
async function team(options: { replay?: boolean } = {}) {
  const cwd = tempDir({ 'corvid.yaml': TEAM });
  const cassette = options.replay ? { path: CASSETTE, mode: 'replay' as const } : undefined;
  return loadRuntime({ cwd, env: { OPENAI_API_KEY: 'sk-test' }, dotenv: false, cassette });
}

/** Gives an LLM agent of the runtime a scripted model. */
function script(runtime: Awaited<ReturnType<typeof team>>, name: string, turns: ScriptedTurn[] | (() => ScriptedTurn)): ScriptedModel {
  const model = new ScriptedModel(turns);
  runtime.agent(name).setModel(model);
  return model;
}

describe('multi-agent config', () => {
  it('validates and normalises every agent type', () => {
    const r = validateConfigText(TEAM, { file: 'corvid.yaml' });
    expect(r.issues.map(formatConfigIssue)).toEqual([]);
    const agents = r.config!.agents;
    expect(agents.desk).toEqual({ name: 'desk', instructions: expect.any(String), tools: [], agentTools: [], subAgents: ['billing'] });
    expect(agents.reviews).toMatchObject({ type: 'parallel', subAgents: ['researcher', 'critic'], failFast: false, maxConcurrency: 2 });
    expect(agents.report.tasks).toEqual([
      { id: 'facts', agent: 'researcher', dependsOn: [] },
      { id: 'draft', agent: 'writer', dependsOn: ['facts'] },
      { id: 'review', agent: 'critic', input: 'Check: {output.draft}', dependsOn: ['draft'] },
    ]);
    expect(agents.chain.stages).toEqual([
      { name: 'researcher', agent: 'researcher' },
      { name: 'writer', agent: 'writer', input: 'Turn into prose: {previous}' },
    ]);
    expect(agents.triage).toMatchObject({
      type: 'router',
      defaultRoute: 'desk',
      routes: [
        { name: 'billing', agent: 'billing', keywords: ['invoice', 'refund'], priority: 5 },
        { name: 'researcher', patterns: ['^why\\b'] },
      ],
    });
    expect(agents.boss).toMatchObject({
      agentTools: ['researcher', 'critic'],
      persistentAgentTools: ['critic'],
      limits: { maxTotalSteps: 15, maxDepth: 4 },
    });
    // printConfig round-trips the new keys.
    const again = validateConfigText(printConfig(r.config!), { file: 'printed.yaml' });
    expect(again.issues.map(formatConfigIssue)).toEqual([]);
    expect(again.config!.agents).toEqual(agents);
  });

  it('builds every type with loadRuntime', async () => {
    const runtime = await team();
    const kinds = Object.fromEntries([...runtime.agents].map(([n, a]) => [n, a.kind]));
    expect(kinds).toEqual({
      desk: 'llm',
      billing: 'llm',
      researcher: 'llm',
      writer: 'llm',
      critic: 'llm',
      article: 'sequential',
      reviews: 'parallel',
      refine: 'loop',
      report: 'orchestrator',
      chain: 'pipeline',
      triage: 'router',
      boss: 'llm',
    });
    expect(runtime.agent('desk').handoffs).toEqual([runtime.agent('billing')]);
    expect(runtime.agent('billing').handoffs).toEqual([runtime.agent('desk')]);
    expect(runtime.agent('critic').tools.map((t) => t.name)).toEqual(['exit_loop']);
    expect(runtime.agent('boss').options.limits).toEqual({ maxTotalSteps: 15, maxDepth: 4 });
    const article = runtime.agent<Runnable>('article');
    expect(article.subAgents).toEqual([runtime.agent('researcher'), runtime.agent('writer')]);
    expect(article).not.toBeInstanceOf(Agent);
  });

  it('runs handoffs from YAML, with the active agent kept by the conversation', async () => {
    const runtime = await team({ replay: true });
    const chat = runtime.agent<Runnable>().conversation();
    expect((await chat.run('invoice?')).text).toBe('Here is your invoice.');
    expect(chat.activeAgent).toBe('billing');
    expect((await chat.run('something else')).text).toBe('Desk again.');
    expect(chat.activeAgent).toBe('desk');
  });

  it('runs sequential, parallel and loop agents from YAML', async () => {
    const runtime = await team({ replay: true });
    // The writer's recorded call has the system prompt "Write from: Facts." (state.notes).
    expect((await runtime.agent<Runnable>('article').run('crows')).text).toBe('Prose.');
    const reviews = await runtime.agent<Runnable>('reviews').run('crows');
    expect(reviews.text).toBe('## researcher\nFacts.\n\n## critic\nWeak.');
    const refine = await runtime.agent<Runnable>('refine').run('crows', { state: { notes: 'n' } });
    expect(refine.workflow).toMatchObject({ iterations: 2, exitReason: 'exit_loop' });
  });

  it('runs orchestrator, pipeline and router agents from YAML', async () => {
    const runtime = await team({ replay: true });
    const report = await runtime.agent<Runnable>('report').run('crows');
    expect(report.text).toBe('Fine.');
    expect(report.subRuns!.map((s) => s.id)).toEqual(['facts', 'draft', 'review']);
    // Recorded inputs: the draft task gets "crows" and the facts, the review "Check: Prose.", the chain's writer "Turn into prose: Facts.".
    expect((await runtime.agent<Runnable>('chain').run('crows')).text).toBe('Prose.');
    const rec = recorder();
    const routed = await runtime.agent<Runnable>('triage').run('Why are crows black?', { onEvent: rec.onEvent });
    expect(routed.workflow?.route).toBe('researcher');
    expect(rec.of('route')[0]).toMatchObject({ matchedBy: 'pattern' });
    expect(routed.text).toBe('Facts.');
  });

  it('fails loudly when a call is not on the cassette, naming what differs', async () => {
    const runtime = await team({ replay: true });
    const err = await runtime
      .agent<Runnable>('article')
      .run('ravens')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CassetteError);
    expect(err).toMatchObject({ code: 'cassette_miss' });
    expect((err as Error).message).toContain('recorded "crows" → now "ravens"');
  });

  it('gives the router classifier the default model', async () => {
    const runtime = await team();
    const triage = runtime.agent<Runnable>('triage') as unknown as { classifier: Agent };
    expect(triage.classifier.options.model).toEqual({ provider: 'openai', model: 'gpt-4.1-mini', apiKey: 'sk-test' });
  });

  it('runs persistent agent tools and limits from YAML', async () => {
    const runtime = await team();
    const critic = script(runtime, 'critic', [{ text: 'one' }, { text: 'two' }]);
    script(runtime, 'boss', [
      { toolCalls: [{ toolName: 'ask_critic', input: { message: 'a' } }] },
      { toolCalls: [{ toolName: 'ask_critic', input: { message: 'b' } }] },
      { text: 'ok' },
    ]);
    await runtime.agent('boss').run('go', { state: { notes: 'x' } });
    expect(critic.calls[1].prompt.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    script(runtime, 'boss', () => ({ toolCalls: [{ toolName: 'ask_researcher', input: { message: 'more' } }] }));
    script(runtime, 'researcher', () => ({ text: 'facts' }));
    await expect(runtime.agent('boss').run('loop forever')).rejects.toMatchObject({ limit: 'max_total_steps', value: 15 });
  });
});

describe('multi-agent config validation', () => {
  it('reports keys that do not belong to the type, and types missing their parts, with lines', () => {
    expect(
      problems(
        lines(
          'agents:',
          '  a: {}',
          '  seq:',
          '    type: sequential',
          '    tools: [x]',
          '    max_steps: 3',
          '  par:',
          '    type: parallel',
          '  loop:',
          '    type: loop',
          '    sub_agents: []',
          '  orch:',
          '    type: orchestrator',
          '    sub_agents: [a]',
          '  plain:',
          '    fail_fast: true',
          '  r:',
          '    type: router',
          '    routes: [a]',
          '    routs: []',
        ),
      ),
    ).toEqual([
      'corvid.yaml:3:3  agents.seq: a sequential agent needs sub_agents: the agents it runs in order',
      'corvid.yaml:5:5  agents.seq.tools: "tools" does not apply to a sequential agent (it is for llm agents); sequential agents take: description, output_key, limits, visibility, a2a, sub_agents',
      'corvid.yaml:6:5  agents.seq.max_steps: "max_steps" does not apply to a sequential agent (it is for llm agents); sequential agents take: description, output_key, limits, visibility, a2a, sub_agents',
      'corvid.yaml:7:3  agents.par: a parallel agent needs sub_agents: the agents it runs at the same time',
      'corvid.yaml:11:5  agents.loop.sub_agents: a loop agent needs sub_agents: the agents it runs in each iteration',
      'corvid.yaml:12:3  agents.orch: an orchestrator agent needs tasks: the tasks it runs, with depends_on between them',
      'corvid.yaml:14:5  agents.orch.sub_agents: "sub_agents" does not apply to an orchestrator agent (it is for llm, sequential, parallel and loop agents); orchestrator agents take: description, output_key, limits, visibility, a2a, tasks, max_parallel, fail_fast',
      'corvid.yaml:16:5  agents.plain.fail_fast: "fail_fast" does not apply to an llm agent (it is for parallel and orchestrator agents); set type: to make this a workflow agent',
      'corvid.yaml:20:5  agents.r.routs: unknown key "routs" (did you mean "routes"?)',
    ]);
  });

  it('reports unknown agents, unknown dependencies and cycles with the path', () => {
    expect(
      problems(
        lines(
          'agents:',
          '  a: { sub_agents: [ghost] }',
          '  seq: { type: sequential, sub_agents: [a, par] }',
          '  par: { type: parallel, sub_agents: [seq] }',
          '  plan:',
          '    type: orchestrator',
          '    tasks:',
          '      one: { agent: a, depends_on: [three] }',
          '      two: { agent: a, depends_on: [one, reserch] }',
          '      three: { agent: nobody, depends_on: [two] }',
          '  p: { type: pipeline, stages: [a, { agent: zed }] }',
          '  r: { type: router, routes: [{ agent: a, patterns: ["(unclosed"] }], default_route: nowhere }',
        ),
      ),
    ).toEqual([
      'corvid.yaml:2:21  agents.a.sub_agents[0]: unknown agent "ghost"; agents: "a", "seq", "par", "plan", "p", "r"',
      'corvid.yaml:4:39  agents.par.sub_agents[0]: agent cycle: seq → par → seq (an agent cannot contain or call itself, directly or through others)',
      'corvid.yaml:9:37  agents.plan.tasks.two.depends_on[0]: task dependency cycle: one → two → three → one',
      'corvid.yaml:9:42  agents.plan.tasks.two.depends_on[1]: task "two" depends on unknown task "reserch"; tasks: "one", "two", "three"',
      'corvid.yaml:10:23  agents.plan.tasks.three.agent: unknown agent "nobody"; agents: "a", "seq", "par", "plan", "p", "r"',
      'corvid.yaml:11:45  agents.p.stages[1].agent: unknown agent "zed"; agents: "a", "seq", "par", "plan", "p", "r"',
      'corvid.yaml:12:54  agents.r.routes[0].patterns[0]: invalid regular expression: Invalid regular expression: /(unclosed/i: Unterminated group',
      'corvid.yaml:12:86  agents.r.default_route: default_route "nowhere" is neither a route ("a") nor an agent',
    ]);
  });

  it('reports a transfer to an agent that is not a sub-agent, and unknown outputs in templates', () => {
    expect(
      problems(
        lines(
          'agents:',
          '  desk:',
          '    sub_agents: [billing]',
          '    instructions: Use transfer_to_billing or transfer_to_refunds or transfer_to_nobody.',
          '    tool_choice: { tool: transfer_to_refunds }',
          '  billing:',
          '    instructions: "Use {output.desk} and {output.ghost?}"',
          '  refunds: {}',
          '  loop:',
          '    type: loop',
          '    sub_agents: [billing]',
          '    until: { state: done, matches: "x" }',
        ),
      ),
    ).toEqual([
      'corvid.yaml:4:19  agents.desk.instructions: the instructions mention transfer_to_refunds, but "refunds" is not a sub-agent of "desk"; add it to sub_agents (sub_agents: "billing")',
      'corvid.yaml:4:19  agents.desk.instructions: the instructions mention transfer_to_nobody, but there is no agent "nobody" (sub_agents: "billing")',
      'corvid.yaml:5:26  agents.desk.tool_choice.tool: tool_choice names "transfer_to_refunds", which agent "desk" does not have; its tools: "transfer_to_billing"',
      'corvid.yaml:7:19  agents.billing.instructions: {output.ghost?} in the instructions of "billing" names no agent, task or stage; agents: "desk", "billing", "refunds", "loop"',
      'corvid.yaml:12:36  agents.loop.until.matches: matches goes with output:',
    ]);
  });

  it('fails loadRuntime with every problem, with file and line', async () => {
    const cwd = tempDir({ 'corvid.yaml': lines('agents:', '  seq:', '    type: sequential', '    sub_agents: [missing]') });
    const err = await loadRuntime({ cwd, env: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.issues).toEqual([
      { file: 'corvid.yaml', line: 4, column: 18, path: 'agents.seq.sub_agents[0]', message: 'unknown agent "missing"; agents: "seq"' },
    ]);
  });
});
