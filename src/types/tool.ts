import type { JSONSchema7 } from '@ai-sdk/provider';
import type { Message } from './message.js';
import type { EventSink } from './events.js';
import type { RunState } from '../core/run-state.js';

/**
 * Anything with a Standard Schema validator (zod 3.24+/4, valibot, arktype…). Zod schemas are
 * also converted to JSON Schema for the model; other libraries need `jsonSchema` alongside.
 */
export interface StandardSchemaLike<T = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) =>
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
  runId: string;
  toolCallId: string;
  /** The conversation so far (read-only view). */
  messages: readonly Message[];
  /** Forwards events into the caller's stream; used by agent tools for nested runs. */
  emit?: EventSink;
  /**
   * The run's shared state: session / user / app scopes and earlier agents' outputs. Values a
   * tool sets are seen by templated instructions and loop conditions of later agents, and kept
   * by the conversation across turns.
   */
  state: RunState;
}

/** A tool the model can call. Create one with `tool()`. */
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
  execute(input: Input, context: ToolContext): Output | Promise<Output>;
}
