import type { ApiOperation, ApiResponse } from '../api/api-operations.js';
import { runEventsQuerySchema } from '../api/request-schemas.js';
import { errorSchema, sessionSchema, sessionSummarySchema } from '../api/response-schemas.js';
import { evalRunListSchema, evalRunSchema } from './eval-schemas.js';
import {
  cancelAnswerSchema,
  cancelRunSchema,
  exportSessionQuerySchema,
  knowledgeHitsSchema,
  knowledgeListSchema,
  knowledgeSearchSchema,
  listMemoriesQuerySchema,
  mcpCallResultSchema,
  mcpCallSchema,
  mcpServerListSchema,
  memoryListSchema,
  memorySchema,
  memoryScopeQuerySchema,
  modelListSchema,
  renameSessionSchema,
  runEventsSchema,
  runTimelineSchema,
  runTraceSchema,
  updateMemorySchema,
  whoamiSchema,
} from './studio-schemas.js';

const error = (description: string): ApiResponse => ({ description, json: errorSchema });
const common = { '401': error('Missing or invalid credentials'), '429': error('Rate limited (see Retry-After)') };
const guarded = {
  '403': error('A browser request from a foreign `Origin` (`origin_not_allowed`), or a `Host` not allowed (`host_not_allowed`)'),
  '413': error('Body too large (`payload_too_large`)'),
  '415': error('A body that is not JSON: send `Content-Type: application/json` (`unsupported_media_type`)'),
};
const badField = { '400': error('Malformed JSON, a wrong field or a bad query parameter') };
const sessionId = { id: 'Session id' };
const runId = { id: 'Run id' };
const memoryId = { id: 'Memory key' };

