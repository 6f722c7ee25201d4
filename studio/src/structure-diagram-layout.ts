/** Layout of a multi-agent structure diagram: boxes and edges in SVG units (see structure-diagram.tsx). */
import type { AgentStructure } from './api-types.js';

export const BOX_W = 150;
export const BOX_H = 34;
const GAP_X = 60;
const GAP_Y = 14;

export interface Box {
  id: string;
  label: string;
  sub?: string;
  x: number;
  y: number;
}

/** How an edge is drawn: `sub` solid (a sub-agent, a task), `handoff` dashed, `tool` dotted (an agent called as a tool). */
export type EdgeKind = 'sub' | 'handoff' | 'tool';

export interface Edge {
  from: string;
  to: string;
  kind: EdgeKind;
}

/** Layers of a task DAG: each task one layer right of its deepest dependency (cycles and unknown names are cut). */
export function taskLayers(tasks: ReadonlyArray<{ name: string; dependsOn: readonly string[] }>): Map<string, number> {
  const byName = new Map(tasks.map((t) => [t.name, t]));
  const layers = new Map<string, number>();
  const visit = (name: string, seen: Set<string>): number => {
    const known = layers.get(name);
    if (known !== undefined) return known;
    if (seen.has(name)) return 0;
    seen.add(name);
    const deps = byName.get(name)?.dependsOn.filter((d) => d !== name && byName.has(d)) ?? [];
    const layer = deps.length === 0 ? 0 : Math.max(...deps.map((d) => visit(d, seen))) + 1;
    layers.set(name, layer);
    return layer;
  };
  for (const task of tasks) visit(task.name, new Set());
  return layers;
}

/** Boxes and edges of the structure of agent `root`. */
export function layoutStructure(root: string, structure: AgentStructure): { boxes: Box[]; edges: Edge[] } {
  const boxes: Box[] = [];
  const edges: Edge[] = [];
  const column: Array<{ name: string; kind: EdgeKind }> = [
    ...(structure.subAgents ?? []).map((name) => ({ name, kind: 'sub' as const })),
    ...(structure.agentTools ?? []).map((name) => ({ name, kind: 'tool' as const })),
    ...(structure.handoffs ?? []).map((name) => ({ name, kind: 'handoff' as const })),
  ];
  const tasks = structure.tasks ?? [];
  const layers = taskLayers(tasks);
  const perLayer: number[] = [];
  for (const task of tasks) {
    const layer = layers.get(task.name) ?? 0;
    const row = (perLayer[layer] = (perLayer[layer] ?? 0) + 1) - 1;
    boxes.push({
      id: `task:${task.name}`,
      label: task.name,
      sub: task.agent,
      x: (layer + 1) * (BOX_W + GAP_X),
      y: row * (BOX_H + GAP_Y + 12),
    });
    const deps = task.dependsOn.filter((d) => d !== task.name && layers.has(d));
    if (deps.length === 0) edges.push({ from: 'root', to: `task:${task.name}`, kind: 'sub' });
    for (const dep of deps) edges.push({ from: `task:${dep}`, to: `task:${task.name}`, kind: 'sub' });
  }
  column.forEach((item, i) => {
    boxes.push({
      id: `${item.kind === 'tool' ? 'tool' : 'agent'}:${item.name}`,
      label: item.name,
      sub: item.kind === 'handoff' ? 'handoff' : item.kind === 'tool' ? 'agent tool' : undefined,
      x: BOX_W + GAP_X,
      y: (tasks.length > 0 ? Math.max(...perLayer) : 0) * (BOX_H + GAP_Y + 12) + i * (BOX_H + GAP_Y + 12),
    });
    edges.push({ from: 'root', to: `${item.kind === 'tool' ? 'tool' : 'agent'}:${item.name}`, kind: item.kind });
  });
  const height = Math.max(BOX_H, ...boxes.map((b) => b.y + BOX_H));
  boxes.unshift({ id: 'root', label: root, x: 0, y: Math.max(0, height / 2 - BOX_H / 2) });
  return { boxes, edges };
}
