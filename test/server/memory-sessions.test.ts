import { describe, expect, it } from 'vitest';

import { MemoryChatSessions } from '../../src/server/sessions/chat-sessions.js';
import { chat, scriptedAgent, startServer } from './helpers.js';

describe('in-memory chat sessions', () => {
  it('keep at most maxSessions: the oldest is forgotten (404), newer ones continue', async () => {
    const { server, url } = await startServer([scriptedAgent('helper')], { sessions: new MemoryChatSessions({ maxSessions: 2 }) });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await (await chat(url, 'helper', { message: `s${i}` })).json()).sessionId);
      expect((await chat(url, 'helper', { message: 'again', sessionId: ids[0] })).status).toBe(404);
      expect((await chat(url, 'helper', { message: 'again', sessionId: ids[2] })).status).toBe(200);
      const list = await (await fetch(`${url}/api/v1/sessions`)).json();
      expect(list.sessions.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
      const badCursor = await fetch(`${url}/api/v1/sessions?cursor=ses_abc`);
      expect(badCursor.status).toBe(400);
      expect((await badCursor.json()).error.message).toContain('"cursor"');
    } finally {
      await server.close();
    }
  });
});
