import type { JWTPayload } from 'jose';

/** Who made a request. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'api_key'; name: string; scopes: readonly string[] }
  | { kind: 'jwt'; user: string | undefined; claims: JWTPayload };

/**
 * The user a principal speaks for, and so the owner of the sessions, runs, A2A tasks, contexts
 * and push configs it creates: the JWT's user claim, `key:<name>` for an API key; `undefined`
 * only for anonymous callers. A JWT without the user claim speaks for its subject
 * (`jwt-sub:<iss> <sub>`), or, without one either, for `jwt:unnamed` (all such tokens share).
 */
export function principalUser(p: Principal): string | undefined {
  switch (p.kind) {
    case 'anonymous':
      return undefined;
    case 'api_key':
      return `key:${p.name}`;
    case 'jwt':
      return p.user ?? (typeof p.claims.sub === 'string' ? `jwt-sub:${p.claims.iss ?? ''} ${p.claims.sub}` : 'jwt:unnamed');
    default: {
      const never: never = p;
      return never;
    }
  }
}

/**
 * Whether `principal` may see what is owned by `owner` (a session, a run, an A2A task). Owned
 * things belong to their owner alone. Without auth every caller is anonymous and everything is
 * shared; with auth on, an anonymous caller (on a path made public) sees only what has no owner,
 * and an authenticated one never sees what has none.
 */
export function canSeeOwner(owner: string | undefined, principal: Principal, authEnabled: boolean): boolean {
  const user = principalUser(principal);
  if (user === undefined) return !authEnabled || owner === undefined;
  return owner === user;
}
