import type { CodeCustomCommand } from './code-session-types.js';
import { type CustomCommand, type CustomCommands, loadCustomCommands } from './custom-commands.js';

/** A session's custom slash commands: read again on each use (files added or changed take effect at once). */
export class CustomCommandStore {
  private commands: Map<string, CustomCommand>;
  private readonly reported = new Set<string>();

  /**
   * @param initial the commands read when the session opened
   * @param warn called once per file that cannot be read as a command
   */
  constructor(
    private readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
    initial: CustomCommands | undefined,
    private readonly warn: (text: string) => void,
  ) {
    this.commands = initial?.commands ?? new Map();
    this.report(initial?.problems ?? []);
  }

  /** The commands as last read, for completion and `/help`. */
  list(): CodeCustomCommand[] {
    return [...this.commands.values()].map(({ name, description, argumentHint, scope }) => ({
      name,
      scope,
      ...(description !== undefined ? { description } : {}),
      ...(argumentHint !== undefined ? { argumentHint } : {}),
    }));
  }

  /** Reads the commands again; returns them by lower-case name. */
  async reload(): Promise<Map<string, CustomCommand>> {
    const { commands, problems } = await loadCustomCommands(this.cwd, this.env);
    this.commands = commands;
    this.report(problems);
    return commands;
  }

  private report(problems: string[]): void {
    for (const p of problems) {
      if (this.reported.has(p)) continue;
      this.reported.add(p);
      this.warn(`Custom command not loaded: ${p}`);
    }
  }
}
