import { createServer } from 'node:net';

import { describe, expect, it } from 'vitest';

import { redactedErrorMessage, redactUrl, redactUrls } from '../../src/core/redact-urls.js';

describe('redactUrl / redactUrls', () => {
  it('masks credentials and drops the query string and fragment of a URL', () => {
    expect(redactUrl('https://u:pw-SECRET@hooks.example.com:8443/x/y?sig=QSECRET1&a=b#frag')).toBe(
      'https://***@hooks.example.com:8443/x/y',
    );
    expect(redactUrl('http://127.0.0.1:9/hook')).toBe('http://127.0.0.1:9/hook');
    expect(redactUrl('http://only-user@h/x')).toBe('http://***@h/x');
    // Malformed URLs too: an unencoded "/" in a password, a single slash.
    expect(redactUrl('http://u:pa/ss-SECRET@h/x')).toBe('http://***@h/x');
    expect(redactUrl('http:/u:pw-SECRET@h/x')).toBe('http:/***@h/x');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('redacts every URL inside a text and leaves the rest as it is', () => {
    const text =
      'Request cannot be constructed from a URL that includes credentials: http://u:pw-SECRET@127.0.0.1:4000/x?sig=QSECRET1; also see postgres://app:db-SECRET@db:5432/app.';
    const out = redactUrls(text);
    expect(out).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://***@127.0.0.1:4000/x; also see postgres://***@db:5432/app.',
    );
    expect(redactUrls('(to http://h/x?sig=QSECRET1), then https://h/y?t=1#f.')).toBe('(to http://h/x), then https://h/y.');
    expect(redactUrls('no URL here: 127.0.0.1:80 user@example.com')).toBe('no URL here: 127.0.0.1:80 user@example.com');
  });

  it('keeps JSON text valid (URLs end at quotes and escapes)', () => {
    const line = JSON.stringify({
      msg: 'to "http://u:pw-SECRET@h/x?sig=QSECRET1" failed',
      err: { message: 'at\nhttp://h/y?token=T-SECRET\\' },
    });
    const out = redactUrls(line);
    expect(JSON.parse(out)).toEqual({ msg: 'to "http://***@h/x" failed', err: { message: 'at\nhttp://h/y\\' } });
    expect(out).not.toMatch(/SECRET/);
  });

  it('gives an error message with its causes, URLs redacted (a real fetch error)', async () => {
    const err = await fetch('http://u:pw-SECRET@127.0.0.1:1/x?sig=QSECRET1').catch((e: unknown) => e);
    expect(String((err as Error).message)).toContain('pw-SECRET'); // what undici says
    const text = redactedErrorMessage(err);
    expect(text).toContain('includes credentials: http://***@127.0.0.1:1/x');
    expect(text).not.toMatch(/pw-SECRET|QSECRET1/);
    const port = await closedPort();
    const refused = await fetch(`http://127.0.0.1:${port}/x?sig=QSECRET1`).catch((e: unknown) => e);
    expect(redactedErrorMessage(refused)).toBe(`fetch failed: connect ECONNREFUSED 127.0.0.1:${port}`);
    expect(redactedErrorMessage('plain')).toBe('plain');
  });
});

/** A port on 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}
