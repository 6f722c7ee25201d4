/** Global flags, parsed before any command runs. */
export interface GlobalFlags {
  /** `-c/--config`. */
  config?: string;
  debug: boolean;
  noColor: boolean;
}

/** What a command receives. Streams and environment are injectable for tests. */
export interface CliContext {
  /** Parsed flags of the command (global ones included) and its positionals. */
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  globals: GlobalFlags;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** A command's entry point; resolves with the process exit code. */
export type CommandMain = (context: CliContext) => Promise<number>;

/** Bad command-line usage: reported with a hint and exit code 2. */
export class UsageError extends Error {
  /** The command whose help to point at, if any. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** Exit codes of the CLI. */
export const EXIT = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;
