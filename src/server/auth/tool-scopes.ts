import { HttpError } from '../../http/http-error.js';
import type { Principal } from './principal.js';

/**
 * Scopes that allow calling tools: through the tool gateway (`POST /execute`, `tools/call` on
 * `/mcp`) and by hand on the Studio's MCP route. `mcp:call` is the Studio's older name.
 */
export const TOOL_CALL_SCOPES = ['admin', 'tools:call', 'mcp:call'] as const;

/** Scopes that allow listing tools and reading what `/mcp` serves besides them (resources, prompts): `read`, or one that allows calling. */
export const TOOL_READ_SCOPES = ['read', ...TOOL_CALL_SCOPES] as const;

/** What a caller does with tools: list them (and read MCP resources and prompts) or call them. */
export type ToolAction = 'list' | 'call';

/** The scopes a principal carries: an API key's `scopes`, a JWT's `scope` (space-separated) or `scp` claim; undefined when it carries none. */
export function scopesOf(p: Principal): readonly string[] | undefined {
  if (p.kind === 'api_key') return p.scopes.length > 0 ? p.scopes : undefined;
  if (p.kind === 'jwt') {
    const claim = p.claims.scope ?? p.claims.scp;
    if (typeof claim === 'string') return claim.split(/\s+/).filter(Boolean);
    if (Array.isArray(claim)) return claim.filter((s): s is string => typeof s === 'string');
  }
  return undefined;
}

/**
 * Why `principal` may not do `action` with tools, or undefined when it may. The one scope rule of
 * every route that lists or calls tools (`GET /tools`, `POST /execute`, `/mcp`, the Studio's MCP
 * call): a credential without scopes may do both; one with scopes needs `read` (or a calling
 * scope) to list, and `admin`, `tools:call` or `mcp:call` to call. Anonymous callers carry no
 * scopes (authentication, and which paths are public, is the request gate's).
 */
export function toolScopeRefusal(principal: Principal, action: ToolAction): string | undefined {
  const scopes = scopesOf(principal);
  if (scopes === undefined) return undefined;
  const needed: readonly string[] = action === 'call' ? TOOL_CALL_SCOPES : TOOL_READ_SCOPES;
  if (scopes.some((s) => needed.includes(s))) return undefined;
  const what = action === 'call' ? 'Calling a tool' : 'Listing tools';
  return `${what} needs one of the scopes ${needed.join(', ')}; this credential has ${scopes.join(', ')}`;
}

/** Throws 403 `forbidden` when `toolScopeRefusal` refuses. */
export function checkToolScopes(principal: Principal, action: ToolAction): void {
  const refusal = toolScopeRefusal(principal, action);
  if (refusal !== undefined) throw new HttpError(403, 'forbidden', refusal);
}
