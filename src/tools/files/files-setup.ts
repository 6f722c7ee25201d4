import { PathPolicy, type PathRoot } from '../path-policy.js';
import type { FileToolOptions } from './file-tool-options.js';

/** The resolved settings every file tool shares. */
export interface FilesSetup {
  policy: PathPolicy;
  maxReadBytes: number;
  maxFileBytes: number;
  maxResults: number;
  gitignore: boolean;
  ripgrep: string;
  /** Whether any root is read-write (the write tools exist). */
  writable: boolean;
}

/** Default `maxReadBytes` (256 KiB). */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;
/** Default `maxFileBytes` (20 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Default `maxResults`. */
export const DEFAULT_MAX_RESULTS = 200;

/** Builds the shared settings (and the path policy) from `fileTools()` options. */
export function filesSetup(options: FileToolOptions): FilesSetup {
  let policy = options.policy;
  if (!policy) {
    const roots: PathRoot[] = [];
    if (options.root !== undefined) roots.push({ path: options.root, mode: options.readOnly ? 'read-only' : 'read-write' });
    roots.push(...(options.roots ?? []));
    policy = new PathPolicy({
      roots,
      ...(options.deny ? { deny: options.deny } : {}),
      ...(options.refuseHardLinkedReads !== undefined ? { refuseHardLinkedReads: options.refuseHardLinkedReads } : {}),
    });
  }
  return {
    policy,
    maxReadBytes: options.maxReadBytes ?? DEFAULT_MAX_READ_BYTES,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxResults: options.maxResults ?? DEFAULT_MAX_RESULTS,
    gitignore: options.gitignore ?? true,
    ripgrep: options.ripgrep ?? 'auto',
    writable: policy.roots.some((r) => r.mode === 'read-write'),
  };
}
