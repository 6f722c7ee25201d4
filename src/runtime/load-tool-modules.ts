import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { CorvidConfig, ToolEntryConfig } from '../config/corvid-config.js';
import type { ToolKindEntry } from '../config/tool-kinds/index.js';
import type { ConfigIssue } from '../errors/config-error.js';
import type { Tool } from '../types/tool.js';
import { isToolKindEntry, loadToolKind, type ToolKindContext } from './tool-kinds.js';

/** Tools of each tool module, by module id, then by tool name (and export name). */
export type ToolModules = Map<string, Map<string, Tool>>;

const isTool = (v: unknown): v is Tool =>
  typeof v === 'object' && v !== null && (v as Tool).kind === 'tool' && typeof (v as Tool).execute === 'function';

/** Options for `loadToolModules`. */
export interface LoadToolModulesOptions {
  /**
   * Ids of built-in tool-family entries (`type: files`, …) to load — the ones agents use (see
   * `usedToolEntryIds`). Family entries not listed are not loaded. Default: none.
   */
  kinds?: ReadonlySet<string>;
  /** Files of the running Corvid that built-in tools must not hand to a model (see `ToolKindContext`). */
  protectedPaths?: readonly string[];
}

/** Ids of `tools:` entries that some agent refers to (`id` or `id.tool`). */
export function usedToolEntryIds(config: Pick<CorvidConfig, 'agents' | 'toolModules'>): Set<string> {
  const used = new Set<string>();
  for (const agent of Object.values(config.agents)) {
    for (const ref of agent.tools ?? []) {
      const dot = ref.indexOf('.');
      const id = dot > 0 ? ref.slice(0, dot) : ref;
      if (Object.prototype.hasOwnProperty.call(config.toolModules, id)) used.add(id);
    }
  }
  return used;
}

/**
 * Imports every module of the config's `tools:` section (paths relative to the config file's
 * directory, or package names) and collects the tools it exports: one named export, or every
 * export that is a tool or an array of tools. Built-in tool-family entries listed in
 * `options.kinds` are loaded through `TOOL_KINDS`.
 */
export async function loadToolModules(
  modules: Record<string, ToolEntryConfig>,
  baseDir: string,
  options: LoadToolModulesOptions = {},
): Promise<{ modules: ToolModules; issues: ConfigIssue[] }> {
  const out: ToolModules = new Map();
  const issues: ConfigIssue[] = [];
  for (const [id, def] of Object.entries(modules)) {
    if (isToolKindEntry(def)) {
      if (!options.kinds?.has(id)) continue;
      const kind = await loadKindEntry(id, def, { baseDir, ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}) });
      if ('issue' in kind) issues.push(kind.issue);
      else out.set(id, kind.tools);
      continue;
    }
    const spec = def.module.startsWith('.') || isAbsolute(def.module) ? pathToFileURL(resolve(baseDir, def.module)).href : def.module;
    let ns: Record<string, unknown>;
    try {
      ns = (await import(spec)) as Record<string, unknown>;
    } catch (err) {
      const e = err as { code?: string; message?: string };
      const why =
        e.code === 'ERR_MODULE_NOT_FOUND'
          ? 'module not found'
          : e.code === 'ERR_UNKNOWN_FILE_EXTENSION'
            ? 'cannot load this file type (use .js or .mjs; TypeScript must be compiled first)'
            : `it failed to load: ${e.message ?? String(err)}`;
      issues.push({ path: `tools.${id}.module`, message: `cannot import "${def.module}": ${why}` });
      continue;
    }
    const tools = new Map<string, Tool>();
    const add = (exportName: string, value: unknown): boolean => {
      const list = Array.isArray(value) ? value : [value];
      if (list.length === 0 || !list.every(isTool)) return false;
      for (const t of list as Tool[]) tools.set(t.name, t);
      if (!Array.isArray(value)) tools.set(exportName, value as Tool);
      return true;
    };
    if (def.export) {
      if (!(def.export in ns))
        issues.push({
          path: `tools.${id}.export`,
          message: `"${def.module}" has no export "${def.export}"; it exports: ${Object.keys(ns).join(', ') || '(nothing)'}`,
        });
      else if (!add(def.export, ns[def.export]))
        issues.push({
          path: `tools.${id}.export`,
          message: `export "${def.export}" of "${def.module}" is not a tool or an array of tools (make them with tool())`,
        });
    } else {
      for (const [name, value] of Object.entries(ns)) add(name, value);
      if (tools.size === 0)
        issues.push({ path: `tools.${id}.module`, message: `"${def.module}" exports no tools (make them with tool() and export them)` });
    }
    out.set(id, tools);
  }
  return { modules: out, issues };
}

async function loadKindEntry(
  id: string,
  def: ToolKindEntry,
  ctx: ToolKindContext,
): Promise<{ tools: Map<string, Tool> } | { issue: ConfigIssue }> {
  try {
    const tools = new Map<string, Tool>();
    for (const t of await loadToolKind(def, ctx)) tools.set(t.name, t);
    return { tools };
  } catch (err) {
    return {
      issue: { path: `tools.${id}`, message: `cannot set up the ${def.type} tools: ${err instanceof Error ? err.message : String(err)}` },
    };
  }
}

/** Resolves one tool reference of an agent: a code tool, a module id (all its tools) or `module.tool`. */
export function resolveToolRef(
  ref: string,
  codeTools: ReadonlyMap<string, Tool>,
  modules: ToolModules,
): { tools: Tool[] } | { error: string } {
  const dot = ref.indexOf('.');
  if (dot > 0) {
    const id = ref.slice(0, dot);
    const name = ref.slice(dot + 1);
    const mod = modules.get(id);
    if (!mod) return { error: `tool module "${id}" is not loaded` };
    const t = mod.get(name);
    return t
      ? { tools: [t] }
      : {
          error: `tool module "${id}" has no tool "${name}"; its tools: ${[...new Set([...mod.values()].map((x) => x.name))].join(', ') || '(none)'}`,
        };
  }
  const code = codeTools.get(ref);
  if (code) return { tools: [code] };
  const mod = modules.get(ref);
  if (mod) return { tools: [...new Set(mod.values())] };
  return { error: `tool "${ref}" is not registered; pass it to loadRuntime({ tools }) or declare a tool module under tools:` };
}
