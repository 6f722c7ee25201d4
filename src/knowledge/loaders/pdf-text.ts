import { loadPeer } from '../../errors/load-peer.js';

/** A PDF's text, pages separated by blank lines, with the first line of each page (for page numbers in citations). */
export async function pdfPages(data: Uint8Array): Promise<{ title?: string; text: string; pageLines: number[] }> {
  const { extractText, getDocumentProxy, getMeta } = await loadPeer({
    packages: 'unpdf',
    feature: 'The knowledge PDF loader',
    load: () => import('unpdf'),
  });
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  try {
    const { text: pages } = await extractText(pdf, { mergePages: false });
    const pageLines: number[] = [];
    let line = 1;
    const parts: string[] = [];
    for (const page of pages) {
      const t = page.trim();
      pageLines.push(line);
      parts.push(t);
      line += t.split('\n').length + 1;
    }
    let title: string | undefined;
    try {
      const t = ((await getMeta(pdf)).info as { Title?: unknown } | undefined)?.Title;
      title = typeof t === 'string' && t.trim() ? t.trim() : undefined;
    } catch {
      title = undefined;
    }
    return { title, text: parts.join('\n\n'), pageLines };
  } finally {
    await pdf.destroy();
  }
}
