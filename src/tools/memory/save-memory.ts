import { tool } from '../../core/tool.js';
import { userScoped } from '../../core/user-scoped.js';
import type { Tool } from '../../types/tool.js';
import { toolArgs } from '../tool-args.js';
import { type MemoryView, memoryView } from './memory-view.js';
import { memoryScope, type MemoryToolOptions, toolStore } from './tool-store.js';

/** Arguments of `save_memory`. */
export interface SaveMemoryArgs {
  key: string;
  value: string;
  category?: string;
  tags?: string[];
  importance?: number;
}

const args = toolArgs<SaveMemoryArgs>({
  key: {
    type: 'string',
    required: true,
    min: 1,
    max: 255,
    description:
      'Short, stable identifier such as "preferred_language" or "project_deadline". Saving an existing key replaces that memory.',
  },
  value: {
    type: 'string',
    required: true,
    min: 1,
    max: 20_000,
    description: 'The fact to remember, as a complete sentence that makes sense on its own later.',
  },
  category: { type: 'string', min: 1, max: 100, description: 'Optional group such as "preference", "fact", "task" or "person".' },
  tags: { type: 'string-array', max: 20, itemMax: 100, description: 'Optional keywords for finding the memory later.' },
  importance: { type: 'integer', min: 1, max: 10, description: '1 (trivia) to 10 (essential, always relevant). Default 5.' },
});

/** What `save_memory` returns. */
export interface SaveMemoryOutput {
  /** `created` for a new key, `updated` when the key existed (its created_at is kept). */
  status: 'created' | 'updated';
  memory: MemoryView;
}

/**
 * `save_memory`: stores a long-term memory for the current user and agent (upsert by key).
 * Uses the run's store (`ToolContext.store`), else `options.store`.
 */
export function createSaveMemory(options: MemoryToolOptions = {}): Tool<SaveMemoryArgs, SaveMemoryOutput> {
  return userScoped(
    tool({
      name: 'save_memory',
      description:
        'Save a long-term memory about the user or the task so it is available in later conversations. ' +
        'Use it when the user states a lasting preference, fact or goal, or asks you to remember something. ' +
        'Saving with an existing key updates that memory. Do not save secrets such as passwords.',
      input: args.input,
      parameters: args.parameters,
      async execute(args, context) {
        const store = await toolStore(context, 'save_memory', options);
        const scope = memoryScope(context);
        const existed = (await store.memories.get(scope, args.key)) !== undefined;
        const saved = await store.memories.save(scope, {
          key: args.key,
          value: args.value,
          ...(args.category !== undefined ? { category: args.category } : {}),
          ...(args.tags !== undefined ? { tags: args.tags } : {}),
          ...(args.importance !== undefined ? { importance: args.importance } : {}),
        });
        return { status: existed ? 'updated' : 'created', memory: memoryView(saved) };
      },
    }),
  );
}

/** `save_memory` using the run's store (`ToolContext.store`). */
export const saveMemory = createSaveMemory();
