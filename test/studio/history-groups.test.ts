import { describe, expect, it } from 'vitest';

import type { SessionMessage } from '../../studio/src/api-types.js';
import { groupHistory, userText } from '../../studio/src/history-groups.js';

describe('a stored session cut into turns', () => {
  it('groups consecutive messages of one run, keeps messages without a run as they are, leaves system messages out', () => {
    const messages: SessionMessage[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'old question' },
      { role: 'assistant', content: 'old answer' },
      { role: 'user', content: [{ type: 'text', text: 'research corvids' }], runId: 'run_1' },
      { role: 'assistant', content: [{ type: 'tool-call', toolName: 'ask_researcher' }], runId: 'run_1' },
      { role: 'tool', content: [{ type: 'tool-result', toolName: 'ask_researcher' }], runId: 'run_1' },
      { role: 'assistant', content: 'Crows and ravens.', runId: 'run_1' },
      { role: 'user', content: 'tell a story', runId: 'run_2' },
      { role: 'assistant', content: [{ type: 'text', text: 'Once upon' }], runId: 'run_2', interrupted: true },
    ];
    const groups = groupHistory(messages);
    expect(groups.map((g) => [g.kind, g.kind === 'run' ? g.runId : '-', g.messages.length])).toEqual([
      ['messages', '-', 2],
      ['run', 'run_1', 4],
      ['run', 'run_2', 2],
    ]);
    expect(userText(groups[1].messages)).toBe('research corvids');
    expect(userText(groups[2].messages)).toBe('tell a story');
    expect(userText([{ role: 'assistant', content: 'no question' }])).toBe('');
  });
});
