import type { Tool } from '../types/tool.js';
import type { Runnable } from './runnable.js';

/**
 * Marks a tool that reads or writes what belongs to the calling user (`ToolContext.userId`): the
 * memory tools and `search_conversations`. Without a user such a tool falls back to what every
 * caller shares (the `default` user's memories, every session), which is right on a server
 * without authentication; hosts running tools for callers outside a chat turn (the MCP server
 * and REST tool gateway of `corvid serve`) refuse it instead when authentication is on and the
 * caller is not identified.
 */
export const USER_SCOPED: unique symbol = Symbol.for('corvid.userScoped');

/** Marks `t` as user-scoped (see `USER_SCOPED`) and returns it. */
export function userScoped<T extends Tool>(t: T): T {
  return Object.assign(t, { [USER_SCOPED]: true });
}

/** Whether `t` carries the `USER_SCOPED` mark. */
export function isUserScoped(t: Tool): boolean {
  return (t as Tool & { [USER_SCOPED]?: boolean })[USER_SCOPED] === true;
}

/** Whether `agent`, or an agent it runs or hands over to, has a user-scoped tool (see `USER_SCOPED`). */
export function usesUserScopedTools(agent: Runnable): boolean {
  const seen = new Set<Runnable>();
  const visit = (a: Runnable): boolean => {
    if (seen.has(a)) return false;
    seen.add(a);
    const tools = (a as { tools?: readonly Tool[] }).tools;
    return (Array.isArray(tools) && tools.some(isUserScoped)) || a.subAgents.some(visit);
  };
  return visit(agent);
}
