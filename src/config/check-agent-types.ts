import { outputReferences } from '../core/template.js';
import { AGENT_TYPE_KEYS, AGENT_TYPES, type AgentTypeName } from './config-file-schema.js';
import type { ConfigPath, RawIssue } from './parse-config-source.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const list = (names: Iterable<string>): string => [...names].map((n) => `"${n}"`).join(', ') || '(none)';

/** A reference from one agent to another that nests a run (cycles among these are errors). */
export interface AgentEdge {
  target: string;
  path: ConfigPath;
  kind: 'agent_tools' | 'sub_agents' | 'tasks' | 'stages' | 'routes';
}

/** The agent type of a config entry (`llm` when absent), or undefined when `type` is invalid. */
export function agentTypeOf(a: Obj): AgentTypeName | undefined {
  if (a.type === undefined) return 'llm';
  return typeof a.type === 'string' && (AGENT_TYPES as readonly string[]).includes(a.type) ? (a.type as AgentTypeName) : undefined;
}

/** The `transfer_to_<name>` tool name of a handoff. */
export function transferName(agent: string): string {
  return `transfer_to_${agent.replace(/[^a-zA-Z0-9_-]/g, '_')}`.slice(0, 64);
}

const NEEDS: Partial<Record<AgentTypeName, { key: string; what: string }>> = {
  sequential: { key: 'sub_agents', what: 'the agents it runs in order' },
  parallel: { key: 'sub_agents', what: 'the agents it runs at the same time' },
  loop: { key: 'sub_agents', what: 'the agents it runs in each iteration' },
  orchestrator: { key: 'tasks', what: 'the tasks it runs, with depends_on between them' },
  pipeline: { key: 'stages', what: 'the agents whose results it chains' },
  router: { key: 'routes', what: 'the agents it routes requests to' },
  remote: { key: 'url', what: 'the A2A agent-card URL, server base URL or JSON-RPC endpoint of the agent' },
};

/** `a sequential`, `an orchestrator`. */
const an = (type: string): string => `${/^([aeiou]|llm)/.test(type) ? 'an' : 'a'} ${type}`;

/** Which types take a key, for "does not apply" messages. */
function typesTaking(key: string): string {
  const types = AGENT_TYPES.filter((t) => AGENT_TYPE_KEYS[t].includes(key));
  return types.length === 1 ? `${types[0]} agents` : `${types.slice(0, -1).join(', ')} and ${types.at(-1)} agents`;
}

function compiles(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'i');
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * Checks what the multi-agent keys refer to: keys that do not belong to an agent's type, workflow
 * agents missing their sub-agents / tasks / stages / routes, unknown agents, handoffs (a transfer
 * to an agent that is not a sub-agent), orchestrator task graphs (unknown dependencies, cycles
 * with their path), routes and patterns, loop conditions, and `{output.x}` in templates. Returns
 * the nesting edges for the cycle check.
 */
