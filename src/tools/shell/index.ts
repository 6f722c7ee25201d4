/**
 * The `bash` tool: one command line per call, checked on its parsed form against allow/deny
 * rules, with a scrubbed environment, a time limit, capped output and a bubblewrap sandbox.
 * @example
 * import { shellTool } from 'corvid/tools';
 * const sh = shellTool({ cwd: './project', allow: ['npm test', 'npm run *'], deny: ['rm -rf *'] });
 */
export { CommandPattern } from './command-pattern.js';
export { CommandPolicy, type CommandPolicyOptions } from './command-policy.js';
export { DEFAULT_PASSED_ENV } from './scrub-env.js';
export { DEFAULT_DENIED_PATHS } from './shell-tool.js';
export { shellTool, type ShellToolInput, type ShellToolOptions, type ShellToolResult } from './shell-tool.js';
