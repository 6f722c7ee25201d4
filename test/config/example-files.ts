import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's examples directory. */
export const EXAMPLES_DIR = join(import.meta.dirname, '..', '..', 'examples');

/** Every `examples/**\/*.yaml` (and `.yml`) file, sorted. */
export function exampleFiles(): string[] {
  return (readdirSync(EXAMPLES_DIR, { recursive: true }) as string[])
    .filter((f) => /\.ya?ml$/.test(f))
    .map((f) => join(EXAMPLES_DIR, f))
    .sort();
}

/** Code tools an example declares in its header (`# Code tools: add, multiply`). */
export function declaredTools(text: string): string[] {
  const m = /^# Code tools: (.+)$/m.exec(text);
  return m ? m[1].split(',').map((s) => s.trim()) : [];
}
