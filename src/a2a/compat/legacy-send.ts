import { Role, TaskState, type Artifact, type Message, type Part, type SendMessageRequest, type Task, type TaskStatus } from '@a2a-js/sdk';

type Obj = Record<string, unknown>;

/**
 * The v1.0 form of a v0.3 `message/send` whose message has only text parts, or undefined for
 * anything else (other parts, a bad role or message id), which then goes through the SDK's
 * `LegacyJsonRpcTransportHandler` as before. The fields and defaults are the SDK's
 * (`toCoreSendMessageRequest`); test/a2a/legacy-send.test.ts holds both to the SDK's output.
 * Expects params already checked by `checkLegacyParams`. Unlike the SDK it does not copy metadata:
 * the request was parsed for this call alone, and the answer is serialized at once.
 */
export function legacySendRequest(params: Obj): SendMessageRequest | undefined {
  const m = params.message as Obj;
  if (typeof m.messageId !== 'string' || m.messageId === '' || (m.role !== 'user' && m.role !== 'agent')) return undefined;
  const given = m.parts as Obj[];
  const parts: Part[] = new Array(given.length);
  for (let i = 0; i < given.length; i++) {
    const p = given[i];
    if (p.kind !== 'text') return undefined;
    parts[i] = { content: { $case: 'text', value: p.text as string }, metadata: p.metadata as Obj | undefined, filename: '', mediaType: '' };
  }
  const message: Message = {
    messageId: m.messageId,
    contextId: (m.contextId as string | undefined) ?? '',
    taskId: (m.taskId as string | undefined) ?? '',
    role: m.role === 'user' ? Role.ROLE_USER : Role.ROLE_AGENT,
    parts,
    metadata: m.metadata as Obj | undefined,
    extensions: m.extensions ? [...(m.extensions as string[])] : [],
    referenceTaskIds: m.referenceTaskIds ? [...(m.referenceTaskIds as string[])] : [],
  };
  const c = params.configuration as Obj | undefined;
  if (c?.pushNotificationConfig) return undefined;
  return {
    tenant: '',
    message,
    configuration: c ? { acceptedOutputModes: c.acceptedOutputModes ? [...(c.acceptedOutputModes as string[])] : [], taskPushNotificationConfig: undefined, historyLength: c.historyLength as number | undefined, returnImmediately: c.blocking === undefined ? true : !c.blocking } : undefined,
    metadata: params.metadata as Obj | undefined,
  };
}

/** The v0.3 JSON of a `message/send` answer (a task or a message), as the SDK writes it (`toCompatTask` / `toCompatMessage`). */
export function legacyResult(result: Message | Task): Obj {
  return 'messageId' in result ? legacyMessage(result) : legacyTask(result);
}

/** v0.3 task state names by v1.0 state. */
export const STATES: Record<number, string> = {
  [TaskState.TASK_STATE_UNSPECIFIED]: 'unknown',
  [TaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
};

function legacyTask(task: Task): Obj {
  const out: Obj = { kind: 'task', id: task.id, contextId: task.contextId, status: task.status ? legacyStatus(task.status) : { state: 'unknown' } };
  if (task.history && task.history.length > 0) out.history = task.history.map(legacyMessage);
  if (task.artifacts && task.artifacts.length > 0) out.artifacts = task.artifacts.map(legacyArtifact);
  if (task.metadata !== undefined) out.metadata = task.metadata;
  return out;
}

function legacyStatus(status: TaskStatus): Obj {
  const out: Obj = { state: STATES[status.state] ?? 'unknown' };
  if (status.message) out.message = legacyMessage(status.message);
  if (status.timestamp !== undefined && status.timestamp !== '') out.timestamp = status.timestamp;
  return out;
}

function legacyMessage(m: Message): Obj {
  const out: Obj = { kind: 'message', messageId: m.messageId, role: m.role === Role.ROLE_USER ? 'user' : 'agent', parts: m.parts.map(legacyPart) };
  if (m.contextId) out.contextId = m.contextId;
  if (m.taskId) out.taskId = m.taskId;
  if (m.metadata !== undefined) out.metadata = m.metadata;
  if (m.extensions?.length) out.extensions = [...m.extensions];
  if (m.referenceTaskIds?.length) out.referenceTaskIds = [...m.referenceTaskIds];
  return out;
}

function legacyArtifact(a: Artifact): Obj {
  const out: Obj = { artifactId: a.artifactId, parts: a.parts.map(legacyPart) };
  if (a.name) out.name = a.name;
  if (a.description) out.description = a.description;
  if (a.metadata !== undefined) out.metadata = a.metadata;
  if (a.extensions?.length) out.extensions = [...a.extensions];
  return out;
}

/** The v0.3 JSON of a part. */
export function legacyPart(part: Part): Obj {
  const c = part.content;
  const metadata = part.metadata;
  let out: Obj;
  switch (c?.$case) {
    case 'text':
      out = { kind: 'text', text: c.value };
      break;
    case 'raw':
    case 'url': {
      const file: Obj = c.$case === 'raw' ? { bytes: Buffer.from(c.value).toString('base64') } : { uri: c.value };
      if (part.mediaType !== '') file.mimeType = part.mediaType;
      if (part.filename !== '') file.name = part.filename;
      out = { kind: 'file', file };
      break;
    }
    case 'data': {
      const value = c.value as unknown;
      if (typeof value === 'object' && value !== null && !Array.isArray(value) && !Buffer.isBuffer(value)) out = { kind: 'data', data: value };
      else if (value === null || Array.isArray(value) || ['string', 'number', 'boolean'].includes(typeof value)) return { kind: 'data', data: { value }, metadata: { ...part.metadata, data_part_compat: true } };
      else throw new Error('Cannot translate a v1.0 data part to v0.3: its value is not JSON data');
      break;
    }
    default:
      throw new Error(`Invalid v1.0 part: ${c ? `content type ${(c as { $case?: string }).$case}` : 'missing content'}`);
  }
  if (metadata !== undefined) out.metadata = metadata;
  return out;
}
