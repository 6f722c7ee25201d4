/** JSON-RPC error codes the served resources and prompts answer with. */
export const RPC_ERROR = {
  /** MCP's "resource not found". */
  resourceNotFound: -32002,
  invalidParams: -32602,
  internal: -32603,
} as const;

/**
 * How a served request ended: a value, or a JSON-RPC error code with a message written for the
 * client (the SDK error is built from it by the caller, so these modules need no SDK).
 */
export type RequestOutcome<T> = { ok: true; value: T } | { ok: false; code: number; message: string };

export function failure(code: number, message: string): { ok: false; code: number; message: string } {
  return { ok: false, code, message };
}
