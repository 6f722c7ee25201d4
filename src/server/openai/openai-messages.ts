import { HttpError } from '../../http/http-error.js';
import type { FilePart, Message, TextPart, ToolResultPart } from '../../types/message.js';
import type { RequestEntry } from './approval-answers.js';
import type { ChatMessageInput, ResponseItemInput } from './openai-request-schemas.js';

/** A conversation sent by a client, in Corvid's message format. */
export interface ClientConversation {
  messages: Message[];
  /** Index of the first message after the last assistant message (or tool call): what is new in this request. */
  newFrom: number;
}

function bad(param: string, message: string): HttpError {
  return new HttpError(400, 'invalid_request', `Invalid request: "${param}" ${message}`);
}

/** The JSON arguments of a tool call the client sends back. */
function parseArguments(text: string, param: string): unknown {
  try {
    return text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw bad(param, 'must be a JSON string (the arguments of the call)');
  }
}

/** A `data:` URL as a file part; other URLs as links. */
function imagePart(url: string, param: string): FilePart {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (m) return { type: 'file', mediaType: m[1], data: m[2] };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad(param, 'must be an http(s) or data: URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw bad(param, 'must be an http(s) or data: URL');
  return { type: 'file', mediaType: 'image/*', data: parsed };
}

/** Builds the `tool` messages and tool-call names of a conversation as it is converted. */
class ToolResults {
  private readonly names = new Map<string, string>();

  constructor(private readonly out: Message[]) {}

  call(id: string, name: string): void {
    this.names.set(id, name);
  }

  /** Adds a result; consecutive results share one `tool` message. `lookup` names calls made before this request. */
  result(id: string, text: string, param: string, lookup?: (id: string) => string | undefined): void {
    const toolName = this.names.get(id) ?? lookup?.(id);
    if (toolName === undefined) throw bad(param, `names no tool call of an earlier assistant message ("${id.slice(0, 100)}")`);
    const part: ToolResultPart = { type: 'tool-result', toolCallId: id, toolName, output: { type: 'text', value: text } };
    const last = this.out[this.out.length - 1];
    if (last?.role === 'tool') last.content.push(part);
    else this.out.push({ role: 'tool', content: [part] });
  }
}

type ChatContent = Exclude<ChatMessageInput['content'], null | undefined>;

function chatText(content: ChatContent | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function chatParts(content: ChatContent, param: string): Array<TextPart | FilePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((p, i) =>
    p.type === 'text' ? { type: 'text', text: p.text } : imagePart(p.image_url.url, `${param}[${i}].image_url.url`),
  );
}

/**
 * The messages of a chat completions request in Corvid's format. Tool results are matched to the
 * calls of earlier assistant messages (or, with `lookup`, to calls a session made before).
 */
export function chatConversation(messages: ChatMessageInput[], lookup?: (id: string) => string | undefined): ClientConversation {
  const out: Message[] = [];
  const tools = new ToolResults(out);
  let newFrom = 0;
  messages.forEach((m, i) => {
    const param = `messages[${i}]`;
    switch (m.role) {
      case 'system':
      case 'developer':
        out.push({ role: 'system', content: chatText(m.content) });
        return;
      case 'user':
        out.push({ role: 'user', content: chatParts(m.content, `${param}.content`) });
        return;
      case 'assistant': {
        const content: Extract<Message, { role: 'assistant' }>['content'] = [];
        const said = chatText(m.content);
        if (said !== '') content.push({ type: 'text', text: said });
        (m.tool_calls ?? []).forEach((c, j) => {
          tools.call(c.id, c.function.name);
          const input = parseArguments(c.function.arguments, `${param}.tool_calls[${j}].function.arguments`);
          content.push({ type: 'tool-call', toolCallId: c.id, toolName: c.function.name, input });
        });
        out.push({ role: 'assistant', content });
        newFrom = out.length;
        return;
      }
      case 'tool':
        tools.result(m.tool_call_id, chatText(m.content), `${param}.tool_call_id`, lookup);
        return;
      default: {
        const never: never = m;
        return never;
      }
    }
  });
  return { messages: out, newFrom };
}

/** The messages of a chat completions request as approval answers see them. */
export function chatEntries(messages: ChatMessageInput[]): RequestEntry[] {
  return messages.map((m, i): RequestEntry => {
    if (m.role === 'assistant') return { kind: 'calls', calls: (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name })) };
    if (m.role === 'tool') return { kind: 'result', id: m.tool_call_id, text: chatText(m.content), param: `messages[${i}].content` };
    return { kind: 'other', param: `messages[${i}]` };
  });
}

