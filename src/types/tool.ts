import type { JSONSchema7 } from '@ai-sdk/provider';

import type { EventSink } from './events.js';
import type { Message } from './message.js';
import type { RunState } from './run-state.js';
import type { Store } from './storage/store.js';

/**
 * Anything with a Standard Schema validator (zod 3.24+/4, valibot, arktype…). Zod schemas are
 * also converted to JSON Schema for the model; other libraries need `jsonSchema` alongside.
 */
export interface StandardSchemaLike<T = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) =>
      | { readonly value: T; readonly issues?: undefined }
      | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> }
      | Promise<unknown>;
  };
}

/** What a tool receives besides its arguments. */
export interface ToolContext {
  /** Aborted when the run is cancelled or the tool's timeout passes. */
  signal: AbortSignal;
  /** Name of the agent calling the tool. */
  agent: string;
  /** Agent path from the top-level run. */
  path: readonly string[];
  /** The run the call belongs to (events carry it too). */
  runId: string;
  /** The model's id for this call. */
  toolCallId: string;
  /**
   * `<run id>:<toolCallId>`: the same every time this call is executed — in a durable run also
   * when a resumed run executes a call again whose result had not been stored before the process
   * died (the durable run's id, also for tools of a handoff target). Tools with side effects use
   * it to do them once: e.g. as the idempotency key of a payment API, or a unique key in a table.
   */
  idempotencyKey: string;
  /** The conversation so far (read-only view). */
  messages: readonly Message[];
  /**
   * Forwards events into the run's stream (set when the run has an event sink: `stream()` or
   * `onEvent`): agent tools forward their nested runs, MCP tools `mcp_notification`s, knowledge
   * search tools a `retrieval`. Use the context's `runId`, `agent` and `path` for the event's base fields.
   */
  emit?: EventSink;
  /**
   * The run's shared state: session / user / app scopes and earlier agents' outputs. Values a
   * tool sets are seen by templated instructions and loop conditions of later agents, and kept
   * by the conversation across turns.
   */
  state: RunState;
  /** Id of the session the run belongs to, when the run was started with `session`. */
  sessionId?: string;
  /** User the session belongs to, when known. */
  userId?: string;
  /** The durable store of the run, when it has one (session runs, durable runs, approvals). */
  store?: Store;
}

/**
 * Whether a call needs a human's approval before it runs: `true`, a prompt text shown to the
 * approver (`{field}` placeholders are filled from the input), or a function of the input
 * returning either. `false` / `undefined` = no approval.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a default that accepts every tool's input type (`unknown` would reject them)
export type RequireApproval<Input = any> = boolean | string | ((input: Input) => boolean | string);

/** A tool the model can call. Create one with `tool()`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a default that accepts every tool's input type (`unknown` would reject them)
export interface Tool<Input = any, Output = unknown> {
  readonly kind: 'tool';
  /** Name the model sees; letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  readonly description: string;
  /** Validates and types the arguments (zod or any Standard Schema). */
  readonly schema?: StandardSchemaLike<Input>;
  /** JSON Schema sent to the model; derived once from a zod `schema` when absent. */
  readonly jsonSchema?: JSONSchema7;
  /** Per-call time limit in milliseconds. */
  readonly timeoutMs?: number;
  /** Pauses the run for a human's approval before each call (see `RequireApproval`). */
  readonly requireApproval?: RequireApproval<Input>;
  /**
   * Describes what a call would do (a diff for an edit, the command to run), shown to the
   * approver under the approval prompt. Optional; a failure only leaves the preview out.
   */
  readonly preview?: (input: Input) => string | undefined | Promise<string | undefined>;
  execute(input: Input, context: ToolContext): Output | Promise<Output>;
}
