import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { FileToolError } from './file-tool-error.js';

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
  return (await readTextBytes(path, shown, maxBytes)).text;
}

/** `readTextFile`, also returning the bytes read. */
export async function readTextBytes(path: string, shown: string, maxBytes: number): Promise<{ text: string; bytes: Buffer }> {
  const bytes = readFileLimited(path, shown, maxBytes);
  if (looksBinary(bytes)) throw new FileToolError(`${shown} is a binary file; only text files can be read or edited.`);
  return { text: bytes.toString('utf8'), bytes };
}

/**
 * The bytes of a file of at most `maxBytes`. Read with synchronous calls on purpose: a file of a
 * few MB is read in a few milliseconds, where the asynchronous API takes one thread-pool round trip
 * per 512 KiB chunk (slow when the machine is busy).
 */
export function readFileLimited(path: string, shown: string, maxBytes: number): Buffer {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const info = fstatSync(fd);
    if (info.isDirectory()) throw new FileToolError(`${shown} is a folder, not a file (use list_dir).`);
    if (info.size > maxBytes) throw new FileToolError(`${shown} is ${info.size} bytes, over the ${maxBytes}-byte limit for this tool.`);
    const buf = Buffer.allocUnsafe(info.size);
    let got = 0;
    while (got < info.size) {
      const n = readSync(fd, buf, got, info.size - got, got);
      if (n === 0) break;
      got += n;
    }
    return got === info.size ? buf : buf.subarray(0, got);
  } catch (err) {
    if (err instanceof FileToolError) throw err;
    throw new FileToolError(fsMessage(err as NodeJS.ErrnoException, shown));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Writes `content` (a string, or byte pieces written one after the other) atomically: a temporary
 * file beside the target, then a rename (readers see the old or the new file, never half of one).
 * Creates missing parent folders and keeps the mode of a file it replaces. The data is written
 * with synchronous calls (see `readFileLimited`).
 */
export async function writeFileAtomic(path: string, content: string | readonly Uint8Array[], mode?: number): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const pieces = typeof content === 'string' ? [Buffer.from(content, 'utf8')] : content;
    const fd = openSync(temp, 'wx', mode ?? 0o644);
    try {
      for (const piece of pieces) {
        for (let done = 0; done < piece.length;) done += writeSync(fd, piece, done, piece.length - done);
      }
      if (mode !== undefined) fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
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
