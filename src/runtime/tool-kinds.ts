import type { ToolEntryConfig } from '../config/corvid-config.js';
import { filesToolOptions } from '../config/tool-kinds/files-tool-entry.js';
import type { ToolKind, ToolKindEntry } from '../config/tool-kinds/index.js';
import { restToolOptions } from '../config/tool-kinds/rest-tool-entry.js';
import { shellToolOptions } from '../config/tool-kinds/shell-tool-entry.js';
import { slackToolOptions } from '../config/tool-kinds/slack-tool-entry.js';
import { webToolOptions } from '../config/tool-kinds/web-tool-entry.js';
import type { Tool } from '../types/tool.js';

/** What a tool-family loader gets besides its entry. */
export interface ToolKindContext {
  /** The config file's folder: relative paths of the entry start here. */
  baseDir: string;
  /** Files of the running Corvid that tools must not hand to a model (its config file, its database files). */
  protectedPaths?: readonly string[];
}

type Loader<K extends ToolKind> = (entry: Extract<ToolKindEntry, { type: K }>, ctx: ToolKindContext) => Promise<Tool[]>;

/**
 * How each built-in tool family of `tools:` (`type: files`, …) becomes tools. Each loader imports
 * its family only when called, so a config loads only the families its agents use.
 */
export const TOOL_KINDS: { [K in ToolKind]: Loader<K> } = {
  files: async (e, c) => {
    const files = await import('../tools/files/index.js');
    const options = filesToolOptions(e, c);
    await files.checkFileRoots(options);
    return files.fileTools(options);
  },
  shell: async (e, c) => [(await import('../tools/shell/index.js')).shellTool(shellToolOptions(e, c))],
  web: async (e, c) => (await import('../tools/web/index.js')).webTools(webToolOptions(e, c)),
  slack: async (e, c) => (await import('../tools/slack/index.js')).slackTools(slackToolOptions(e, c)),
  rest: async (e, c) => (await import('../tools/rest/index.js')).restTools(restToolOptions(e, c)),
};

/** Whether a `tools:` entry is a built-in tool family rather than a module. */
export function isToolKindEntry(entry: ToolEntryConfig): entry is ToolKindEntry {
  return 'type' in entry;
}

/** The tools of a built-in tool-family entry. */
export function loadToolKind(entry: ToolKindEntry, ctx: ToolKindContext): Promise<Tool[]> {
  const load = TOOL_KINDS[entry.type] as Loader<ToolKind>;
  return load(entry as never, ctx);
}
