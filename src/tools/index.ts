/**
 * Built-in tools (the `corvid/tools` entry point): long-term memories and conversation search,
 * backed by the run's store (`ToolContext.store`), and the tool families a config names with
 * `type:` in `tools:` — `fileTools()` for files, confined by a `PathPolicy`; `webTools()`, `slackTools()`, `restTools()`. Families with heavy
 * dependencies load them inside their tools, on first use, so importing this module stays cheap.
 * @example
 * import { Agent, memoryTools } from 'corvid';
 * const agent = new Agent({ name: 'helper', model, tools: memoryTools });
 * await agent.run('Remember that I prefer metric units', { session: 's1', store });
 * @example
 * import { fileTools } from 'corvid/tools';
 * const coder = new Agent({ name: 'coder', model, tools: fileTools({ root: './project', deny: ['.env'] }) });
 * @example
 * import { shellTool } from 'corvid/tools';
 * const dev = new Agent({ name: 'dev', model, tools: [shellTool({ cwd: './project', allow: ['npm test', 'npm run *'] })] });
 * @example
 * import { webTools, slackTools, restTools } from 'corvid/tools';
 * const tools = [...webTools({ allowHosts: ['api.github.com'] }), ...slackTools({ token }), ...(await restTools({ url: 'http://127.0.0.1:8001' }))];
 */

export { ASK_USER_RESULT, ASK_USER_TOOL, askUser, type AskUserArgs, askUserTool, type AskUserToolOptions } from './ask-user.js';
export {
  type EditFileArgs,
  type EditOutput,
  FILE_TOOL_NAMES,
  type FileToolOptions,
  fileTools,
  type GlobArgs,
  type GlobOutput,
  type GrepArgs,
  type GrepOutput,
  type ListDirArgs,
  type ListDirOutput,
  type MultiEditArgs,
  type ReadFileArgs,
  type ReadFileOutput,
  unifiedDiff,
  type UnifiedDiffOptions,
  type WriteFileArgs,
  type WriteFileOutput,
} from './files/index.js';
export {
  builtinTools,
  type ConversationHitView,
  createGetMemories,
  createMemoryTools,
  createSaveMemory,
  createSearchConversations,
  createSearchMemories,
  DEFAULT_MEMORY_USER,
  getMemories,
  type GetMemoriesArgs,
  type GetMemoriesOutput,
  isMemoryToolName,
  MEMORY_TOOL_NAMES,
  type MemoryStoreSource,
  type MemoryToolName,
  type MemoryToolOptions,
  memoryTools,
  type MemoryView,
  saveMemory,
  type SaveMemoryArgs,
  type SaveMemoryOutput,
  searchConversations,
  type SearchConversationsArgs,
  type SearchConversationsOutput,
  searchMemories,
  type SearchMemoriesArgs,
  type SearchMemoriesOutput,
} from './memory/index.js';
export {
  type PathAccess,
  PathPolicy,
  type PathPolicyOptions,
  type PathRefusalReason,
  PathRefusedError,
  type PathRoot,
  type ResolvedPath,
} from './path-policy.js';
export { RestToolError, restTools, type RestToolsOptions } from './rest/index.js';
export { shellTool, type ShellToolInput, type ShellToolOptions, type ShellToolResult } from './shell/index.js';
export { type SlackChannel, SlackToolError, type SlackToolName, slackTools, type SlackToolsOptions } from './slack/index.js';
export {
  type HostLookup,
  type HttpRequestResult,
  type ResolvedAddress,
  type WebFetchResult,
  WebRefusal,
  webTools,
  type WebToolsOptions,
} from './web/index.js';
