import { randomUUID } from 'node:crypto';

import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { InMemoryPushNotificationStore, type ServerCallContext, type StoredPushNotificationConfig } from '@a2a-js/sdk/server';

import { callerOf } from '../call-owner.js';
import { pushConfigFor } from './push-config-view.js';

/** Where the owner rides along in the SDK store's copies (stripped before anything is returned). */
const OWNER = 'corvidOwner';
type Owned = TaskPushNotificationConfig & { [OWNER]?: string };

function split(config: Owned): { config: TaskPushNotificationConfig; owner: string } {
  const { [OWNER]: owner, ...rest } = config;
  return { config: rest, owner: owner ?? '' };
}

/**
 * The SDK's in-memory push-config store, which also says whether any config was ever registered
 * (until one is, no task event needs a config lookup: the sender skips them), and records who
 * registered each config: `load` (get and list) gives the token and credentials to that caller
 * only; `loadWithMetadata` (delivery) gives them whole.
 */
export class MemoryPushNotificationStore extends InMemoryPushNotificationStore {
  private registered = false;

  /** True until the first config is saved. */
  get unused(): boolean {
    return !this.registered;
  }

  override async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    this.registered = true;
    // The caller reads the id back from `config`.
    if (!config.id) config.id = randomUUID();
    const owned: Owned = { ...config, [OWNER]: callerOf(context) };
    return super.save(taskId, context, owned);
  }

  override async load(taskId: string, context: ServerCallContext): Promise<TaskPushNotificationConfig[]> {
    return (await super.load(taskId, context)).map((c) => {
      const { config, owner } = split(c);
      return pushConfigFor(config, owner, context);
    });
  }

  override async loadWithMetadata(taskId: string, context: ServerCallContext): Promise<StoredPushNotificationConfig[]> {
    return (await super.loadWithMetadata(taskId, context)).map((s) => ({ ...s, config: split(s.config).config }));
  }
}
