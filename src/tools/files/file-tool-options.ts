import type { PathPolicy, PathRoot } from '../path-policy.js';

/** Options for `fileTools()`. */
export interface FileToolOptions {
  /** The folder every path is confined to (relative paths given to the tools start here). */
  root?: string;
  /** `true`: `root` is read-only (write tools are left out when every root is). Default `false`. */
  readOnly?: boolean;
  /** More folders, each read-only or read-write (absolute paths reach them). */
  roots?: PathRoot[];
  /** Globs refused for reading and writing (see `PathPolicyOptions.deny`), e.g. `['.env', '**\/*.pem', '.git/**']`. */
  deny?: string[];
  /** Also refuse reading files with several hard links. Default `false` (writing them is always refused). */
  refuseHardLinkedReads?: boolean;
  /** Most bytes `read_file` returns at once; longer reads end with a "truncated" note. Default 256 KiB. */
  maxReadBytes?: number;
  /** Largest file `edit_file` / `multi_edit` / `grep` (JS fallback) work on. Default 20 MiB. */
  maxFileBytes?: number;
  /** Most entries `list_dir`, `glob` and `grep` return. Default 200. */
  maxResults?: number;
  /** `glob`, `grep` and `list_dir` skip what `.gitignore` files ignore. Default `true`. */
  gitignore?: boolean;
  /**
   * How `grep` searches: `'auto'` (default) uses ripgrep (`rg`) when it is on PATH and a
   * JavaScript search otherwise; `'js'` always the JavaScript search; a path: that `rg` binary.
   */
  ripgrep?: 'auto' | 'js' | string;
  /** Use this policy instead of building one from `root`/`roots`/`deny` (shared with other tools). */
  policy?: PathPolicy;
}
