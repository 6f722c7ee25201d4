import { extname } from 'node:path';

/** How a file is read, chosen by its extension. */
export type FileFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'json' | 'jsonl' | 'csv' | 'code';

const LANGUAGES: Record<string, string> = {
  '.ts': 'typescript', '.tsx': 'typescript', '.mts': 'typescript', '.cts': 'typescript',
  '.js': 'javascript', '.jsx': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript',
  '.py': 'python', '.go': 'go', '.rs': 'rust', '.java': 'java', '.kt': 'kotlin', '.scala': 'scala',
  '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.hpp': 'cpp', '.cs': 'csharp', '.rb': 'ruby',
  '.php': 'php', '.swift': 'swift', '.sh': 'shell', '.bash': 'shell', '.sql': 'sql', '.lua': 'lua',
  '.css': 'css', '.scss': 'scss', '.vue': 'vue', '.svelte': 'svelte', '.yaml': 'yaml', '.yml': 'yaml', '.toml': 'toml',
};

const FORMATS: Record<string, FileFormat> = {
  '.md': 'markdown', '.markdown': 'markdown', '.mdx': 'markdown',
  '.html': 'html', '.htm': 'html', '.xhtml': 'html',
  '.pdf': 'pdf', '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.csv': 'csv',
};

/** The format of a file and, for source code, its language. Unknown extensions are read as text. */
export function fileFormat(path: string): { format: FileFormat; language?: string } {
  const ext = extname(path).toLowerCase();
  const language = LANGUAGES[ext];
  if (language) return { format: 'code', language };
  return { format: FORMATS[ext] ?? 'text' };
}