export function checkAgentTypes(agents: Obj, errors: RawIssue[]): Map<string, AgentEdge[]> {
  const edges = new Map<string, AgentEdge[]>();
  const names = Object.keys(agents);
  const known = (n: unknown): n is string => typeof n === 'string' && has(agents, n);
  const unknownAgent = (n: string) => `unknown agent "${n}"; agents: ${list(names)}`;

  // Everything `{output.x}` may name: agents, task ids and stage names.
  const outputs = new Set(names);
  for (const a of Object.values(agents)) {
    if (!isObj(a)) continue;
    if (isObj(a.tasks)) for (const id of Object.keys(a.tasks)) outputs.add(id);
    if (Array.isArray(a.stages))
      for (const s of a.stages) outputs.add(typeof s === 'string' ? s : isObj(s) ? String(s.name ?? s.agent) : '');
  }
  const checkOutputs = (text: unknown, path: ConfigPath, owner: string): void => {
    if (typeof text !== 'string') return;
    for (const ref of outputReferences(text)) {
      if (!outputs.has(ref.name)) {
        errors.push({
          path,
          message: `{output.${ref.name}${ref.optional ? '?' : ''}} in ${owner} names no agent, task or stage; agents: ${list(names)}`,
        });
      }
    }
  };

  for (const [name, a] of Object.entries(agents)) {
    if (!isObj(a)) continue;
    const base: ConfigPath = ['agents', name];
    const out: AgentEdge[] = [];
    edges.set(name, out);
    const type = agentTypeOf(a);
    if (type === undefined) continue;
    const allowed = AGENT_TYPE_KEYS[type];
    for (const key of Object.keys(a)) {
      if (allowed.includes(key) || !AGENT_TYPES.some((t) => AGENT_TYPE_KEYS[t].includes(key))) continue;
      errors.push({
        path: [...base, key],
        at: 'key',
        message: `"${key}" does not apply to ${an(type)} agent (it is for ${typesTaking(key)})${type === 'llm' && a.type === undefined ? '; set type: to make this a workflow agent' : `; ${type} agents take: ${allowed.filter((k) => k !== 'type').join(', ')}`}`,
      });
    }
    const need = NEEDS[type];
    if (need) {
      const v = a[need.key];
      const empty = v === undefined || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);
      if (empty)
        errors.push({
          path: v === undefined ? base : [...base, need.key],
          at: 'key',
          message: `${an(type)} agent needs ${need.key}: ${need.what}`,
        });
    }
    checkOutputs(a.instructions, [...base, 'instructions'], `the instructions of "${name}"`);

    // sub_agents: handoff targets of llm agents, the parts of sequential / parallel / loop agents.
    const subs: string[] = [];
    if (Array.isArray(a.sub_agents) && allowed.includes('sub_agents')) {
      const seen = new Set<string>();
      a.sub_agents.forEach((target, i) => {
        if (typeof target !== 'string') return;
        const path = [...base, 'sub_agents', i];
        if (target === name)
          errors.push({
            path,
            message: type === 'llm' ? `agent "${name}" cannot hand over to itself` : `${an(type)} agent cannot contain itself`,
          });
        else if (!known(target)) errors.push({ path, message: unknownAgent(target) });
        else if (seen.has(target) && (type === 'llm' || type === 'parallel'))
          errors.push({ path, message: `"${target}" is listed twice in sub_agents` });
        else {
          subs.push(target);
          if (type !== 'llm') out.push({ target, path, kind: 'sub_agents' });
        }
        seen.add(target);
      });
    }
    if (type === 'llm') {
      // A transfer the instructions ask for must be to a sub-agent.
      const transfers = new Map(subs.map((s) => [transferName(s), s]));
      if (typeof a.instructions === 'string') {
        for (const m of a.instructions.matchAll(/\btransfer_to_([A-Za-z0-9_-]+)/g)) {
          if (transfers.has(m[0])) continue;
          const target = m[1];
          errors.push({
            path: [...base, 'instructions'],
            message: `the instructions mention ${m[0]}, but ${known(target) ? `"${target}" is not a sub-agent of "${name}"; add it to sub_agents` : `there is no agent "${target}"`} (sub_agents: ${list(subs)})`,
          });
        }
      }
    }

    if (type === 'orchestrator' && isObj(a.tasks)) checkTasks(name, a.tasks, base, known, unknownAgent, out, errors, checkOutputs);
    if (type === 'pipeline' && Array.isArray(a.stages)) {
      const stageNames = new Map<string, number>();
      a.stages.forEach((s, i) => {
        const agent = typeof s === 'string' ? s : isObj(s) ? s.agent : undefined;
        if (typeof agent !== 'string') return;
        const path = typeof s === 'string' ? [...base, 'stages', i] : [...base, 'stages', i, 'agent'];
        if (agent === name) errors.push({ path, message: 'a pipeline cannot contain itself' });
        else if (!known(agent)) errors.push({ path, message: unknownAgent(agent) });
        else out.push({ target: agent, path, kind: 'stages' });
        const stage = typeof s === 'string' ? s : String((s as Obj).name ?? agent);
        if (stageNames.has(stage))
          errors.push({
            path: [...base, 'stages', i],
            message: `two stages are named "${stage}" (stages[${stageNames.get(stage)}] and stages[${i}]); give them distinct names`,
          });
        stageNames.set(stage, i);
        if (isObj(s)) checkOutputs(s.input, [...base, 'stages', i, 'input'], `the input of stage "${stage}"`);
      });
    }
    if (type === 'router' && Array.isArray(a.routes)) {
      const routeNames = new Set<string>();
      a.routes.forEach((r, i) => {
        const agent = typeof r === 'string' ? r : isObj(r) ? r.agent : undefined;
        if (typeof agent !== 'string') return;
        const path = typeof r === 'string' ? [...base, 'routes', i] : [...base, 'routes', i, 'agent'];
        if (agent === name) errors.push({ path, message: 'a router cannot route to itself' });
        else if (!known(agent)) errors.push({ path, message: unknownAgent(agent) });
        else out.push({ target: agent, path, kind: 'routes' });
        const route = typeof r === 'string' ? r : String((r as Obj).name ?? agent);
        if (routeNames.has(route)) errors.push({ path: [...base, 'routes', i], message: `two routes are named "${route}"` });
        routeNames.add(route);
        if (isObj(r) && Array.isArray(r.patterns)) {
          r.patterns.forEach((p, j) => {
            const problem = typeof p === 'string' ? compiles(p) : undefined;
            if (problem) errors.push({ path: [...base, 'routes', i, 'patterns', j], message: `invalid regular expression: ${problem}` });
          });
        }
      });
      const d = a.default_route;
      if (typeof d === 'string') {
        if (d === name) errors.push({ path: [...base, 'default_route'], message: 'a router cannot route to itself' });
        else if (!routeNames.has(d) && !known(d))
          errors.push({
            path: [...base, 'default_route'],
            message: `default_route "${d}" is neither a route (${list(routeNames)}) nor an agent`,
          });
        else if (!routeNames.has(d)) out.push({ target: d, path: [...base, 'default_route'], kind: 'routes' });
      }
    }
    if (type === 'loop' && isObj(a.until)) {
      const u = a.until;
      const path = [...base, 'until'];
      if ((u.state === undefined) === (u.output === undefined))
        errors.push({
          path,
          message: 'until needs either state: <key> (with an optional equals:) or output: <agent> with matches: <regex>',
        });
      if (u.equals !== undefined && u.state === undefined) errors.push({ path: [...path, 'equals'], message: 'equals goes with state:' });
      if (u.output !== undefined && u.matches === undefined) errors.push({ path, message: 'until.output needs matches: <regex>' });
      if (u.matches !== undefined && u.output === undefined)
        errors.push({ path: [...path, 'matches'], message: 'matches goes with output:' });
      if (typeof u.output === 'string' && !outputs.has(u.output))
        errors.push({ path: [...path, 'output'], message: `until.output names no agent, task or stage: "${u.output}"` });
      if (typeof u.matches === 'string') {
        const problem = compiles(u.matches);
        if (problem) errors.push({ path: [...path, 'matches'], message: `invalid regular expression: ${problem}` });
      }
    }
  }
  return edges;
}

