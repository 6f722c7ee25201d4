import type { Artifact, Part } from '@a2a-js/sdk';

/** One part of a `ToolArtifact`: text, JSON data, or a file given by its bytes (base64) or a URL. */
export type ToolArtifactPart =
  | { text: string }
  | { data: Record<string, unknown> }
  | { file: { name?: string; mediaType?: string; bytes: string } }
  | { file: { name?: string; mediaType?: string; url: string } };

/**
 * What a tool returns to hand its caller a file or data: over A2A, each top-level tool result of
 * this form becomes an artifact of the task (with file parts and data parts), before the answer
 * artifact. The model sees it as the tool's JSON result, as any other. Made by `toolArtifact()`.
 */
export interface ToolArtifact {
  type: 'artifact';
  name?: string;
  description?: string;
  parts: ToolArtifactPart[];
}

/**
 * A tool result that becomes an A2A artifact of the task.
 * @example
 * const report = tool({ name: 'report', input: z.object({}), execute: async () =>
 *   toolArtifact({ name: 'report', parts: [{ file: { name: 'report.csv', mediaType: 'text/csv', bytes: btoa(csv) } }, { data: { rows: 42 } }] }) });
 */
export function toolArtifact(artifact: Omit<ToolArtifact, 'type'>): ToolArtifact {
  return { type: 'artifact', ...artifact };
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optStr = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

/** The A2A part of one `ToolArtifactPart`; undefined when it is not one. */
function partOf(p: unknown): Part | undefined {
  if (!isObj(p)) return undefined;
  if (typeof p.text === 'string')
    return { content: { $case: 'text', value: p.text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
  if (isObj(p.data)) return { content: { $case: 'data', value: p.data }, metadata: undefined, filename: '', mediaType: 'application/json' };
  const f = p.file;
  if (!isObj(f) || !optStr(f.name) || !optStr(f.mediaType)) return undefined;
  const meta = { metadata: undefined, filename: f.name ?? '', mediaType: f.mediaType ?? 'application/octet-stream' };
  if (typeof f.bytes === 'string') return { content: { $case: 'raw', value: Buffer.from(f.bytes, 'base64') }, ...meta };
  if (typeof f.url === 'string') return { content: { $case: 'url', value: f.url }, ...meta };
  return undefined;
}

/**
 * The A2A artifact a tool's output stands for (a `ToolArtifact`, with at least one valid part),
 * with id `artifactId`; undefined for any other output.
 */
export function artifactFromToolOutput(output: unknown, artifactId: string): Artifact | undefined {
  if (!isObj(output) || output.type !== 'artifact' || !Array.isArray(output.parts) || !optStr(output.name) || !optStr(output.description))
    return undefined;
  const parts: Part[] = [];
  for (const p of output.parts) {
    const part = partOf(p);
    if (!part) return undefined;
    parts.push(part);
  }
  if (parts.length === 0) return undefined;
  return { artifactId, name: output.name ?? '', description: output.description ?? '', parts, metadata: undefined, extensions: [] };
}
