/** Reads the `charset` parameter of a Content-Type header. */
export function contentTypeCharset(contentType: string | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return m?.[1];
}

/** The encoding a document declares in its first bytes: `<meta charset>`, `<meta http-equiv … charset=>` or `<?xml encoding>`. */
export function declaredCharset(head: Buffer): string | undefined {
  const text = head.subarray(0, 4096).toString('latin1');
  const meta = /<meta\s[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(text);
  if (meta) return meta[1];
  return /^<\?xml[^>]*\sencoding\s*=\s*["']([\w.:-]+)["']/i.exec(text)?.[1];
}

function bomCharset(body: Buffer): { charset: string; skip: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', skip: 3 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', skip: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', skip: 2 };
  return undefined;
}

/**
 * Decodes a body to text: a byte-order mark wins, then the Content-Type charset, then what the
 * document declares (`<meta charset>`, XML declaration), then UTF-8. Unknown labels fall back to
 * UTF-8; undecodable bytes become U+FFFD.
 */
export function decodeText(body: Buffer, contentType: string | undefined): { text: string; charset: string } {
  const bom = bomCharset(body);
  const label = bom?.charset ?? contentTypeCharset(contentType) ?? declaredCharset(body) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { ignoreBOM: false });
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return { text: decoder.decode(body), charset: decoder.encoding };
}
