/**
 * Ties the Studio's API types (studio/src/api-types.ts, written by hand for the browser bundle) to the server's zod
 * schemas, from which the OpenAPI document is generated: `npm run typecheck` compiles this file (it is no test file,
 * nothing runs it), so a field added, removed or retyped on one side only fails CI.
 * - `Same<Studio, Server>`: both accept the same values and name the same fields.
 * - `Reads<Studio, Server>`: every answer of the schema fits the Studio's type, which names no field the schema lacks.
 *   For a schema that is loose on purpose (a `looseObject`, `unknown` data) where the Studio types the part it reads.
 */
import type { z } from 'zod';

import type * as api from '../../src/server/api/response-schemas.js';
import type { doneEvent, failedEvent } from '../../src/server/chat/turn-response.js';
import type { TraceSpan as ServerTraceSpan } from '../../src/server/runs/run-trace.js';
import type * as studio from '../../src/server/studio/studio-schemas.js';
import type * as S from '../../studio/src/api-types.js';
import type { StreamDone } from '../../studio/src/chat-stream.js';

type Assignable<A, B> = [A] extends [B] ? true : false;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Same<A, B> = Assignable<A, B> extends true ? (Assignable<B, A> extends true ? SameKeys<A, B> : false) : false;
type Reads<A, B> = Assignable<B, A> extends true ? Assignable<keyof A, keyof B> : false;
/** Compiles only for `true`. */
const check = <T extends true>(): T | undefined => undefined;

type Out<T extends z.ZodType> = z.output<T>;
type Item<T> = T extends readonly (infer U)[] ? U : never;

type AgentInfo = Out<typeof api.agentInfoSchema>;
type Session = Out<typeof api.sessionSchema>;
type Timeline = Out<typeof studio.runTimelineSchema>;
type Hits = Out<typeof studio.knowledgeHitsSchema>;
type McpServer = Item<Out<typeof studio.mcpServerListSchema>['servers']>;
type RunEvents = Out<typeof studio.runEventsSchema>;

export const apiTypesMatch = [
  check<Same<S.WhoAmI, Out<typeof studio.whoamiSchema>>>(),
  check<Same<S.AgentKind, AgentInfo['kind']>>(),
  // `GET /agents` lists agents with the fields of AgentInfo; `GET /agents/{name}` adds those of AgentDetail.
  check<Reads<S.AgentInfo, AgentInfo>>(),
  check<Same<S.AgentDetail, AgentInfo>>(),
  check<Same<S.AgentTool, Out<typeof api.agentToolSchema>>>(),
  check<Same<S.AgentStructure, Out<typeof api.agentStructureSchema>>>(),
  check<Same<S.SessionSummary, Out<typeof api.sessionSummarySchema>>>(),
  check<Same<Omit<S.SessionDetail, 'messages'>, Omit<Session, 'messages'>>>(),
  // Messages are AI SDK messages (a loose schema): the Studio types the parts it shows.
  check<Reads<S.SessionMessage, Item<Session['messages']>>>(),
  check<Same<S.PendingApproval, Out<typeof api.pendingApprovalSchema>>>(),
  check<Same<S.Approval, Out<typeof api.approvalSchema>>>(),
  check<Same<S.RunStatus, Out<typeof api.runSchema>['status']>>(),
  check<Same<S.RunInfo, Out<typeof api.runSchema>>>(),
  check<Same<S.RunTimeline, Timeline>>(),
  check<Same<S.TimelineStep, Item<Timeline['steps']>>>(),
  check<Same<S.TimelineTool, Item<Item<Timeline['steps']>['tools']>>>(),
  check<Same<S.Memory, Out<typeof studio.memorySchema>>>(),
  check<Same<S.KnowledgeBase, Item<Out<typeof studio.knowledgeListSchema>['bases']>>>(),
  check<Same<Omit<Item<S.KnowledgeSearchResult['hits']>, 'location'>, Omit<Item<Hits['hits']>, 'location'>>>(),
  check<Reads<S.KnowledgeSearchResult, Hits>>(),
  check<Same<Omit<S.McpServer, 'tools'>, Omit<McpServer, 'tools'>>>(),
  // A tool's `inputSchema` is any JSON Schema (a loose object): the Studio types the keywords its form reads.
  check<Reads<S.McpTool, Item<McpServer['tools']>>>(),
  check<Reads<S.McpCallResult, Out<typeof studio.mcpCallResultSchema>>>(),
  check<Same<S.ConfiguredModel, Item<Out<typeof studio.modelListSchema>['models']>>>(),
  check<Same<S.TraceSpanKind, ServerTraceSpan['kind']>>(),
  check<Same<S.TraceSpan, Out<typeof studio.traceSpanSchema>>>(),
  check<Same<S.TraceSpan, ServerTraceSpan>>(),
  check<Same<S.RunViewStatus, Out<typeof studio.runTraceSchema>['status']>>(),
  check<Same<S.RunTrace, Out<typeof studio.runTraceSchema>>>(),
  check<Same<Omit<S.RunEvents, 'events'>, Omit<RunEvents, 'events'>>>(),
  // An event's `data` is a record in the schema; the Studio reads it as the AgentEvent union of src/types/events.ts.
  check<Same<Omit<Item<S.RunEvents['events']>, 'data'>, Omit<Item<RunEvents['events']>, 'data'>>>(),
  // The Playground reads a chat answer (200) and a paused turn (202) with this type.
  check<Reads<S.ChatAnswer, Out<typeof api.chatResponseSchema>>>(),
  // The `done` event of a streamed turn (no schema: the type of what the server writes).
  check<Assignable<ReturnType<typeof doneEvent> | ReturnType<typeof failedEvent>, StreamDone>>(),
];
