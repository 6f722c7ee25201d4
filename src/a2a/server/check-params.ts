type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (o: Obj, k: string) => typeof o[k] === 'string' && (o[k] as string).length > 0;

/**
 * Checks the `params` of a v0.3 JSON-RPC request for the fields each method needs, so malformed
 * requests get `-32602 Invalid params` naming the field instead of failing inside the handler.
 * Returns the problem, or undefined when the shape is fine (or the method is not a v0.3 one).
 */
export function checkLegacyParams(method: unknown, params: unknown): string | undefined {
  if (typeof method !== 'string') return undefined;
  const p = isObj(params) ? params : undefined;
  switch (method) {
    case 'message/send':
    case 'message/stream': {
      if (!p || !isObj(p.message)) return 'params.message must be an object';
      if (!Array.isArray(p.message.parts)) return 'params.message.parts must be an array';
      if (!p.message.parts.every(isObj)) return 'params.message.parts must be objects';
      if (p.message.parts.length === 0) return 'params.message.parts must not be empty';
      if (p.configuration !== undefined && !isObj(p.configuration)) return 'params.configuration must be an object';
      if (isObj(p.configuration)) {
        const bad = historyLengthProblem(p.configuration, 'params.configuration');
        if (bad) return bad;
      }
      if (
        isObj(p.configuration) &&
        p.configuration.pushNotificationConfig !== undefined &&
        !(isObj(p.configuration.pushNotificationConfig) && str(p.configuration.pushNotificationConfig, 'url'))
      ) {
        return 'params.configuration.pushNotificationConfig needs a url';
      }
      return undefined;
    }
    case 'tasks/get':
      if (!p || !str(p, 'id')) return 'params.id (the task id) must be a non-empty string';
      return historyLengthProblem(p, 'params');
    case 'tasks/cancel':
    case 'tasks/resubscribe':
    case 'tasks/pushNotificationConfig/list':
      return p && str(p, 'id') ? undefined : 'params.id (the task id) must be a non-empty string';
    case 'tasks/pushNotificationConfig/get':
      if (!p || !str(p, 'id')) return 'params.id (the task id) must be a non-empty string';
      return p.pushNotificationConfigId === undefined || typeof p.pushNotificationConfigId === 'string'
        ? undefined
        : 'params.pushNotificationConfigId must be a string';
    case 'tasks/pushNotificationConfig/delete':
      if (!p || !str(p, 'id')) return 'params.id (the task id) must be a non-empty string';
      return str(p, 'pushNotificationConfigId') ? undefined : 'params.pushNotificationConfigId must be a non-empty string';
    case 'tasks/pushNotificationConfig/set':
      if (!p || !str(p, 'taskId')) return 'params.taskId must be a non-empty string';
      return isObj(p.pushNotificationConfig) && str(p.pushNotificationConfig, 'url')
        ? undefined
        : 'params.pushNotificationConfig must be an object with a url';
    default:
      return undefined;
  }
}

/**
 * Fills in what v0.3 lets clients leave out, as the v0.3 SDKs do: a push-notification config
 * set without an `id` gets the task id, and `tasks/pushNotificationConfig/get` without a
 * `pushNotificationConfigId` reads that config. Changes `params` in place (already checked).
 */
export function defaultLegacyParams(method: unknown, params: unknown): void {
  if (!isObj(params)) return;
  if (method === 'tasks/pushNotificationConfig/set' && isObj(params.pushNotificationConfig) && !str(params.pushNotificationConfig, 'id')) {
    params.pushNotificationConfig.id = params.taskId;
  } else if (method === 'tasks/pushNotificationConfig/get' && !str(params, 'pushNotificationConfigId')) {
    params.pushNotificationConfigId = params.id;
  }
}

/**
 * A JSON-RPC 2.0 envelope problem (`-32600 Invalid Request`): `jsonrpc` must be "2.0", `method`
 * a string, and an `id`, when present, a string, a number or null. Undefined when it is fine.
 */
export function checkEnvelope(request: Obj): string | undefined {
  if (request.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof request.method !== 'string' || request.method === '') return 'method must be a non-empty string';
  const id = request.id;
  if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number') return 'id must be a string, a number or null';
  return undefined;
}

/**
 * The same for a v1.0 send (`SendMessage`, `SendStreamingMessage`, REST `message:send` /
 * `message:stream`): `where` names the object in messages (`params`, or `the body`).
 */
export function checkV1SendParams(params: unknown, where = 'params'): string | undefined {
  if (!isObj(params)) return `${where} must be an object`;
  if (!isObj(params.message)) return `${where}.message must be an object`;
  const parts = params.message.parts;
  if (!(Array.isArray(parts) && parts.every(isObj))) return `${where}.message.parts must be an array of objects`;
  if (parts.length === 0) return `${where}.message.parts must not be empty`;
  for (const key of ['configuration', 'metadata'] as const) {
    if (params[key] !== undefined && params[key] !== null && !isObj(params[key])) return `${where}.${key} must be an object`;
  }
  const config = params.configuration;
  if (isObj(config)) {
    const bad = historyLengthProblem(config, `${where}.configuration`);
    if (bad) return bad;
  }
  if (
    isObj(config) &&
    config.taskPushNotificationConfig !== undefined &&
    config.taskPushNotificationConfig !== null &&
    !isObj(config.taskPushNotificationConfig)
  ) {
    return `${where}.configuration.taskPushNotificationConfig must be an object`;
  }
  return undefined;
}

/**
 * A `historyLength` (of `tasks/get` / `GetTask` params, or of a send's configuration) that is
 * present but not a non-negative integer: the problem, naming `where`; undefined when fine.
 */
export function historyLengthProblem(o: unknown, where: string): string | undefined {
  const n = isObj(o) ? o.historyLength : undefined;
  if (n === undefined || n === null) return undefined;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? undefined : `${where}.historyLength must be a non-negative integer`;
}