/** The routes the Studio uses beside the chat API: who am I, sessions, runs, approvals, memories, knowledge, MCP, evals. */
export const STUDIO_OPERATIONS: ApiOperation[] = [
  {
    method: 'get',
    path: '/api/v1/whoami',
    operationId: 'whoami',
    summary: 'Whether the server needs credentials, and whom the request’s credential speaks for',
    responses: { '200': { description: 'The caller', json: whoamiSchema }, ...common },
  },
  {
    method: 'patch',
    path: '/api/v1/sessions/{id}',
    operationId: 'renameSession',
    summary: 'Give a session a title (`""` removes it)',
    pathParams: sessionId,
    body: { schema: renameSessionSchema, required: true },
    responses: {
      '200': { description: 'The session', json: sessionSummarySchema },
      ...badField,
      '404': error('Unknown session'),
      ...guarded,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/sessions/{id}/export',
    operationId: 'exportSession',
    summary: 'Download a session as JSON (as `GET /api/v1/sessions/{id}`) or markdown (`Content-Disposition: attachment`)',
    pathParams: sessionId,
    query: exportSessionQuerySchema,
    responses: {
      '200': { description: 'The session file: JSON, or markdown', json: sessionSchema, other: ['text/markdown'] },
      ...badField,
      '404': error('Unknown session'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{id}/timeline',
    operationId: 'runTimeline',
    summary: 'The steps of a run as its checkpoints record them: start, duration, tokens and tool spans',
    pathParams: runId,
    responses: {
      '200': { description: 'The timeline', json: runTimelineSchema },
      '404': error('Unknown run, or a server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/models',
    operationId: 'listModels',
    summary: 'The models the config names (`models:`), which a chat request may pick for a turn (`overrides.model`)',
    responses: { '200': { description: 'The models', json: modelListSchema }, ...common },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{id}/trace',
    operationId: 'runTrace',
    summary:
      'The spans of a run: agents (nested ones under the call that started them), steps, model and tool calls, with timings, inputs, outputs, tokens and cost',
    pathParams: runId,
    responses: {
      '200': { description: 'The trace', json: runTraceSchema },
      '404': error('Unknown run, or a server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/runs/{id}/events',
    operationId: 'runEvents',
    summary: 'The stored events of a run, oldest first, for a replay (rebuilt from its checkpoints when it has no event log)',
    pathParams: runId,
    query: runEventsQuerySchema,
    responses: {
      '200': { description: 'The events', json: runEventsSchema },
      ...badField,
      '404': error('Unknown run, or a server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'post',
    path: '/api/v1/runs/{id}/cancel',
    operationId: 'cancelRun',
    summary:
      'Stop a background run wherever it runs (`cancelled`), or a chat run this server is running (it ends `failed` and can be resumed)',
    pathParams: runId,
    responses: {
      '202': { description: 'The run is being stopped', json: cancelAnswerSchema },
      '404': error('Unknown run, or a server without a store (`no_store`)'),
      '409': error('The run is not running in this server (`run_not_running`)'),
      ...guarded,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/approvals/stream',
    operationId: 'approvalStream',
    summary: 'Server-sent events: `approval` for each new pending approval, `resolved` `{approvalId, status}` when one is answered',
    responses: {
      '200': { description: 'An endless stream (`: keep-alive` comments every 15 s)', sse: 'Event names: approval, resolved' },
      '404': error('A server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/memories',
    operationId: 'listMemories',
    summary: 'Long-term memories of a user of an agent, newest first, or the hits of a keyword search (`q`)',
    query: listMemoriesQuerySchema,
    responses: {
      '200': { description: 'Memories', json: memoryListSchema },
      ...badField,
      '404': error('Unknown agent, or a server without a store (`no_store`)'),
      ...common,
    },
  },
  {
    method: 'put',
    path: '/api/v1/memories/{id}',
    operationId: 'updateMemory',
    summary: 'Change the text of a memory',
    pathParams: memoryId,
    query: memoryScopeQuerySchema,
    body: { schema: updateMemorySchema, required: true },
    responses: {
      '200': { description: 'The memory', json: memorySchema },
      ...badField,
      '404': error('Unknown memory or agent, or a server without a store'),
      ...guarded,
      ...common,
    },
  },
  {
    method: 'delete',
    path: '/api/v1/memories/{id}',
    operationId: 'deleteMemory',
    summary: 'Forget a memory',
    pathParams: memoryId,
    query: memoryScopeQuerySchema,
    responses: {
      '204': { description: 'Deleted' },
      ...badField,
      '404': error('Unknown memory or agent, or a server without a store'),
      '403': guarded['403'],
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/knowledge',
    operationId: 'listKnowledge',
    summary: 'The knowledge bases of the config: sources, embedder, index stats',
    responses: {
      '200': { description: 'Knowledge bases', json: knowledgeListSchema },
      '404': error('The config has no `knowledge:` (`no_knowledge`)'),
      ...common,
    },
  },
  {
    method: 'post',
    path: '/api/v1/knowledge/{name}/search',
    operationId: 'searchKnowledge',
    summary: 'Search a knowledge base (keyword, vector or hybrid)',
    pathParams: { name: 'Knowledge base name' },
    body: { schema: knowledgeSearchSchema, required: true },
    responses: {
      '200': { description: 'Hits, best first', json: knowledgeHitsSchema },
      ...badField,
      '404': error('Unknown knowledge base, or none configured'),
      ...guarded,
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/mcp/servers',
    operationId: 'listMcpServers',
    summary: 'The MCP servers of the config with status and tools (`?connect=true` connects idle ones first)',
    responses: { '200': { description: 'MCP servers', json: mcpServerListSchema }, ...common },
  },
  {
    method: 'post',
    path: '/api/v1/mcp/servers/{name}/tools/{tool}/call',
    operationId: 'callMcpTool',
    summary: 'Call an MCP tool by hand (with auth: a credential with the `admin`, `tools:call` or `mcp:call` scope when it has scopes)',
    pathParams: { name: 'MCP server id', tool: "The tool's name on its server" },
    body: { schema: mcpCallSchema, required: false },
    responses: {
      '200': { description: 'The tool result', json: mcpCallResultSchema },
      ...badField,
      '403': error('The credential lacks the `admin` / `tools:call` / `mcp:call` scope, or a foreign Origin'),
      '404': error('Unknown server or tool, or no MCP servers configured'),
      '413': guarded['413'],
      '415': guarded['415'],
      ...common,
    },
  },
  {
    method: 'get',
    path: '/api/v1/evals',
    operationId: 'listEvalRuns',
    summary: 'The eval runs `corvid eval` saved in `.corvid/evals/` of the working directory, newest first, with their gates',
    responses: { '200': { description: 'Eval runs, and the files that are not eval results', json: evalRunListSchema }, ...common },
  },
  {
    method: 'get',
    path: '/api/v1/evals/{id}',
    operationId: 'getEvalRun',
    summary: 'One saved eval run: its results, and per case and scorer the changes since the previous run of the same suite',
    pathParams: { id: 'Eval run id: the file name under `.corvid/evals/` without `.json`' },
    responses: {
      '200': { description: 'The eval run', json: evalRunSchema },
      '400': error('A malformed id (`invalid_eval_id`)'),
      '404': error('No such eval run (`eval_not_found`)'),
      '422': error('The file is not a corvid eval result (`eval_unreadable`)'),
      ...common,
    },
  },
];

/** Request bodies of the Studio routes, by component name. */
export const STUDIO_REQUEST_COMPONENTS = {
  RenameSession: renameSessionSchema,
  UpdateMemory: updateMemorySchema,
  KnowledgeSearch: knowledgeSearchSchema,
  McpCall: mcpCallSchema,
};

/** Answers of the Studio routes, by component name. */
export const STUDIO_RESPONSE_COMPONENTS = {
  Whoami: whoamiSchema,
  RunTimeline: runTimelineSchema,
  RunTrace: runTraceSchema,
  RunEvents: runEventsSchema,
  ModelList: modelListSchema,
  CancelRun: cancelRunSchema,
  CancelAnswer: cancelAnswerSchema,
  Memory: memorySchema,
  MemoryList: memoryListSchema,
  KnowledgeList: knowledgeListSchema,
  KnowledgeHits: knowledgeHitsSchema,
  McpServerList: mcpServerListSchema,
  McpCallResult: mcpCallResultSchema,
  EvalRunList: evalRunListSchema,
  EvalRun: evalRunSchema,
};
