import type { ServerCallContext, User } from '@a2a-js/sdk/server';

/**
 * The caller of an A2A request as the server's auth resolved it: the owner of the tasks,
 * contexts and push configs the request creates (see `callerOf`).
 */
export class OwnerUser implements User {
  constructor(private readonly owner: string) {}

  get isAuthenticated(): boolean {
    return true;
  }

  get userName(): string {
    return this.owner;
  }
}

/**
 * The owner key of a request's caller: the authenticated user's name, or `''` for an anonymous
 * caller (every anonymous caller shares what has no owner: the server then has no auth).
 */
export function callerOf(context: ServerCallContext | undefined): string {
  const user = context?.user;
  return user?.isAuthenticated ? user.userName : '';
}
