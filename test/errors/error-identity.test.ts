import { describe, expect, it } from 'vitest';

import { RemoteAgentError } from '../../src/a2a/client/remote-agent-error.js';
import {
  AuthenticationError,
  CommandRefusedError,
  ConfigError,
  CorvidError,
  DurableRunError,
  GuardrailError,
  KnowledgeError,
  LimitExceededError,
  MaxStepsExceededError,
  McpError,
  MissingPeerError,
  PathRefusedError,
  ProviderError,
  RoutingError,
  RunAbortedError,
  RunLeaseHeldError,
  SecretStoreError,
  StorageError,
  TemplateError,
  ToolExecutionError,
  ValidationError,
  WorkflowError,
} from '../../src/errors/index.js';
import { HttpError } from '../../src/http/http-error.js';
import { WebRefusal } from '../../src/http/web-refusal.js';
import { FileToolError } from '../../src/tools/files/file-tool-error.js';
import { RestToolError } from '../../src/tools/rest/rest-tool-error.js';
import { SlackToolError } from '../../src/tools/slack/slack-tool-error.js';

interface ErrorClass {
  name: string;
  isInstance(error: unknown): boolean;
}

/** One instance of every class of the hierarchy, with the class it was made by. */
const samples: Array<[ErrorClass, CorvidError]> = [
  [AuthenticationError, new AuthenticationError('no key')],
  [CommandRefusedError, new CommandRefusedError('refused', { command: 'rm -rf /' })],
  [ConfigError, new ConfigError('bad config')],
  [DurableRunError, new DurableRunError('gone', { kind: 'not_found', runId: 'r1' })],
  [GuardrailError, new GuardrailError({ stage: 'input', guardrail: 'no_secrets', score: 0, agent: 'a' })],
  [KnowledgeError, new KnowledgeError('no index', { kind: 'load' })],
  [LimitExceededError, new LimitExceededError({ limit: 'max_depth', value: 3, agent: 'a', path: ['a'] })],
  [MaxStepsExceededError, new MaxStepsExceededError({ agent: 'a', maxSteps: 2, steps: [] })],
  [McpError, new McpError('down', { kind: 'connection', server: 'fs' })],
  [MissingPeerError, new MissingPeerError({ feature: 'MCP', packages: ['@modelcontextprotocol/sdk'] })],
  [PathRefusedError, new PathRefusedError('outside', { path: '../x', reason: 'outside-root' })],
  [ProviderError, new ProviderError({ kind: 'timeout', provider: 'openai', model: 'gpt' })],
  [RoutingError, new RoutingError({ agent: 'r', input: 'hi', routes: ['a'], classifier: false })],
  [RunAbortedError, new RunAbortedError()],
  [RunLeaseHeldError, new RunLeaseHeldError('r1', 30_000)],
  [SecretStoreError, new SecretStoreError('locked', { kind: 'key_missing' })],
  [StorageError, new StorageError('locked', { kind: 'locked' })],
  [TemplateError, new TemplateError({ agent: 'a', key: 'name' })],
  [ToolExecutionError, new ToolExecutionError('failed', { toolName: 't', toolCallId: 'c1' })],
  [ValidationError, new ValidationError('bad args')],
  [WorkflowError, new WorkflowError({ agent: 'w', kind: 'parallel', failures: [] })],
  [HttpError, new HttpError(404, 'not_found', 'no such thing')],
  [RemoteAgentError, new RemoteAgentError('unreachable', { url: 'http://127.0.0.1:1/' })],
  [RestToolError, new RestToolError('bad', { type: 'http' })],
  [SlackToolError, new SlackToolError('bad')],
  [WebRefusal, new WebRefusal('private address')],
  [FileToolError, new FileToolError('no such file')],
];

/** Subclass relations inside the hierarchy (below CorvidError). */
const parents = new Map<ErrorClass, ErrorClass>([
  [RunLeaseHeldError, DurableRunError],
  [MissingPeerError, ConfigError],
]);

describe('error identity: isInstance recognises one class (and its subclasses) only', () => {
  it.each(samples.map(([cls, error]) => [cls.name, cls, error] as const))('%s', (_name, cls, error) => {
    expect(error).toBeInstanceOf(cls as unknown as new () => Error);
    expect(cls.isInstance(error)).toBe(true);
    expect(CorvidError.isInstance(error)).toBe(true);
    for (const [other] of samples) {
      if (other === cls) continue;
      const related = parents.get(cls) === other;
      expect({ class: other.name, of: cls.name, is: other.isInstance(error) }).toEqual({ class: other.name, of: cls.name, is: related });
    }
  });

  it('TypeScript narrowing follows the answer: a ConfigError is not a ProviderError', () => {
    const error: unknown = new ConfigError('bad config');
    expect(ProviderError.isInstance(error)).toBe(false);
    expect(ConfigError.isInstance(error) && error.issues).toEqual([]);
  });

  it('plain errors, look-alikes by name, and non-objects are not Corvid errors', () => {
    const lookAlike = Object.assign(new Error('x'), { name: 'ProviderError', code: 'provider_error' });
    for (const value of [new Error('x'), lookAlike, undefined, null, 'ProviderError', 42]) {
      expect(CorvidError.isInstance(value)).toBe(false);
      expect(ProviderError.isInstance(value)).toBe(false);
    }
  });

  it('recognises an error made by another copy of the package (where instanceof fails)', async () => {
    // A second module instance of the same source, as a duplicated install would load it.
    // @ts-expect-error -- the query string makes a second module instance, which TypeScript cannot resolve
    const copy = (await import('../../src/errors/provider-error.js?copy')) as typeof import('../../src/errors/provider-error.js');
    const foreign = new copy.ProviderError({ kind: 'rate_limit', provider: 'openai', model: 'gpt' });
    expect(copy.ProviderError).not.toBe(ProviderError);
    expect(foreign).not.toBeInstanceOf(ProviderError);
    expect(ProviderError.isInstance(foreign)).toBe(true);
    expect(CorvidError.isInstance(foreign)).toBe(true);
    expect(ConfigError.isInstance(foreign)).toBe(false);
  });
});
