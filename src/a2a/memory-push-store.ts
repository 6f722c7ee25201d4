import { InMemoryPushNotificationStore, type ServerCallContext } from '@a2a-js/sdk/server';
import type { TaskPushNotificationConfig } from '@a2a-js/sdk';

/**
 * The SDK's in-memory push-config store, which also says whether any config was ever registered:
 * until one is, no task event needs a config lookup (the sender skips them).
 */
export class MemoryPushNotificationStore extends InMemoryPushNotificationStore {
  private registered = false;

  /** True until the first config is saved. */
  get unused(): boolean {
    return !this.registered;
  }

  override async save(taskId: string, context: ServerCallContext, config: TaskPushNotificationConfig): Promise<void> {
    this.registered = true;
    return super.save(taskId, context, config);
  }
}
