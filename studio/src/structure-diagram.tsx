/**
 * A multi-agent structure as an SVG diagram: the agent on the left, its sub-agents and handoff targets in a
 * column to its right (solid arrows for sub-agents, dotted for agents it calls as tools, dashed for handoffs), and DAG tasks in layers by their
 * dependencies, with an arrow from each dependency.
 */
import type { AgentStructure } from './api-types.js';
import { BOX_H, BOX_W, layoutStructure } from './structure-diagram-layout.js';

export function StructureDiagram({ root, structure }: { root: string; structure: AgentStructure }) {
  const { boxes, edges } = layoutStructure(root, structure);
  if (boxes.length === 1) return null;
  const byId = new Map(boxes.map((b) => [b.id, b]));
  const width = Math.max(...boxes.map((b) => b.x + BOX_W)) + 4;
  const height = Math.max(...boxes.map((b) => b.y + BOX_H + 12)) + 4;
  const description = `${root}: ${[
    structure.subAgents?.length ? `sub-agents ${structure.subAgents.join(', ')}` : '',
    structure.agentTools?.length ? `calls as tools ${structure.agentTools.join(', ')}` : '',
    structure.handoffs?.length ? `hands off to ${structure.handoffs.join(', ')}` : '',
    structure.tasks?.length
      ? `tasks ${structure.tasks.map((t) => `${t.name}${t.dependsOn.length ? ` after ${t.dependsOn.join(' and ')}` : ''}`).join('; ')}`
      : '',
  ]
    .filter(Boolean)
    .join('; ')}`;
  return (
    <svg class="diagram" viewBox={`-2 -2 ${width} ${height}`} width={width} height={height} role="img" aria-label={description}>
      <defs>
        <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
          <path d="M 0 0 L 10 5 L 0 10 z" class="diagram-arrow" />
        </marker>
      </defs>
      {edges.map((edge, i) => {
        const a = byId.get(edge.from)!;
        const b = byId.get(edge.to)!;
        const x1 = a.x + BOX_W;
        const y1 = a.y + BOX_H / 2;
        const x2 = b.x;
        const y2 = b.y + BOX_H / 2;
        const mid = (x1 + x2) / 2;
        return (
          <path
            key={i}
            class={`diagram-edge edge-${edge.kind}`}
            data-from={edge.from}
            data-to={edge.to}
            d={`M ${x1} ${y1} C ${mid} ${y1}, ${mid} ${y2}, ${x2} ${y2}`}
            marker-end="url(#arrow)"
          />
        );
      })}
      {boxes.map((box) => (
        <g key={box.id} transform={`translate(${box.x} ${box.y})`}>
          <rect class={`diagram-box${box.id === 'root' ? ' root' : ''}`} width={BOX_W} height={BOX_H} rx="6" />
          <text x={BOX_W / 2} y={BOX_H / 2 + 5} text-anchor="middle" class="diagram-label">
            {box.label.length > 20 ? `${box.label.slice(0, 19)}…` : box.label}
          </text>
          {box.sub ? (
            <text x={BOX_W / 2} y={BOX_H + 11} text-anchor="middle" class="diagram-sub">
              {box.sub}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
