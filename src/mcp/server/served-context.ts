import type {
  CreateMessageRequestParamsBase,
  CreateMessageResult,
  ElicitRequestFormParams,
  ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';

import { McpError } from '../../errors/mcp-error.js';
import type { ToolContext } from '../../types/tool.js';
import type { ServedCaller } from './tool-runner.js';

/** Marks a value built by `mcpResult`. */
const MCP_RESULT = Symbol.for('corvid.mcpResult');

/** One MCP content block a served tool may return. */
export type McpResultContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** A tool result in MCP's own form (what `mcpResult` returns). */
export interface McpResult {
  content: McpResultContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * A tool result given to MCP clients as is: images, audio, embedded resources, links. Served
 * tools that return a string or JSON need nothing of this; use it for other content.
 * @example
 * execute: () => mcpResult({ content: [{ type: 'image', data: png.toString('base64'), mimeType: 'image/png' }] })
 */
export function mcpResult(result: McpResult): McpResult {
  return Object.defineProperty({ ...result }, MCP_RESULT, { value: true });
}

/** Whether a tool output was built by `mcpResult`. */
export function isMcpResult(value: unknown): value is McpResult {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MCP_RESULT] === true;
}

/** Log levels of MCP. */
export type McpLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** What a served call adds to the tool context (absent when the tool runs inside an agent). */
export interface ServedHooks {
  progress?: (p: { progress: number; total?: number; message?: string }) => void;
  log?: (level: McpLogLevel, data: unknown, logger?: string) => void;
  sample?: (request: McpSamplingRequest) => Promise<McpSamplingResult>;
  elicit?: (request: McpElicitRequest) => Promise<McpElicitResult>;
  /** Who the call runs as (agents served as tools run as the caller too). */
  caller?: ServedCaller;
}

/** A `sampling/createMessage` request: `messages`, `maxTokens`, and optionally `systemPrompt`, `modelPreferences`, `temperature`, … */
export type McpSamplingRequest = CreateMessageRequestParamsBase;
/** The client's answer: the generated message (`role`, `content`), the `model` used, and `stopReason`. */
export type McpSamplingResult = CreateMessageResult;
/** An `elicitation/create` request (form mode): a `message` and a flat `requestedSchema` (string, number, integer, boolean and enum fields, with defaults). */
export type McpElicitRequest = Omit<ElicitRequestFormParams, 'mode'>;
/** The user's answer: `action` `accept` (with `content`), `decline` or `cancel`. */
export type McpElicitResult = ElicitResult;

function notServed(ctx: ToolContext, what: string): McpError {
  return new McpError(
    `${what} needs an MCP client; this call did not come over MCP (it came from "${ctx.agent}": an agent run or the REST gateway), so nobody can answer it`,
    {
      kind: 'call',
      server: ctx.agent,
    },
  );
}

/**
 * Reports progress of a tool served over MCP to the client (when it asked for progress).
 * Does nothing when the tool runs elsewhere, e.g. inside an agent.
 */
export function reportProgress(ctx: ToolContext, progress: { progress: number; total?: number; message?: string }): void {
  (ctx as ToolContext & ServedHooks).progress?.(progress);
}

/**
 * Sends a log message (`notifications/message`) to the MCP client of a served tool, subject to
 * the level the client set. Does nothing when the tool runs elsewhere.
 */
export function sendLog(ctx: ToolContext, level: McpLogLevel, data: unknown, logger?: string): void {
  (ctx as ToolContext & ServedHooks).log?.(level, data, logger);
}

/**
 * Asks the MCP client calling a served tool to run an LLM completion (`sampling/createMessage`)
 * and resolves with its answer. Fails when the client did not declare the `sampling` capability,
 * and when the tool is not called over MCP.
 * @example
 * const answer = await requestSampling(ctx, { messages: [{ role: 'user', content: { type: 'text', text: 'Summarise: …' } }], maxTokens: 200 });
 * if (answer.content.type === 'text') return answer.content.text;
 */
export function requestSampling(ctx: ToolContext, request: McpSamplingRequest): Promise<McpSamplingResult> {
  const sample = (ctx as ToolContext & ServedHooks).sample;
  return sample ? sample(request) : Promise.reject(notServed(ctx, 'requestSampling()'));
}

/**
 * Asks the user of the MCP client calling a served tool for input (`elicitation/create`, form
 * mode) and resolves with the answer (`accept` with content, `decline` or `cancel`); accepted
 * content is checked against `requestedSchema`. Fails when the client does not support
 * elicitation, and when the tool is not called over MCP.
 * @example
 * const answer = await elicitInput(ctx, { message: 'Which account?', requestedSchema: { type: 'object', properties: { account: { type: 'string' } }, required: ['account'] } });
 * if (answer.action !== 'accept') return 'Cancelled by the user';
 */
export function elicitInput(ctx: ToolContext, request: McpElicitRequest): Promise<McpElicitResult> {
  const elicit = (ctx as ToolContext & ServedHooks).elicit;
  return elicit ? elicit(request) : Promise.reject(notServed(ctx, 'elicitInput()'));
}
