import type { ServerCallContext } from '@a2a-js/sdk/server';

/**
 * Who is calling, as owners of A2A records (push configs) are named: the authenticated user's
 * name, or `''` for an unauthenticated caller.
 */
export function callerOf(context: ServerCallContext): string {
  const user = context.user;
  return user?.isAuthenticated ? user.userName : '';
}
