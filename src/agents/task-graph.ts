/** A problem in a task graph, located by task index (and dependency index). */
export interface TaskGraphIssue {
  task: number;
  /** Index in the task's `dependsOn`, when the problem is one dependency. */
  dependency?: number;
  message: string;
}

/**
 * Checks a task graph before anything runs: duplicate ids, dependencies on unknown tasks (with
 * the known ids), a task depending on itself or twice on one task, and cycles (each reported once,
 * with its path: `task dependency cycle: a → b → c → a`).
 */
export function checkTaskGraph(tasks: ReadonlyArray<{ id: string; dependsOn?: readonly string[] }>): TaskGraphIssue[] {
  const issues: TaskGraphIssue[] = [];
  const index = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (index.has(t.id)) issues.push({ task: i, message: `duplicate task id "${t.id}"` });
    else index.set(t.id, i);
  });
  const ids = [...index.keys()].map((id) => `"${id}"`).join(', ');
  const edges = new Map<number, Array<{ to: number; dep: number }>>();
  tasks.forEach((t, i) => {
    const out: Array<{ to: number; dep: number }> = [];
    const seen = new Set<string>();
    (t.dependsOn ?? []).forEach((d, j) => {
      if (d === t.id) issues.push({ task: i, dependency: j, message: `task "${t.id}" cannot depend on itself` });
      else if (!index.has(d))
        issues.push({ task: i, dependency: j, message: `task "${t.id}" depends on unknown task "${d}"; tasks: ${ids}` });
      else if (seen.has(d)) issues.push({ task: i, dependency: j, message: `task "${t.id}" lists "${d}" twice in depends_on` });
      else out.push({ to: index.get(d)!, dep: j });
      seen.add(d);
    });
    edges.set(i, out);
  });
  const state = new Map<number, 'active' | 'done'>();
  const stack: number[] = [];
  const visit = (n: number): void => {
    state.set(n, 'active');
    stack.push(n);
    for (const { to, dep } of edges.get(n) ?? []) {
      const s = state.get(to);
      if (s === 'active') {
        const cycle = [...stack.slice(stack.indexOf(to)), to].map((k) => tasks[k].id);
        // Written in execution order: a task runs after what it depends on.
        issues.push({ task: n, dependency: dep, message: `task dependency cycle: ${cycle.reverse().join(' → ')}` });
      } else if (s === undefined) visit(to);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (let i = 0; i < tasks.length; i++) if (!state.has(i)) visit(i);
  return issues;
}
