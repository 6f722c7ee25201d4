import type { Memory } from '../../types/storage/memories.js';
import { isoSecond } from './tool-store.js';

/** A memory as the memory tools return it to the model (snake_case JSON, ISO dates). */
export interface MemoryView {
  key: string;
  value: string;
  category?: string;
  tags: string[];
  importance: number;
  created_at: string;
  updated_at: string;
}

/** The model-facing view of a stored memory. */
export function memoryView(m: Memory): MemoryView {
  return {
    key: m.key,
    value: m.value,
    ...(m.category !== undefined ? { category: m.category } : {}),
    tags: m.tags,
    importance: m.importance,
    created_at: isoSecond(m.createdAt),
    updated_at: isoSecond(m.updatedAt),
  };
}
