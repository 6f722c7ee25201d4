import { ShellSyntaxRefusal } from './shell-words.js';

type ShParse = (text: string, options?: { keepComments?: boolean; variant?: number }) => Promise<{ Stmts: Array<{ Background: boolean }> }>;

let parser: Promise<ShParse> | undefined;

/**
 * Parses the line with `sh-syntax` (mvdan/sh compiled to WebAssembly, bash dialect) and returns
 * its top-level statements. A line bash would not accept is refused with the parser's message.
 * Its tree gives statement boundaries only; the shell tool's own reader (`parseCommandLine`)
 * must agree with them before a line runs.
 */
export async function checkRealParse(line: string): Promise<Array<{ background: boolean }>> {
  parser ??= import('sh-syntax').then((m) => m.parse as unknown as ShParse);
  const parse = await parser;
  try {
    const file = await parse(line, { keepComments: false, variant: 1 });
    return file.Stmts.map((s) => ({ background: s.Background }));
  } catch (err) {
    const text = (err as { Text?: string }).Text ?? (err instanceof Error ? err.message : String(err));
    throw new ShellSyntaxRefusal(`the command line does not parse: ${text}`);
  }
}
