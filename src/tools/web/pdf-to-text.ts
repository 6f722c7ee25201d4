import { loadPeer } from '../../errors/load-peer.js';

/** The text of a PDF, pages separated by blank lines, and its title when the document has one. */
export async function pdfToText(data: Uint8Array): Promise<{ title?: string; text: string; pages: number }> {
  const { extractText, getDocumentProxy, getMeta } = await loadPeer({
    packages: 'unpdf',
    feature: 'web_fetch (PDF documents)',
    load: () => import('unpdf'),
  });
  const pdf = await getDocumentProxy(new Uint8Array(data), { verbosity: 0 });
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    let title: string | undefined;
    try {
      const meta = await getMeta(pdf);
      const t = (meta.info as { Title?: unknown } | undefined)?.Title;
      title = typeof t === 'string' && t.trim() ? t.trim() : undefined;
    } catch {
      title = undefined;
    }
    return { title, text: text.map((p) => p.trim()).join('\n\n'), pages: totalPages };
  } finally {
    await pdf.destroy();
  }
}
