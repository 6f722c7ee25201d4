import { ValidationError } from '../errors/validation-error.js';

// Words that change data or schema, or run code; refused anywhere outside strings and comments
// (a data-modifying CTE such as `WITH x AS (DELETE …) SELECT …` is refused too).
const WRITING =
  /\b(insert|update|delete|merge|upsert|drop|alter|create|truncate|grant|revoke|attach|detach|pragma|vacuum|reindex|copy|call|exec|execute|do|load_file|into|lock|set|begin|commit|rollback|savepoint|release|analyze|handler)\b/i;

/**
 * Checks that `sql` is one read-only statement: a single `SELECT` or `WITH … SELECT` (a trailing
 * `;` allowed), with no word that writes (`INSERT`, `UPDATE`, `DELETE`, `DROP`, `INTO`, `PRAGMA`, …)
 * outside string literals, quoted names and comments. The drivers also run it read-only.
 * @throws ValidationError naming `where` and what was found.
 */
export function assertReadOnlySelect(sql: string, where: string): void {
  if (typeof sql !== 'string' || !sql.trim()) throw new ValidationError(`${where}: "query" must be a SELECT statement`);
  const bare = stripLiterals(sql).trim().replace(/;\s*$/, '');
  if (bare.includes(';')) throw new ValidationError(`${where}: "query" must be a single statement (found more than one, separated by ";")`);
  if (!/^\(*\s*(select|with)\b/i.test(bare)) {
    throw new ValidationError(`${where}: "query" must be a SELECT (or WITH … SELECT) statement; knowledge sources only read`);
  }
  const bad = WRITING.exec(bare);
  if (bad) throw new ValidationError(`${where}: "query" must only read, but it contains ${bad[1]!.toUpperCase()}`);
}

/** `sql` with string literals, quoted identifiers and comments blanked out. */
function stripLiterals(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"(?:[^"]|"")*"/g, '""')
    .replace(/`(?:[^`]|``)*`/g, '``');
}
