import type { Message as A2AMessage, Task, TaskArtifactUpdateEvent, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';

/**
 * Where the changes of a task run go (`CorvidAgentExecutor.run` writes to it): on a server, the
 * SDK's event bus (`BusSink`), which the SDK's result manager folds into the stored task.
 */
export interface TaskSink {
  /** The task as the run starts: a new one (`submitted`), or a stored one it continues. */
  start(task: Task): void;
  /** A new status (`message` is also added to the history; `metadata` merged into the task's). */
  status(state: TaskState, message?: A2AMessage, metadata?: Record<string, unknown>): void;
  /** An artifact, or a chunk of one (`append`). */
  artifact(update: TaskArtifactUpdateEvent): void;
  /** The run is over; `waiting`: the task waits for the caller's reply (input required). */
  end(waiting: boolean): void;
}

/** A `TaskSink` publishing each change on the task's SDK event bus. */
export class BusSink implements TaskSink {
  constructor(
    private readonly bus: ExecutionEventBus,
    private readonly taskId: string,
    private readonly contextId: string,
  ) {}

  start(task: Task): void {
    this.bus.publish(AgentEvent.task(task));
  }

  status(state: TaskState, message?: A2AMessage, metadata?: Record<string, unknown>): void {
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.taskId,
        contextId: this.contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata,
      }),
    );
  }

  artifact(update: TaskArtifactUpdateEvent): void {
    this.bus.publish(AgentEvent.artifactUpdate(update));
  }

  end(waiting: boolean): void {
    // A task waiting for input keeps its event bus for the reply.
    if (!waiting) this.bus.finished();
  }
}
