/**
 * Turns an MCP `CallToolResult` into what a Corvid tool returns to the model (text or JSON).
 * Binary data is not sent to the model: images, audio and binary resources are described in a
 * short placeholder line instead.
 */

/** The parts of an MCP tool result this mapping reads (a subset of the SDK's `CallToolResult`). */
export interface McpCallResult {
  content?: ReadonlyArray<McpContentBlock>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Pre-2024-11-05 servers answer `{ toolResult }`. */
  toolResult?: unknown;
}

/** One content block of a tool result. */
export type McpContentBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
    }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string; size?: number }
  | { type: string; [key: string]: unknown };

/** Approximate decoded size of base64 data. */
function base64Bytes(data: string): number {
  const pad = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - pad);
}

/** One content block as text for the model. */
export function contentBlockText(block: McpContentBlock): string {
  switch (block.type) {
    case 'text':
      return String((block as { text: unknown }).text ?? '');
    case 'image':
    case 'audio': {
      const b = block as { data?: string; mimeType?: string };
      return `[${block.type}: ${b.mimeType ?? 'unknown type'}, ${base64Bytes(b.data ?? '')} bytes]`;
    }
    case 'resource': {
      const r = (block as { resource: { uri: string; mimeType?: string; text?: string; blob?: string } }).resource;
      const head = `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ''}`;
      if (typeof r.text === 'string') return `${head}]\n${r.text}`;
      return `${head}: ${base64Bytes(r.blob ?? '')} bytes of binary data]`;
    }
    case 'resource_link': {
      const l = block as { uri: string; name: string; mimeType?: string; description?: string };
      return `[resource link: ${l.name} <${l.uri}>${l.mimeType ? ` (${l.mimeType})` : ''}${l.description ? ` — ${l.description}` : ''}]`;
    }
    default:
      return `[${block.type} content]`;
  }
}

/** The text of a result's content blocks, one block per paragraph. */
export function resultText(result: McpCallResult): string {
  return (result.content ?? []).map(contentBlockText).join('\n\n');
}

/**
 * What the model receives for a successful call:
 * - `structuredContent` when the server sent it and every content block is text (the text is
 *   then, by the spec's advice, the same data serialised): the object, as JSON;
 * - otherwise the content blocks as text (one paragraph each), with `structuredContent`
 *   appended as JSON when present;
 * - a legacy `toolResult` as is.
 * Error results (`isError`) are not mapped here: the caller turns them into tool errors.
 */
export function mapToolResult(result: McpCallResult): unknown {
  const content = result.content ?? [];
  if (result.structuredContent !== undefined && content.every((b) => b.type === 'text')) return result.structuredContent;
  if (content.length === 0 && result.toolResult !== undefined) return result.toolResult;
  const text = resultText(result);
  if (result.structuredContent === undefined) return text;
  return `${text}\n\nstructured content: ${JSON.stringify(result.structuredContent)}`;
}
