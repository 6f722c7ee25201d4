import type { StreamResponse, Task } from '@a2a-js/sdk';

/**
 * `task` with one change of a task stream applied, as the SDK's result manager applies it to
 * the stored task: a `task` replaces it; a status update sets the status (its message joins the
 * history) and merges its metadata; an artifact update adds, replaces or (`append`) extends
 * its artifact. `task` is not changed.
 */
export function foldTaskUpdate(task: Task | undefined, change: StreamResponse): Task | undefined {
  const payload = change.payload;
  if (payload === undefined) return task;
  switch (payload.$case) {
    case 'task':
      return structuredClone(payload.value);
    case 'statusUpdate': {
      if (task === undefined) return task;
      const update = payload.value;
      const message = update.status?.message;
      const known = message === undefined || task.history.some((m) => m.messageId === message.messageId);
      return {
        ...task,
        status: update.status,
        history: known ? task.history : [...task.history, message],
        metadata: update.metadata ? { ...task.metadata, ...update.metadata } : task.metadata,
      };
    }
    case 'artifactUpdate': {
      const artifact = payload.value.artifact;
      if (task === undefined || artifact === undefined) return task;
      const at = task.artifacts.findIndex((a) => a.artifactId === artifact.artifactId);
      const artifacts = [...task.artifacts];
      if (at === -1) artifacts.push(artifact);
      else if (!payload.value.append) artifacts[at] = artifact;
      else {
        const old = artifacts[at];
        artifacts[at] = {
          ...old,
          name: artifact.name || old.name,
          description: artifact.description || old.description,
          parts: [...old.parts, ...artifact.parts],
          metadata: artifact.metadata ? { ...old.metadata, ...artifact.metadata } : old.metadata,
        };
      }
      const metadata = payload.value.metadata ? { ...task.metadata, ...payload.value.metadata } : task.metadata;
      return { ...task, artifacts, metadata };
    }
    case 'message':
      return task;
    default:
      return assertNever(payload);
  }
}

function assertNever(value: never): never {
  throw new Error(`Unknown task stream change: ${JSON.stringify(value)}`);
}
