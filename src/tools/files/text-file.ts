import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A tool refusal or failure the model should read as it is (no stack, no wrapping). */
export class FileToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileToolError';
  }
}

const SNIFF_BYTES = 8000;

/** Whether `buf` looks binary: a NUL byte in its first 8000 bytes (as git and ripgrep decide). */
export function looksBinary(buf: Uint8Array): boolean {
  const end = Math.min(buf.length, SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (buf[i] === 0) return true;
  return false;
}

/**
 * Reads a text file for editing: refuses folders, files over `maxBytes` and binary files with a
 * message naming `shown` (the path as the model sees it).
 */
export async function readTextFile(path: string, shown: string, maxBytes: number): Promise<string> {
  const handle = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    throw new FileToolError(fsMessage(err, shown));
  });
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new FileToolError(`${shown} is a folder, not a file (use list_dir).`);
    if (info.size > maxBytes) throw new FileToolError(`${shown} is ${info.size} bytes, over the ${maxBytes}-byte limit for this tool.`);
    const buf = await handle.readFile();
    if (looksBinary(buf)) throw new FileToolError(`${shown} is a binary file; only text files can be read or edited.`);
    return buf.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Reads the whole file as bytes (no checks). */
export function readBytes(path: string): Promise<Buffer> {
  return readFile(path);
}

/**
 * Writes `content` atomically: a temporary file beside the target, then a rename (readers see the
 * old or the new file, never half of one). Creates missing parent folders and keeps the mode of a
 * file it replaces.
 */
export async function writeFileAtomic(path: string, content: string, mode?: number): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode ?? 0o644);
    try {
      await handle.writeFile(content, 'utf8');
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** A file-system error as a sentence about `shown`. */
export function fsMessage(err: NodeJS.ErrnoException, shown: string): string {
  switch (err.code) {
    case 'ENOENT':
      return `${shown} does not exist.`;
    case 'EISDIR':
      return `${shown} is a folder, not a file.`;
    case 'ENOTDIR':
      return `a part of ${shown} is a file, not a folder.`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied for ${shown}.`;
    default:
      return `${shown}: ${err.message}`;
  }
}
