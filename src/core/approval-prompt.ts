import type { Tool } from '../types/tool.js';

/**
 * The approver's text for a call of `tool`, or `undefined` when the call needs no approval:
 * `requireApproval: true` gives a default text; a string (or a function's string) has its
 * `{field}` / `{a.b}` placeholders filled from the input (unknown ones are left as written).
 */
export function approvalPrompt(tool: Tool, input: unknown): string | undefined {
  const rule = tool.requireApproval;
  if (rule === undefined || rule === false) return undefined;
  const value = typeof rule === 'function' ? rule(input) : rule;
  if (value === false || value === undefined || value === null) return undefined;
  if (value === true || value === '') return `Allow ${tool.name}(${short(input)})?`;
  return fillPlaceholders(String(value), input);
}

/**
 * `approvalPrompt` followed by the tool's `preview` of the call (a diff, a command), when it
 * has one; a preview that fails is replaced by a one-line note.
 */
export async function approvalPromptWithPreview(tool: Tool, input: unknown): Promise<string | undefined> {
  const prompt = approvalPrompt(tool, input);
  if (prompt === undefined || tool.preview === undefined) return prompt;
  try {
    const preview = await tool.preview(input);
    return preview ? `${prompt}\n${preview}` : prompt;
  } catch (err) {
    return `${prompt}\n(no preview: ${err instanceof Error ? err.message : String(err)})`;
  }
}

function fillPlaceholders(text: string, input: unknown): string {
  return text.replace(/\{([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\}/g, (whole, path: string) => {
    let v: unknown = input;
    for (const key of path.split('.')) {
      if (v === null || typeof v !== 'object') return whole;
      v = (v as Record<string, unknown>)[key];
    }
    if (v === undefined) return whole;
    return typeof v === 'string' ? v : short(v);
  });
}

function short(value: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(value) ?? String(value);
  } catch {
    s = String(value);
  }
  return s.length > 200 ? `${s.slice(0, 197)}...` : s;
}
