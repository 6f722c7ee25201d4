import type { JWTPayload } from 'jose';

/** Who made a request. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'api_key'; name: string; scopes: readonly string[] }
  | { kind: 'jwt'; user: string | undefined; claims: JWTPayload };

/** The user a principal speaks for (JWT user claim, API key name), if any. */
export function principalUser(p: Principal): string | undefined {
  switch (p.kind) {
    case 'anonymous':
      return undefined;
    case 'api_key':
      return `key:${p.name}`;
    case 'jwt':
      return p.user;
    default: {
      const never: never = p;
      return never;
    }
  }
}
