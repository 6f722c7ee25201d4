// Tools for examples/approvals/corvid.yaml: they only touch ./sandbox under the working directory.
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { tool } from 'corvid';

const SANDBOX = join(process.cwd(), 'sandbox');

export const listFiles = tool({
  name: 'list_files',
  description: 'List the files of the sandbox folder',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  execute: async () => (await readdir(SANDBOX).catch(() => [])).sort(),
});

export const deleteFile = tool({
  name: 'delete_file',
  description: 'Delete one file of the sandbox folder',
  parameters: { type: 'object', properties: { path: { type: 'string', description: 'File name' } }, required: ['path'] },
  execute: async ({ path }) => {
    await rm(join(SANDBOX, basename(path)));
    return `deleted ${basename(path)}`;
  },
});
