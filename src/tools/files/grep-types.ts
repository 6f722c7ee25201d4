/** A search `grep` runs, by ripgrep or in JavaScript (same results either way). */
export interface GrepQuery {
  /** The regular expression as given (JavaScript syntax; ripgrep gets the same text). */
  pattern: string;
  ignoreCase: boolean;
  /** Real folder searched (or the folder of `file`). */
  dir: string;
  /** Search only this file (a name in `dir`) instead of the whole folder. */
  file?: string;
  /** Only files whose path (relative to `dir`) matches this glob. */
  fileGlob?: string;
  /** Lines of context around each match. */
  context: number;
  /** Most matching lines returned. */
  maxResults: number;
  gitignore: boolean;
  maxFileBytes: number;
  /** Leave out these paths (relative to `dir`): deny patterns. */
  skip: (relative: string, isDir: boolean) => boolean;
  /** Skip regular files with several hard links (they may alias files outside the roots). */
  skipHardLinks: boolean;
  signal?: AbortSignal;
}

/** One line of a result: a match or context. */
export interface GrepLine {
  no: number;
  text: string;
  match: boolean;
}

/** The lines found in one file (path relative to the query's `dir`, `/`-separated). */
export interface GrepFileHits {
  path: string;
  lines: GrepLine[];
}
