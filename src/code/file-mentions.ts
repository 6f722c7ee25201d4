/**
 * `@path` mentions in a message: the files they name are read (with the session's `read_file`, so
 * its folder confinement, refused paths and size limit apply) and their numbered lines are attached
 * to the message the model receives. The message as typed is what the transcript shows.
 */
import { stat } from 'node:fs/promises';
import nodePath from 'node:path';

/** At most this many files are attached per message. */
export const MAX_MENTIONS = 10;

/** What `read_file` returns, as far as attaching needs it. */
export interface MentionRead {
  path: string;
  lines: string;
  totalLines: number;
  content: string;
  truncated?: string;
}

/** What `attachMentions` did. */
export interface MentionResult {
  /** The message with the files' contents after it (the message unchanged when nothing was attached). */
  text: string;
  /** Paths attached, as mentioned. */
  attached: string[];
  /** Mentions of existing paths that could not be attached (a folder, a refused or binary file), with why. */
  skipped: Array<{ path: string; reason: string }>;
}

const MENTION = /(?:^|\s)@([^\s@]+)/g;
/** Punctuation that ends a sentence rather than a path (`look at @src/a.ts, then …`). */
const TRAILING = /[,.;:!?)\]}'"`]+$/;

/** The distinct paths mentioned as `@path` in `input`, in order (an `@` inside a word, as in an e-mail address, is no mention). */
export function mentionedPaths(input: string): string[] {
  const out: string[] = [];
  for (const m of input.matchAll(MENTION)) {
    const path = m[1].replace(TRAILING, '');
    if (path !== '' && !out.includes(path)) out.push(path);
  }
  return out;
}

/**
 * Attaches the files mentioned in `input`. Mentions of paths that do not exist under `cwd` are left
 * as they are (`@Component`, `@user` are not files); `read` (the session's `read_file`) reads the others.
 */
export async function attachMentions(
  input: string,
  options: { cwd: string; read: (path: string) => Promise<MentionRead> },
): Promise<MentionResult> {
  const result: MentionResult = { text: input, attached: [], skipped: [] };
  const parts: string[] = [];
  for (const path of mentionedPaths(input).slice(0, MAX_MENTIONS)) {
    const exists = await stat(nodePath.resolve(options.cwd, path)).then(
      () => true,
      () => false,
    );
    if (!exists) continue;
    try {
      const r = await options.read(path);
      const note = r.truncated ? `\n(${r.truncated})` : '';
      parts.push(`<file path="${r.path}" lines="${r.lines} of ${r.totalLines}">\n${r.content}\n</file>${note}`);
      result.attached.push(path);
    } catch (error) {
      result.skipped.push({ path, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  if (parts.length > 0)
    result.text = `${input}\n\nThe files I mentioned (numbered lines, as read_file shows them):\n\n${parts.join('\n\n')}`;
  return result;
}
