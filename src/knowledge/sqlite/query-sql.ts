import type { KnowledgeFilter } from '../../types/knowledge.js';

/**
 * A user's text as an FTS5 query that cannot fail to parse: every word (a run of letters, digits
 * or `_`) becomes a quoted string, joined with OR, so quotes, `*`, `NEAR`, `-`, `:` and parentheses
 * are searched as text, never read as syntax. `undefined` when the text has no word.
 */
export function ftsQuery(text: string): string | undefined {
  const words = text.match(/[\p{L}\p{N}_]+/gu);
  if (!words) return undefined;
  return [...new Set(words.map((w) => w.toLowerCase()))].map((w) => `"${w}"`).join(' OR ');
}

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
