import type { KnowledgeFilter } from '../../types/knowledge.js';

/** The words of a user's text (runs of letters, digits or `_`), lower-cased, each once. */
export function queryWords(text: string): string[] {
  return [...new Set((text.match(/[\p{L}\p{N}_]+/gu) ?? []).map((w) => w.toLowerCase()))];
}

/**
 * Words as an FTS5 query that cannot fail to parse: every word becomes a quoted string, joined with
 * OR, so quotes, `*`, `NEAR`, `-`, `:` and parentheses are searched as text, never read as syntax.
 */
export const orQuery = (words: string[]): string => words.map((w) => `"${w}"`).join(' OR ');

/**
 * `AND …` conditions over the JSON column `column` (`c.metadata`) for an exact-match filter, with
 * their parameters. The JSON type is matched too: `true` never equals `1`, nor `"1"` equal `1`.
 */
export function filterSql(filter: KnowledgeFilter | undefined, column: string): { sql: string; params: (string | number)[] } {
  let sql = '';
  const params: (string | number)[] = [];
  for (const [key, value] of Object.entries(filter ?? {})) {
    const path = `$."${key.replace(/"/g, '')}"`;
    if (typeof value === 'boolean') {
      sql += ` AND json_type(${column}, ?) = ?`;
      params.push(path, value ? 'true' : 'false');
    } else if (typeof value === 'number') {
      sql += ` AND json_type(${column}, ?) IN ('integer', 'real') AND json_extract(${column}, ?) = ?`;
      params.push(path, path, value);
    } else {
      sql += ` AND json_type(${column}, ?) = 'text' AND json_extract(${column}, ?) = ?`;
      params.push(path, path, String(value));
    }
  }
  return { sql, params };
}