type ItemContent = Extract<ResponseItemInput, { role: string }>['content'];

function itemText(content: ItemContent): string {
  if (typeof content === 'string') return content;
  return content.map((p) => ('text' in p ? p.text : 'refusal' in p ? p.refusal : '')).join('');
}

function itemParts(content: ItemContent, param: string): Array<TextPart | FilePart> {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const parts: Array<TextPart | FilePart> = [];
  content.forEach((p, i) => {
    if (p.type === 'input_image') parts.push(imagePart(p.image_url, `${param}[${i}].image_url`));
    else parts.push({ type: 'text', text: 'text' in p ? p.text : p.refusal });
  });
  return parts;
}

/** Adds an assistant message's content, or a tool call, to the conversation (calls of one turn share one message). */
function assistantPart(out: Message[], part: Extract<Message, { role: 'assistant' }>['content'][number], joinLast: boolean): void {
  const last = out[out.length - 1];
  if (joinLast && last?.role === 'assistant') last.content.push(part);
  else out.push({ role: 'assistant', content: [part] });
}

/** The `input` (and `instructions`) of a responses request in Corvid's format. */
export function responseConversation(
  input: string | ResponseItemInput[],
  instructions: string | null | undefined,
  lookup?: (id: string) => string | undefined,
): ClientConversation {
  const out: Message[] = [];
  if (instructions) out.push({ role: 'system', content: instructions });
  if (typeof input === 'string') {
    out.push({ role: 'user', content: [{ type: 'text', text: input }] });
    return { messages: out, newFrom: 0 };
  }
  const tools = new ToolResults(out);
  let newFrom = 0;
  input.forEach((item, i) => {
    const param = `input[${i}]`;
    if (item.type === 'reasoning') return;
    if (item.type === 'function_call') {
      tools.call(item.call_id, item.name);
      const args = parseArguments(item.arguments, `${param}.arguments`);
      assistantPart(out, { type: 'tool-call', toolCallId: item.call_id, toolName: item.name, input: args }, true);
      newFrom = out.length;
    } else if (item.type === 'function_call_output') {
      const text = typeof item.output === 'string' ? item.output : itemText(item.output);
      tools.result(item.call_id, text, `${param}.call_id`, lookup);
    } else if (item.role === 'assistant') {
      assistantPart(out, { type: 'text', text: itemText(item.content) }, false);
      newFrom = out.length;
    } else if (item.role === 'user') {
      out.push({ role: 'user', content: itemParts(item.content, `${param}.content`) });
    } else {
      out.push({ role: 'system', content: itemText(item.content) });
    }
  });
  return { messages: out, newFrom };
}

/** The `input` of a responses request as approval answers see it (reasoning items are skipped). */
export function responseEntries(input: string | ResponseItemInput[]): RequestEntry[] {
  if (typeof input === 'string') return [{ kind: 'other', param: 'input' }];
  const entries: RequestEntry[] = [];
  input.forEach((item, i) => {
    if (item.type === 'reasoning') return;
    if (item.type === 'function_call') entries.push({ kind: 'calls', calls: [{ id: item.call_id, name: item.name }] });
    else if (item.type === 'function_call_output') {
      const text = typeof item.output === 'string' ? item.output : itemText(item.output);
      entries.push({ kind: 'result', id: item.call_id, text, param: `input[${i}].output` });
    } else if (item.role === 'assistant') entries.push({ kind: 'calls', calls: [] });
    else entries.push({ kind: 'other', param: `input[${i}]` });
  });
  return entries;
}
