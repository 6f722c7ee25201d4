import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { McpHub } from '../../src/mcp/index.js';
import type { Tool } from '../../src/types/tool.js';
import { FILESYSTEM, runTool, tempDir } from './support.js';

// @modelcontextprotocol/server-filesystem from npm, confined to a temporary directory.
describe('MCP client against server-filesystem', () => {
  const tmp = tempDir();
  let hub: McpHub;
  let tools: Map<string, Tool>;

  beforeAll(async () => {
    writeFileSync(join(tmp.dir, 'hello.txt'), 'Hello from disk\n');
    hub = new McpHub({ servers: { fs: { transport: 'stdio', command: process.execPath, args: [FILESYSTEM, tmp.dir] } } });
    tools = new Map((await hub.tools('fs')).map((t) => [t.name, t]));
  });
  afterAll(async () => {
    await hub.close();
    tmp.remove();
  });

  it('lists its tools with their schemas', () => {
    expect([...tools.keys()]).toEqual(expect.arrayContaining(['fs_read_text_file', 'fs_write_file', 'fs_list_directory']));
    expect(tools.get('fs_write_file')!.jsonSchema).toMatchObject({ type: 'object', required: expect.arrayContaining(['path', 'content']) });
  });

  it('reads, writes and lists files (its structuredContent reaches the model as JSON)', async () => {
    expect((await runTool(tools.get('fs_read_text_file')!, { path: join(tmp.dir, 'hello.txt') })).output).toEqual({
      content: 'Hello from disk\n',
    });
    await runTool(tools.get('fs_write_file')!, { path: join(tmp.dir, 'new.txt'), content: 'written by Corvid' });
    expect((await runTool(tools.get('fs_read_text_file')!, { path: join(tmp.dir, 'new.txt') })).output).toEqual({
      content: 'written by Corvid',
    });
    const listing = (await runTool(tools.get('fs_list_directory')!, { path: tmp.dir })).output as { content: string };
    expect(listing.content).toMatch(/\[FILE\] hello\.txt[\s\S]*\[FILE\] new\.txt/);
  });

  it('reports access outside the allowed directory as a tool error', async () => {
    await expect(runTool(tools.get('fs_read_text_file')!, { path: '/etc/hostname' })).rejects.toThrow(
      /Access denied|outside allowed directories/,
    );
  });
});
