import { ValidationError } from '../errors/validation-error.js';
import type { KnowledgeFilter, MetadataValue } from '../types/knowledge.js';

/** A bound of a range condition: a number, or an ISO 8601 date (UTC when it has no offset). */
export type RangeBound = { kind: 'number'; value: number } | { kind: 'date'; value: string; ms: number };

/** A checked metadata filter, as the stores translate it. */
export type FilterNode =
  | { op: 'and' | 'or'; nodes: FilterNode[] }
  | { op: 'eq' | 'ne'; key: string; value: MetadataValue }
  | { op: 'in' | 'nin'; key: string; values: MetadataValue[] }
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; key: string; bound: RangeBound }
  | { op: 'exists'; key: string; value: boolean }
  | { op: 'startsWith'; key: string; prefix: string };

const RANGE_OPS = ['gt', 'gte', 'lt', 'lte'] as const;
const FIELD_OPS = new Set(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$startsWith']);

/**
 * An ISO 8601 date or date-time: `2024-05-01`, `2024-05-01T12:00`, `2024-05-01 12:00:00.5+02:00`, `…Z`
 * (an offset is written with a colon).
 * Stores test metadata strings against it before comparing them as instants.
 */
export const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:\d{2})?$/;

/** Milliseconds since the epoch of an ISO 8601 date (UTC when it has no offset); `undefined` when it is not one. */
export function isoDateMs(text: string): number | undefined {
  if (!ISO_DATE.test(text)) return undefined;
  const withTime = text.length === 10 ? `${text}T00:00:00` : text.replace(' ', 'T');
  const ms = Date.parse(/(?:Z|[+-]\d{2}:\d{2})$/.test(withTime) ? withTime : `${withTime}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

const isValue = (v: unknown): v is MetadataValue =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

const fail = (where: string, what: string): never => {
  throw new ValidationError(`Knowledge filter: ${where} ${what}`);
};

/**
 * Checks a metadata filter and turns it into a {@link FilterNode}; `undefined` for no filter or an
 * empty one. Throws a `ValidationError` naming the offending key (`filter.year.$gt must be a number
 * or an ISO 8601 date`) for an unknown operator, a wrong operand or a malformed `$and` / `$or`.
 */
export function parseFilter(filter: KnowledgeFilter | undefined, where = 'filter'): FilterNode | undefined {
  if (filter === undefined) return undefined;
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) fail(where, 'must be an object of metadata keys');
  const nodes: FilterNode[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (condition === undefined) continue;
    if (key === '$and' || key === '$or') nodes.push(combination(key, condition, `${where}.${key}`));
    else if (key.startsWith('$'))
      fail(
        `${where}.${key}`,
        'is not an operator: use $and or $or here, or $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists, $startsWith on a key',
      );
    else nodes.push(...fieldNodes(key, condition, `${where}.${key}`));
  }
  return nodes.length === 0 ? undefined : nodes.length === 1 ? nodes[0] : { op: 'and', nodes };
}

function combination(key: '$and' | '$or', value: unknown, where: string): FilterNode {
  if (!Array.isArray(value) || value.length === 0) fail(where, 'must be a non-empty array of filters');
  const nodes = (value as unknown[]).map(
    (f, i) => parseFilter(f as KnowledgeFilter, `${where}[${i}]`) ?? { op: 'and' as const, nodes: [] },
  );
  return { op: key === '$and' ? 'and' : 'or', nodes };
}

function fieldNodes(key: string, condition: unknown, where: string): FilterNode[] {
  if (isValue(condition)) return [{ op: 'eq', key, value: condition }];
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) {
    return fail(where, `must be a string, a number, a boolean or an object of operators, got ${JSON.stringify(condition)}`);
  }
  const entries = Object.entries(condition).filter(([, v]) => v !== undefined);
  if (entries.length === 0) fail(where, 'has no condition');
  return entries.map(([op, operand]) => fieldNode(key, op, operand, `${where}.${op}`));
}

function fieldNode(key: string, op: string, operand: unknown, where: string): FilterNode {
  if (!FIELD_OPS.has(op)) return fail(where, 'is not an operator: use $eq, $ne, $in, $nin, $gt, $gte, $lt, $lte, $exists or $startsWith');
  switch (op) {
    case '$eq':
    case '$ne':
      if (!isValue(operand)) fail(where, `must be a string, a number or a boolean, got ${JSON.stringify(operand)}`);
      return { op: op === '$eq' ? 'eq' : 'ne', key, value: operand as MetadataValue };
    case '$in':
    case '$nin':
      if (!Array.isArray(operand) || !operand.every(isValue)) fail(where, 'must be an array of strings, numbers or booleans');
      return { op: op === '$in' ? 'in' : 'nin', key, values: operand as MetadataValue[] };
    case '$exists':
      if (typeof operand !== 'boolean') fail(where, `must be true or false, got ${JSON.stringify(operand)}`);
      return { op: 'exists', key, value: operand as boolean };
    case '$startsWith':
      if (typeof operand !== 'string') fail(where, `must be a string, got ${JSON.stringify(operand)}`);
      return { op: 'startsWith', key, prefix: operand as string };
    default:
      return { op: RANGE_OPS.find((r) => `$${r}` === op)!, key, bound: rangeBound(operand, where) };
  }
}

function rangeBound(operand: unknown, where: string): RangeBound {
  if (typeof operand === 'number' && Number.isFinite(operand)) return { kind: 'number', value: operand };
  const ms = typeof operand === 'string' ? isoDateMs(operand) : undefined;
  if (ms === undefined)
    return fail(where, `must be a number or an ISO 8601 date (2024-05-01, 2024-05-01T12:00:00Z), got ${JSON.stringify(operand)}`);
  return { kind: 'date', value: new Date(ms).toISOString(), ms };
}

/** Whether chunk metadata matches a checked filter (the memory store's evaluation, and the reference for the others). */
export function matchesFilter(node: FilterNode | undefined, metadata: Record<string, MetadataValue>): boolean {
  if (!node) return true;
  switch (node.op) {
    case 'and':
      return node.nodes.every((n) => matchesFilter(n, metadata));
    case 'or':
      return node.nodes.some((n) => matchesFilter(n, metadata));
    case 'eq':
      return Object.hasOwn(metadata, node.key) && metadata[node.key] === node.value;
    case 'ne':
      return !Object.hasOwn(metadata, node.key) || metadata[node.key] !== node.value;
    case 'in':
      return Object.hasOwn(metadata, node.key) && node.values.includes(metadata[node.key]!);
    case 'nin':
      return !Object.hasOwn(metadata, node.key) || !node.values.includes(metadata[node.key]!);
    case 'exists':
      return Object.hasOwn(metadata, node.key) === node.value;
    case 'startsWith': {
      const value = Object.hasOwn(metadata, node.key) ? metadata[node.key] : undefined;
      return typeof value === 'string' && value.startsWith(node.prefix);
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return inRange(node.op, node.bound, Object.hasOwn(metadata, node.key) ? metadata[node.key] : undefined);
    default: {
      const never: never = node;
      throw new ValidationError(`Unknown filter node ${JSON.stringify(never)}`);
    }
  }
}

function inRange(op: 'gt' | 'gte' | 'lt' | 'lte', bound: RangeBound, value: MetadataValue | undefined): boolean {
  let x: number | undefined;
  if (bound.kind === 'number') x = typeof value === 'number' ? value : undefined;
  else x = typeof value === 'string' ? isoDateMs(value) : undefined;
  if (x === undefined) return false;
  const b = bound.kind === 'number' ? bound.value : bound.ms;
  return op === 'gt' ? x > b : op === 'gte' ? x >= b : op === 'lt' ? x < b : x <= b;
}
