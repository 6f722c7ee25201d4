import { ValidationError } from '../../errors/validation-error.js';
import type { Memory, MemoryRecord } from '../../types/storage/memories.js';
import { normalizeMemory } from './validate.js';

/** Memories as `{ [key]: record }` (the export format). */
export function exportRecords(memories: Memory[]): Record<string, MemoryRecord> {
  const out: Record<string, MemoryRecord> = {};
  for (const m of memories) {
    const r: MemoryRecord = {
      value: m.value,
      tags: m.tags,
      importance: m.importance,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
    };
    if (m.category !== undefined) r.category = m.category;
    out[m.key] = r;
  }
  return out;
}

function time(key: string, field: string, v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  const t = v instanceof Date ? v.getTime() : typeof v === 'string' || typeof v === 'number' ? new Date(v).getTime() : NaN;
  if (!Number.isFinite(t)) throw new ValidationError(`Memory "${key}": ${field} is not a valid date`);
  return t;
}

/** Validates an import object completely before anything is written. */
export function prepareImport(
  data: Record<string, Partial<MemoryRecord> & { value: string }>,
): { memory: ReturnType<typeof normalizeMemory>; createdAt?: number; updatedAt?: number }[] {
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new ValidationError('Memories to import must be an object of key → memory record');
  return Object.entries(data).map(([key, r]) => {
    if (!r || typeof r !== 'object') throw new ValidationError(`Memory "${key}": the record must be an object with a value`);
    const memory = normalizeMemory({ key, value: r.value, category: r.category ?? undefined, tags: r.tags, importance: r.importance });
    return { memory, createdAt: time(key, 'createdAt', r.createdAt), updatedAt: time(key, 'updatedAt', r.updatedAt) };
  });
}
