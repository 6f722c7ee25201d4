// Tools for examples/research-team/corvid.yaml: a search over the Markdown notes of a folder
// ($NOTES_DIR, default: the notes/ folder next to this file), ranked by matching words.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { tool } from 'corvid';
import { z } from 'zod';

const NOTES_DIR = process.env.NOTES_DIR || fileURLToPath(new URL('notes', import.meta.url));

export const searchNotes = tool({
  name: 'search_notes',
  description: "Search the user's notes; returns the best matching paragraphs with the note they come from",
  input: z.object({ query: z.string().describe('Words to look for'), limit: z.number().int().min(1).max(20).optional() }),
  execute: async ({ query, limit = 5 }) => {
    const words = query
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 2);
    const files = (await readdir(NOTES_DIR)).filter((f) => f.endsWith('.md')).sort();
    const hits = [];
    for (const file of files) {
      const text = await readFile(join(NOTES_DIR, file), 'utf8');
      for (const paragraph of text.split(/\n\s*\n/)) {
        const lower = paragraph.toLowerCase();
        const score = words.filter((w) => lower.includes(w)).length;
        if (score > 0) hits.push({ note: file, score, text: paragraph.trim() });
      }
    }
    return hits.sort((a, b) => b.score - a.score).slice(0, limit);
  },
});
