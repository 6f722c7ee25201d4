import { Role, type Artifact, type Message, type Part, type Task } from '@a2a-js/sdk';
import { legacyPart, STATES } from './legacy-send.js';

/** Characters `JSON.stringify` escapes in a string (surrogates: it escapes lone ones). */
const ESCAPED = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: ids, timestamps and most texts need no escaping, only quotes. */
function str(s: string): string {
  return typeof s === 'string' && !ESCAPED.test(s) ? `"${s}"` : (JSON.stringify(s) ?? 'null');
}

/** `,"key":value` for a JSON value, or nothing when `JSON.stringify` would leave the key out. */
function field(key: string, value: unknown): string {
  const json = JSON.stringify(value);
  return json === undefined ? '' : `,"${key}":${json}`;
}

/**
 * The JSON-RPC answer to a v0.3 `message/send`, as a string: byte for byte
 * `JSON.stringify({ jsonrpc: '2.0', id, result: legacyResult(result) })`, written directly.
 * On Node 20 `JSON.stringify` of a finished task (about 1 KB: the conversation, the answer
 * artifact, the final status message) costs several microseconds, a large part of a blocking
 * send with a fast model; this writes the known shape, escapes only strings that need it, and
 * writes the final message once for the status and the history.
 * test/a2a/legacy-answer-json.test.ts holds it to `JSON.stringify` over many shapes.
 */
export function legacyAnswerJson(id: string | number | null, result: Message | Task): string {
  const body = 'messageId' in result ? messageJson(result) : taskJson(result);
  return `{"jsonrpc":"2.0","id":${id === null ? 'null' : typeof id === 'string' ? str(id) : JSON.stringify(id)},"result":${body}}`;
}

function taskJson(task: Task): string {
  const status = task.status;
  const said = status?.message;
  const saidJson = said ? messageJson(said) : undefined;
  let out = `{"kind":"task","id":${str(task.id)},"contextId":${str(task.contextId)},"status":`;
  if (!status) out += '{"state":"unknown"}';
  else {
    out += `{"state":"${STATES[status.state] ?? 'unknown'}"`;
    if (saidJson) out += `,"message":${saidJson}`;
    if (status.timestamp !== undefined && status.timestamp !== '') out += `,"timestamp":${str(status.timestamp)}`;
    out += '}';
  }
  const history = task.history;
  if (history && history.length > 0) {
    out += ',"history":[';
    for (let i = 0; i < history.length; i++) out += (i > 0 ? ',' : '') + (history[i] === said ? saidJson : messageJson(history[i]));
    out += ']';
  }
  const artifacts = task.artifacts;
  if (artifacts && artifacts.length > 0) {
    out += ',"artifacts":[';
    for (let i = 0; i < artifacts.length; i++) out += (i > 0 ? ',' : '') + artifactJson(artifacts[i]);
    out += ']';
  }
  if (task.metadata !== undefined) out += field('metadata', task.metadata);
  return out + '}';
}

function messageJson(m: Message): string {
  let out = `{"kind":"message","messageId":${str(m.messageId)},"role":"${m.role === Role.ROLE_USER ? 'user' : 'agent'}","parts":${partsJson(m.parts)}`;
  if (m.contextId) out += `,"contextId":${str(m.contextId)}`;
  if (m.taskId) out += `,"taskId":${str(m.taskId)}`;
  if (m.metadata !== undefined) out += field('metadata', m.metadata);
  if (m.extensions?.length) out += field('extensions', m.extensions);
  if (m.referenceTaskIds?.length) out += field('referenceTaskIds', m.referenceTaskIds);
  return out + '}';
}

function artifactJson(a: Artifact): string {
  let out = `{"artifactId":${str(a.artifactId)},"parts":${partsJson(a.parts)}`;
  if (a.name) out += `,"name":${str(a.name)}`;
  if (a.description) out += `,"description":${str(a.description)}`;
  if (a.metadata !== undefined) out += field('metadata', a.metadata);
  if (a.extensions?.length) out += field('extensions', a.extensions);
  return out + '}';
}

function partsJson(parts: Part[]): string {
  let out = '[';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const c = part.content;
    if (i > 0) out += ',';
    if (c?.$case === 'text') {
      out += `{"kind":"text","text":${str(c.value)}`;
      out += (part.metadata !== undefined ? field('metadata', part.metadata) : '') + '}';
    } else out += JSON.stringify(legacyPart(part));
  }
  return out + ']';
}
