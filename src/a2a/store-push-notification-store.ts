import { randomUUID } from 'node:crypto';
import { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { PushNotificationStore, ServerCallContext, StoredPushNotificationConfig } from '@a2a-js/sdk/server';
import type { StateStore } from '../storage/types/state.js';

function key(agent: string, taskId: string): string {
  return `a2a/push/${agent}/${taskId}`;
}

/** What is stored per task: configs by id, each with the protocol version it was registered over. */
type StoredValue = Record<string, { config: unknown; wireVersion: string }>;

/**
 * Push-notification configs of an agent's tasks in Corvid's key-value state (app scope, one key
 * per task, `a2a/push/<agent>/<taskId>`, so the lookup made for every task event is a point read),
 * with the protocol version each was registered over so a v0.3 webhook keeps receiving v0.3 bodies.
 */
export class StorePushNotificationStore implements PushNotificationStore {
  constructor(
    private readonly state: StateStore,
    private readonly agent: string,
  ) {}

  private async read(taskId: string): Promise<StoredValue> {
    if (!taskId || taskId.length > 150) return {};
    return ((await this.state.get('app', key(this.agent, taskId))) as StoredValue | undefined) ?? {};
  }

  async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    if (!config.id) config.id = randomUUID();
    const value = await this.read(taskId);
    value[config.id] = { config: TaskPushNotificationConfig.toJSON({ ...config, taskId }), wireVersion: context.requestedVersion };
    await this.state.set('app', key(this.agent, taskId), value);
  }

  async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await this.loadWithMetadata(taskId, context)).map((s) => s.config);
  }

  async loadWithMetadata(taskId: string, _context?: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    return Object.values(await this.read(taskId)).map((v) => ({ config: TaskPushNotificationConfig.fromJSON(v.config), wireVersion: v.wireVersion }));
  }

  async delete(taskId: string, _context: ServerCallContext, configId?: string): Promise<void> {
    if (configId === undefined) {
      await this.state.delete('app', key(this.agent, taskId));
      return;
    }
    const value = await this.read(taskId);
    if (!(configId in value)) return;
    delete value[configId];
    if (Object.keys(value).length === 0) await this.state.delete('app', key(this.agent, taskId));
    else await this.state.set('app', key(this.agent, taskId), value);
  }
}
