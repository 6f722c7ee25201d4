import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';

import { callerOf } from '../call-owner.js';

/** The config without its `token` and `authentication.credentials` (emptied). */
export function withoutPushSecrets(config: TaskPushNotificationConfig): TaskPushNotificationConfig {
  return { ...config, token: '', authentication: config.authentication && { ...config.authentication, credentials: '' } };
}

/**
 * A push config as the caller of `context` may see it: whole for its owner (the caller who
 * registered it, `callerOf`), else without its token and credentials.
 */
export function pushConfigFor(config: TaskPushNotificationConfig, owner: string, context: ServerCallContext): TaskPushNotificationConfig {
  return owner === callerOf(context) ? config : withoutPushSecrets(config);
}
