import { createHash } from 'node:crypto';

const ALLOWED = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The name the model sees for tool `tool` of server `server`: `<server>_<tool>`, with every
 * character outside `[a-zA-Z0-9_-]` replaced by `_` (provider name rules). Names longer than 64
 * characters are cut and end in a short hash of the full name, so they stay distinct.
 * @example mcpToolName('files', 'read.file') // 'files_read_file'
 */
export function mcpToolName(server: string, tool: string): string {
  const raw = `${server}_${tool}`;
  const name = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  if (ALLOWED.test(name)) return name;
  const hash = createHash('sha256').update(raw).digest('hex').slice(0, 8);
  return `${name.slice(0, 55)}_${hash}`;
}

/** Whether a tool passes a server's `include` / `exclude` filters. */
export function toolAllowed(tool: string, filters: { include?: readonly string[]; exclude?: readonly string[] }): boolean {
  if (filters.include && !filters.include.includes(tool)) return false;
  return !filters.exclude?.includes(tool);
}
