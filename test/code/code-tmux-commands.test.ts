/**
 * Custom slash commands and `/mcp` in a real terminal (tmux): a project command is hinted with its description while
 * typed, Tab completes it, it sends its prompt with the arguments filled in, `/help` lists it, an unknown command
 * says so; `/mcp` lists the MCP servers of corvid.yaml, a working one with its tools and a broken one with its error.
 */
import { describe, expect, it } from 'vitest';

import { FILESYSTEM } from '../mcp/support.js';
import { lastUserText, TmuxCodeSession, tmuxCodeSessionSuite } from './tmux-code-session.js';

const missing = tmuxCodeSessionSuite();

const REVIEW = '---\ndescription: Review a file for bugs\nargument-hint: <file>\n---\nReview $ARGUMENTS for bugs; cite path:line.\n';

describe.skipIf(missing !== undefined)('corvid code custom commands and /mcp in a real terminal (tmux)', () => {
  it('a custom command is hinted, completed, listed in /help and expanded; an unknown one is reported', { timeout: 180_000 }, async () => {
    const session = await TmuxCodeSession.start([{ text: 'src/math.js:2 subtracts.' }], {
      rows: 32,
      files: { '.corvid/commands/review.md': REVIEW },
    });
    const t = session.term;
    t.type('/rev');
    const hint = await t.waitForText('Review a file for bugs');
    expect(hint).toMatch(/\/review\s+<file> Review a file for bugs/);
    t.keys('Tab');
    await t.waitForText('❯ /review ');
    t.submit('src/math.js');
    const done = await session.answered('src/math.js:2 subtracts.');
    t.snapshot('commands-01-review');
    expect(done).toContain('/review src/math.js');
    expect(lastUserText(session.requests[0])).toBe('Review src/math.js for bugs; cite path:line.');

    t.submit('/nope');
    await t.waitForText('Unknown command "/nope"');
    t.submit('/help');
    const help = await t.waitForText('Your commands');
    t.snapshot('commands-02-help');
    expect(help).toMatch(/\/review <file>\s+Review a file for bugs \(project\)/);
    expect(session.requests).toHaveLength(1);
  });

  it('/mcp lists each server: connected with its tools, or failed with the error', { timeout: 180_000 }, async () => {
    const json = JSON.stringify;
    const session = await TmuxCodeSession.start([], {
      rows: 32,
      columns: 120,
      config: (dir) =>
        `mcp_servers:\n  fs:\n    command: ${json(process.execPath)}\n    args: [${json(FILESYSTEM)}, ${json(dir)}]\n  broken:\n    command: /nonexistent/mcp-server\n`,
    });
    const t = session.term;
    t.submit('/mcp');
    const shown = await t.waitFor((s) => s.includes('MCP servers (2') && /broken\s+✗ failed/.test(s) && /fs\s+✓ connected/.test(s), {
      what: 'the /mcp list',
    });
    t.snapshot('commands-03-mcp');
    expect(shown).toMatch(/fs\s+✓ connected · \d+ tools · stdio /);
    expect(shown).toContain('read_text_file');
    expect(shown).toMatch(/error: .*nonexistent|error: .*ENOENT/);
  });
});
