/**
 * What the model should read with the user's next message besides the message itself: the output of the `!command`s
 * the user ran since the last turn, and the session's own notes (what `/undo` reverted).
 */

/** A `!command` the user ran. */
export interface ShellNote {
  command: string;
  exitCode: number | null;
  output: string;
}

const SHELL_NOTE_MAX = 4000;

/** The notes waiting for the next message. */
export class NextMessageNotes {
  private shell: ShellNote[] = [];
  private own: string[] = [];

  addShell(note: ShellNote): void {
    this.shell.push(note);
  }

  addNote(text: string): void {
    this.own.push(text);
  }

  clear(): void {
    this.shell = [];
    this.own = [];
  }

  /** `input` with the waiting notes in front (each command with its exit code and output, cut at 4000 characters); empties them. */
  take(input: string): string {
    if (this.shell.length === 0 && this.own.length === 0) return input;
    const notes = this.shell.map((n) => {
      const out = n.output.length > SHELL_NOTE_MAX ? `${n.output.slice(0, SHELL_NOTE_MAX)}\n[…]` : n.output;
      return `I ran \`${n.command}\` (exit code ${n.exitCode ?? 'none'}):\n\`\`\`\n${out}\n\`\`\``;
    });
    const all = [...this.own, ...notes];
    this.clear();
    return `${all.join('\n\n')}\n\n${input}`;
  }
}
