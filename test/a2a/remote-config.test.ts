import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { RemoteAgent } from '../../src/a2a/index.js';
import { formatConfigIssue, loadRuntime, validateConfigText } from '../../src/runtime/index.js';
import { type SdkServer, startSdkServer } from './sdk-server.js';

let sdk: SdkServer;
beforeAll(async () => {
  sdk = await startSdkServer({ requireHeader: ['Authorization', 'Bearer s3cret'] });
});
afterAll(() => sdk.close());

const issues = (text: string, env: Record<string, string> = {}) =>
  validateConfigText(text, { file: 'corvid.yaml', env }).issues.map(formatConfigIssue);

describe('type: remote agents in corvid.yaml', () => {
  it('validates url, headers, timeout and a2a skills', () => {
    const r = validateConfigText(
      `agents:
  far:
    type: remote
    url: \${FAR_URL:-http://127.0.0.1:9999/}
    headers: { Authorization: "Bearer \${TOKEN}" }
    timeout: 1.5s
    a2a: { skills: [{ id: s1, examples: [hi] }] }
`,
      { env: { TOKEN: 't' } },
    );
    expect(r.issues).toEqual([]);
    expect(r.config!.agents.far).toMatchObject({
      type: 'remote',
      url: 'http://127.0.0.1:9999/',
      headers: { Authorization: 'Bearer t' },
      timeoutMs: 1500,
      a2a: { skills: [{ id: 's1', examples: ['hi'] }] },
    });
  });

  it('reports a missing url, a bad url, a bad timeout and keys of other types', () => {
    expect(issues('agents:\n  far:\n    type: remote\n')).toEqual([
      expect.stringMatching(/corvid\.yaml:2:3 {2}agents\.far: a remote agent needs url/),
    ]);
    expect(issues('agents:\n  far:\n    type: remote\n    url: ftp://x\n').join('\n')).toMatch(/line 4|:4:/);
    expect(issues('agents:\n  far:\n    type: remote\n    url: ftp://x\n').join('\n')).toMatch(/must be an http\(s\) URL/);
    expect(issues('agents:\n  far:\n    type: remote\n    url: http://x/\n    timeout: soon\n').join('\n')).toMatch(
      /a duration is milliseconds or a number with ms, s or m/,
    );
    expect(issues('agents:\n  far:\n    type: remote\n    url: http://x/\n    instructions: hi\n').join('\n')).toMatch(
      /"instructions" does not apply to a remote agent/,
    );
    expect(issues('agents:\n  a:\n    instructions: hi\n    url: http://x/\n').join('\n')).toMatch(/"url" does not apply to an llm agent/);
  });

  it('builds a RemoteAgent from the config that sends the configured headers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'corvid-remote-'));
    try {
      writeFileSync(
        join(dir, 'corvid.yaml'),
        `agents:
  far:
    type: remote
    description: Remote echo
    url: \${FAR_URL}
    headers:
      Authorization: Bearer \${FAR_TOKEN}
    timeout: 10s
`,
      );
      const runtime = await loadRuntime({ cwd: dir, env: { FAR_URL: sdk.url, FAR_TOKEN: 's3cret' }, dotenv: false });
      const far = runtime.agent<RemoteAgent>('far');
      expect(far).toBeInstanceOf(RemoteAgent);
      expect(far.kind).toBe('remote');
      expect(far.description).toBe('Remote echo');
      expect((await far.run('configured')).text).toBe('remote says: configured (turn 1)');
      expect(sdk.requests.at(-1)!.authorization).toBe('Bearer s3cret');
      await runtime.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
