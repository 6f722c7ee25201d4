/**
 * The terms of a text for keyword search: lower-cased runs of letters and digits (any script),
 * so `Rate-limit` and `rate limit` match each other.
 */
export function textTerms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}