function checkTasks(
  name: string,
  tasks: Obj,
  base: ConfigPath,
  known: (n: unknown) => n is string,
  unknownAgent: (n: string) => string,
  out: AgentEdge[],
  errors: RawIssue[],
  checkOutputs: (text: unknown, path: ConfigPath, owner: string) => void,
): void {
  const ids = Object.keys(tasks);
  const deps = new Map<string, Array<{ id: string; index: number }>>();
  for (const [id, t] of Object.entries(tasks)) {
    if (!isObj(t)) continue;
    const path = [...base, 'tasks', id];
    if (typeof t.agent === 'string') {
      if (t.agent === name) errors.push({ path: [...path, 'agent'], message: 'an orchestrator cannot run itself as a task' });
      else if (!known(t.agent)) errors.push({ path: [...path, 'agent'], message: unknownAgent(t.agent) });
      else out.push({ target: t.agent, path: [...path, 'agent'], kind: 'tasks' });
    }
    checkOutputs(t.input, [...path, 'input'], `the input of task "${id}"`);
    const mine: Array<{ id: string; index: number }> = [];
    const seen = new Set<string>();
    if (Array.isArray(t.depends_on)) {
      t.depends_on.forEach((d, i) => {
        if (typeof d !== 'string') return;
        const at = [...path, 'depends_on', i];
        if (d === id) errors.push({ path: at, message: `task "${id}" cannot depend on itself` });
        else if (!has(tasks, d)) errors.push({ path: at, message: `task "${id}" depends on unknown task "${d}"; tasks: ${list(ids)}` });
        else if (seen.has(d)) errors.push({ path: at, message: `task "${id}" lists "${d}" twice in depends_on` });
        else mine.push({ id: d, index: i });
        seen.add(d);
      });
    }
    deps.set(id, mine);
  }
  // Cycles, each reported once at the dependency that closes it, with the path in execution order.
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'active');
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      const s = state.get(d.id);
      if (s === 'active') {
        const cycle = [...stack.slice(stack.indexOf(d.id)), d.id].reverse();
        errors.push({ path: [...base, 'tasks', id, 'depends_on', d.index], message: `task dependency cycle: ${cycle.join(' → ')}` });
      } else if (s === undefined) visit(d.id);
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of deps.keys()) if (!state.has(id)) visit(id);
}
