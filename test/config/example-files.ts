import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's examples directory. */
export const EXAMPLES_DIR = join(import.meta.dirname, '..', '..', 'examples');

/** Every `examples/**\/*.yaml` (and `.yml`) config file, sorted (eval suites, `*.eval.yaml`, are not configs). */
export function exampleFiles(): string[] {
  return (readdirSync(EXAMPLES_DIR, { recursive: true }) as string[])
    .filter((f) => /\.ya?ml$/.test(f) && !/\.eval\.ya?ml$/.test(f))
    .map((f) => join(EXAMPLES_DIR, f))
    .sort();
}

/** Code tools an example declares in its header (`# Code tools: add, multiply`). */
export function declaredTools(text: string): string[] {
  const m = /^# Code tools: (.+)$/m.exec(text);
  return m ? m[1].split(',').map((s) => s.trim()) : [];
}

/** One command of an example's header comment, as written. */
export interface HeaderCommand {
  /** The command line (without `#` and indentation; a trailing `# comment` is kept, the shell ignores it). */
  line: string;
  /** Exit code the header says it ends with (`# … exit code 3`), else 0. */
  exitCode: number;
  /** `corvid serve`: runs until stopped. */
  serve: boolean;
  /** `corvid chat`: reads the user's messages from stdin. */
  chat: boolean;
}

const COMMAND = /^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:corvid|node|curl|mkdir)\s/;

/**
 * The commands of an example's header: the comment lines before the first YAML line that are
 * indented by three spaces and start with `corvid`, `node`, `curl` or `mkdir` (after optional
 * `VAR=value` assignments). They are meant to be run in order from the repository root.
 */
export function headerCommands(text: string): HeaderCommand[] {
  const out: HeaderCommand[] = [];
  for (const raw of text.split('\n')) {
    if (!raw.startsWith('#')) break;
    const m = /^# {3}(\S.*)$/.exec(raw);
    if (!m || !COMMAND.test(m[1])) continue;
    const line = m[1].trimEnd();
    const comment = /\s{2,}#\s(.*)$/.exec(line)?.[1] ?? '';
    const code = /exit code (\d+)/.exec(comment);
    out.push({
      line,
      exitCode: code ? Number(code[1]) : 0,
      serve: /^corvid serve\b/.test(line),
      chat: /^corvid chat\b/.test(line),
    });
  }
  return out;
}

/** Every eval suite of the examples (`examples/**\/*.eval.yaml`), sorted. */
export function exampleSuites(): string[] {
  return (readdirSync(EXAMPLES_DIR, { recursive: true }) as string[])
    .filter((f) => /\.eval\.ya?ml$/.test(f))
    .map((f) => join(EXAMPLES_DIR, f))
    .sort();
}
