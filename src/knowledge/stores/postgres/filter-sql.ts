import { ValidationError } from '../../../errors/validation-error.js';
import type { KnowledgeFilter } from '../../../types/knowledge.js';
import { type FilterNode, ISO_DATE, parseFilter } from '../../metadata-filter.js';

const SQL_OP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * `AND …` condition over `c.metadata` (JSONB) for a metadata filter (see {@link parseFilter}), with
 * its parameters; empty for no filter. Equality is JSONB containment (`@>`, JSON types matched:
 * `true` is not `1`); numbers are compared as `numeric`, dates as
 * `timestamptz` (text values shaped like an ISO 8601 date; no offset means UTC).
 */
export function pgFilterSql(filter: KnowledgeFilter | undefined): { sql: string; params: unknown[] } {
  const node = parseFilter(filter);
  if (!node) return { sql: '', params: [] };
  const params: unknown[] = [];
  return { sql: ` AND ${condition(node, params)}`, params };
}

function contains(key: string, value: unknown, params: unknown[]): string {
  params.push(JSON.stringify({ [key]: value }));
  return 'c.metadata @> ?::jsonb';
}

function condition(node: FilterNode, params: unknown[]): string {
  switch (node.op) {
    case 'and':
    case 'or':
      if (node.nodes.length === 0) return node.op === 'and' ? 'TRUE' : 'FALSE';
      return `(${node.nodes.map((n) => condition(n, params)).join(node.op === 'and' ? ' AND ' : ' OR ')})`;
    case 'eq':
      return contains(node.key, node.value, params);
    case 'ne':
      return `NOT ${contains(node.key, node.value, params)}`;
    case 'in':
    case 'nin': {
      const any = node.values.length === 0 ? 'FALSE' : node.values.map((v) => contains(node.key, v, params)).join(' OR ');
      return `${node.op === 'nin' ? 'NOT ' : ''}(${any})`;
    }
    case 'exists':
      params.push(node.key);
      return `(c.metadata -> ?::text) IS ${node.value ? 'NOT ' : ''}NULL`;
    case 'startsWith':
      params.push(node.key, node.key, [...node.prefix].length, node.prefix); // characters, as left() counts
      return `COALESCE(jsonb_typeof(c.metadata -> ?::text) = 'string' AND left(c.metadata ->> ?::text, ?::int) = ?::text, FALSE)`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (node.bound.kind === 'number') {
        params.push(node.key, node.key, node.bound.value);
        return `COALESCE(CASE WHEN jsonb_typeof(c.metadata -> ?::text) = 'number' THEN (c.metadata ->> ?::text)::numeric ${SQL_OP[node.op]} ?::numeric END, FALSE)`;
      }
      params.push(node.key, node.key, ISO_DATE.source, node.key, node.key, node.key, node.bound.value);
      return (
        `COALESCE(CASE WHEN jsonb_typeof(c.metadata -> ?::text) = 'string' AND (c.metadata ->> ?::text) ~ ? THEN ` +
        `(CASE WHEN (c.metadata ->> ?::text) ~ '(Z|[+-][0-9][0-9]:[0-9][0-9])$' THEN (c.metadata ->> ?::text)::timestamptz ` +
        `ELSE (c.metadata ->> ?::text)::timestamp AT TIME ZONE 'UTC' END) ${SQL_OP[node.op]} ?::timestamptz END, FALSE)`
      );
    default: {
      const never: never = node;
      throw new ValidationError(`Unknown filter node ${JSON.stringify(never)}`);
    }
  }
}
