/**
 * web_fetch reads pages of a local server (loopback allowed explicitly): HTML as markdown with
 * title and absolute links, charsets from the header, <meta charset> or a BOM, PDFs as text,
 * other text as is, long content in parts; what it cannot read is a clear error.
 */
import { gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { webTools } from '../../../src/tools/web/index.js';
import type { Tool, ToolContext } from '../../../src/types/tool.js';
import { startPageServer, tinyPdf } from './support.js';

const ARTICLE = `<!doctype html><html><head><title>Corvid field notes</title></head><body>
<nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<article><h1>Corvid field notes</h1>
<p>Crows and ravens are <strong>corvids</strong>. They remember faces for years, and they can use tools to reach food that is otherwise out of reach.</p>
<p>Read the <a href="/guide/intro">introduction</a> or the <a href="https://example.org/ravens">raven page</a>. Ravens are larger than crows and have wedge-shaped tails.</p>
<ul><li>Memory</li><li>Tool use</li></ul>
<pre><code>const bird = 'raven';</code></pre>
</article><footer>Footer text</footer><script>alert("x")</script></body></html>`;

const ctx = (): ToolContext => ({
  signal: new AbortController().signal,
  agent: 't',
  path: ['t'],
  runId: 'r',
  toolCallId: 'c',
  idempotencyKey: 'r:c',
  messages: [],
  state: undefined as never,
});

let server: Awaited<ReturnType<typeof startPageServer>>;
let fetchTool: Tool;

beforeAll(async () => {
  const latin1 = Buffer.from('<html><head><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e</p></body></html>', 'latin1');
  server = await startPageServer({
    '/article': (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE),
    '/latin1-header': (_q, res) => res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }).end(latin1),
    '/meta-charset': (_q, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          Buffer.concat([
            Buffer.from(
              '<html><head><meta charset="iso-8859-1"><title>M\xe9ta</title></head><body><p>D\xe9j\xe0 vu</p></body></html>',
              'latin1',
            ),
          ]),
        ),
    '/meta-http-equiv': (_q, res) =>
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          Buffer.concat([
            Buffer.from(
              '<html><head><meta http-equiv="Content-Type" content="text/html; charset=shift_jis"><title>x</title></head><body><p>',
            ),
            Buffer.from([0x93, 0xfa, 0x96, 0x7b]),
            Buffer.from('</p></body></html>'),
          ]),
        ),
    '/utf16': (_q, res) =>
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('wide text ✓', 'utf16le')])),
    '/report.pdf': (_q, res) =>
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(tinyPdf('Hello from a PDF', 'Quarterly Report')),
    '/data.json': (_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"birds":["crow","raven"]}'),
    '/notes.txt': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('x'.repeat(250)),
    '/gzip': (_q, res) =>
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('compressed hello')),
    '/image.png': (_q, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0])),
    '/moved': (_q, res) => res.writeHead(302, { location: '/data.json' }).end(),
    '/broken.pdf': (_q, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4 this is not really a pdf'),
  });
  fetchTool = webTools({ allowHosts: ['127.0.0.1'], maxChars: 100 }).find((t) => t.name === 'web_fetch')!;
});
afterAll(() => server.close());

const fetchPage = async (path: string, extra: Record<string, unknown> = {}) =>
  (await fetchTool.execute({ url: `${server.url}${path}`, ...extra }, ctx())) as Record<string, unknown>;

describe('web_fetch', () => {
  it('turns an HTML page into readable markdown with its title and absolute links', async () => {
    const wide = webTools({ allowHosts: ['127.0.0.1'] })[0];
    const page = (await wide.execute({ url: `${server.url}/article` }, ctx())) as {
      url: string;
      title: string;
      content: string;
      status: number;
      contentType: string;
    };
    expect(page).toMatchObject({
      url: `${server.url}/article`,
      title: 'Corvid field notes',
      status: 200,
      contentType: 'text/html; charset=utf-8',
    });
    expect(page.content).toContain('**corvids**');
    expect(page.content).toContain(`[introduction](${server.url}/guide/intro)`);
    expect(page.content).toContain('[raven page](https://example.org/ravens)');
    expect(page.content).toMatch(/-\s+Memory/);
    expect(page.content).toContain("```\nconst bird = 'raven';\n```");
    expect(page.content).not.toContain('alert(');
    expect(page.content).not.toContain('Footer text');
    expect(server.received.at(-1)?.headers['user-agent']).toMatch(/Corvid/);
  });

  it('decodes the charset of the Content-Type header, <meta charset> and <meta http-equiv>', async () => {
    expect(await fetchPage('/latin1-header')).toMatchObject({ title: 'Café', content: 'Crème brûlée' });
    expect(await fetchPage('/meta-charset')).toMatchObject({ title: 'Méta', content: 'Déjà vu' });
    expect((await fetchPage('/meta-http-equiv')).content).toBe('日本');
    expect((await fetchPage('/utf16')).content).toBe('wide text ✓');
  });

  it('reads PDFs as text, with the document title', async () => {
    expect(await fetchPage('/report.pdf')).toMatchObject({
      title: 'Quarterly Report',
      contentType: 'application/pdf',
      content: 'Hello from a PDF',
    });
  });

  it('returns JSON and other text as is, and decompresses gzip', async () => {
    expect(await fetchPage('/data.json')).toMatchObject({ content: '{"birds":["crow","raven"]}', contentType: 'application/json' });
    expect((await fetchPage('/gzip')).content).toBe('compressed hello');
  });

  it('follows a redirect and says where the content came from', async () => {
    expect(await fetchPage('/moved')).toMatchObject({
      url: `${server.url}/data.json`,
      requestedUrl: `${server.url}/moved`,
      content: '{"birds":["crow","raven"]}',
    });
  });

  it('cuts long content at maxChars and continues from offset', async () => {
    const first = await fetchPage('/notes.txt');
    expect(first).toMatchObject({ totalChars: 250, nextOffset: 100 });
    expect((first.content as string).length).toBe(100);
    const last = await fetchPage('/notes.txt', { offset: 200 });
    expect(last).toMatchObject({ totalChars: 250 });
    expect(last.nextOffset).toBeUndefined();
    expect((last.content as string).length).toBe(50);
  });

  it('says clearly what it cannot read: binary types, error statuses, broken PDFs', async () => {
    await expect(fetchPage('/image.png')).rejects.toThrow(/content type "image\/png" \(7 bytes\) is not HTML, PDF or text/);
    await expect(fetchPage('/missing')).rejects.toThrow(/answered HTTP 404 Not Found/);
    await expect(fetchPage('/broken.pdf')).rejects.toThrow(/Could not read the PDF at .*broken\.pdf/);
    await expect(fetchTool.execute({ url: 'not a url' }, ctx())).rejects.toThrow('Not a valid URL: "not a url"');
  });
});
