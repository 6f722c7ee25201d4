/**
 * Lets code that runs during a chat turn (an MCP server's elicitation request) ask the user a
 * question on the chat's terminal. The REPL attaches itself; until then questions get no answer.
 */
export class QuestionChannel {
  private handler: ((question: string) => Promise<string | undefined>) | undefined;

  /** Called by the REPL with the function that prints a question and reads the next line. */
  attach(handler: (question: string) => Promise<string | undefined>): void {
    this.handler = handler;
  }

  /** Asks the user; resolves with the line typed, or undefined when nobody can answer. */
  ask(question: string): Promise<string | undefined> {
    return this.handler ? this.handler(question) : Promise.resolve(undefined);
  }
}
