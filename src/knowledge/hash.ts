import { createHash } from 'node:crypto';

/** SHA-256 of a text, hex: documents' `contentHash` and chunks' `hash`. */
export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash knowledge keys documents and chunks by (`KnowledgeDocument.contentHash`): SHA-256 of the text, hex. */
export const contentHash = sha256;
