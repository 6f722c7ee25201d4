import { ValidationError } from '../../../errors/validation-error.js';
import type { KnowledgeFilter, MetadataValue } from '../../../types/knowledge.js';
import { type FilterNode, parseFilter } from '../../metadata-filter.js';

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
 * `AND …` condition over the JSON column `column` (`c.metadata`) for a metadata filter (see
 * {@link parseFilter}), with its parameters; empty for no filter. JSON types are matched: `true`
 * never equals `1`, nor `"1"` equal `1`. Dates are compared as instants (milliseconds from
 * `julianday`), only for text values shaped like an ISO 8601 date.
 */
export function filterSql(filter: KnowledgeFilter | undefined, column: string): { sql: string; params: (string | number)[] } {
  const node = parseFilter(filter);
  if (!node) return { sql: '', params: [] };
  const params: (string | number)[] = [];
  return { sql: ` AND ${condition(node, column, params)}`, params };
}

const jsonPath = (key: string): string => `$."${key.replace(/"/g, '')}"`;

function equals(column: string, key: string, value: MetadataValue, params: (string | number)[]): string {
  const path = jsonPath(key);
  if (typeof value === 'boolean') {
    params.push(path, value ? 'true' : 'false');
    return `json_type(${column}, ?) = ?`;
  }
  params.push(path, path, typeof value === 'number' ? value : String(value));
  return typeof value === 'number'
    ? `(json_type(${column}, ?) IN ('integer', 'real') AND json_extract(${column}, ?) = ?)`
    : `(json_type(${column}, ?) = 'text' AND json_extract(${column}, ?) = ?)`;
}

const SQL_OP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function condition(node: FilterNode, column: string, params: (string | number)[]): string {
  switch (node.op) {
    case 'and':
    case 'or':
      if (node.nodes.length === 0) return node.op === 'and' ? '1' : '0';
      return `(${node.nodes.map((n) => condition(n, column, params)).join(node.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'eq':
      return `COALESCE(${equals(column, node.key, node.value, params)}, 0)`;
    case 'ne':
      return `NOT COALESCE(${equals(column, node.key, node.value, params)}, 0)`;
    case 'in':
    case 'nin': {
      const any = node.values.length === 0 ? '0' : node.values.map((v) => equals(column, node.key, v, params)).join(' OR ');
      return `${node.op === 'nin' ? 'NOT ' : ''}COALESCE((${any}), 0)`;
    }
    case 'exists':
      params.push(jsonPath(node.key));
      return `json_type(${column}, ?) IS ${node.value ? 'NOT ' : ''}NULL`;
    case 'startsWith': {
      const path = jsonPath(node.key);
      params.push(path, path, [...node.prefix].length, node.prefix); // characters, as substr counts
      return `COALESCE(json_type(${column}, ?) = 'text' AND substr(json_extract(${column}, ?), 1, ?) = ?, 0)`;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const path = jsonPath(node.key);
      if (node.bound.kind === 'number') {
        params.push(path, path, node.bound.value);
        return `COALESCE(json_type(${column}, ?) IN ('integer', 'real') AND json_extract(${column}, ?) ${SQL_OP[node.op]} ?, 0)`;
      }
      params.push(path, path, path, node.bound.ms);
      return (
        `COALESCE(CASE WHEN json_type(${column}, ?) = 'text' AND json_extract(${column}, ?) GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' ` +
        `THEN round((julianday(json_extract(${column}, ?)) - 2440587.5) * 86400000) ${SQL_OP[node.op]} ? END, 0)`
      );
    }
    default: {
      const never: never = node;
      throw new ValidationError(`Unknown filter node ${JSON.stringify(never)}`);
    }
  }
}
