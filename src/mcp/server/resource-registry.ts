import type { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';

import { importSdk } from '../sdk.js';
import { completeValues } from './complete-values.js';
import { failure, type RequestOutcome, RPC_ERROR } from './request-outcome.js';
import type {
  McpResourceContents,
  McpResourceInfo,
  McpResourceReadResult,
  McpResourceTemplateDefinition,
  McpServedResource,
  McpStaticResourceDefinition,
} from './served-resource.js';

/** A template as `resources/templates/list` shows it. */
export interface McpResourceTemplateInfo {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

function info<T extends McpResourceInfo | McpResourceTemplateInfo>(r: T & Record<string, unknown>, keys: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const k of keys) if (r[k] !== undefined) out[k] = r[k];
  return out as T;
}

function toContents(uri: string, mimeType: string | undefined, result: McpResourceReadResult): McpResourceContents[] {
  const mime = mimeType === undefined ? {} : { mimeType };
  if (typeof result === 'string') return [{ uri, ...mime, text: result }];
  if (result instanceof Uint8Array) return [{ uri, ...mime, blob: Buffer.from(result).toString('base64') }];
  if (Array.isArray(result)) return result;
  throw new Error(`read() returned ${typeof result}; return a string, a Uint8Array or an array of contents`);
}

const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * The resources of a served MCP server: lists them, reads a URI (fixed resources first, then
 * the first template that matches), completes template variables. Answers in `RequestOutcome`s.
 */
export class ResourceRegistry {
  private readonly fixed = new Map<string, McpStaticResourceDefinition>();
  private readonly templates: McpResourceTemplateDefinition[] = [];
  private matchers: Promise<UriTemplate[]> | undefined;

  constructor(resources: readonly McpServedResource[]) {
    for (const r of resources) {
      if (r.kind === 'resource') {
        if (this.fixed.has(r.uri)) throw new Error(`Two resources have the URI "${r.uri}"; resource URIs must be unique on one server`);
        this.fixed.set(r.uri, r);
      } else if (r.kind === 'template') {
        if (this.templates.some((t) => t.uriTemplate === r.uriTemplate))
          throw new Error(`Two resource templates are "${r.uriTemplate}"; templates must be unique on one server`);
        this.templates.push(r);
      } else {
        const never: never = r;
        throw new Error(`Not a resource: ${JSON.stringify(never)}; make resources with mcpResource() or mcpResourceTemplate()`);
      }
    }
  }

  /** Whether there is anything to serve (the `resources` capability). */
  get size(): number {
    return this.fixed.size + this.templates.length;
  }

  /** Whether a template variable has suggestions. */
  get completable(): boolean {
    return this.templates.some((t) => t.complete && Object.keys(t.complete).length > 0);
  }

  /** Fixed resources, then the resources templates list. */
  async list(): Promise<McpResourceInfo[]> {
    const keys = ['uri', 'name', 'title', 'description', 'mimeType', 'size'];
    const listed: McpResourceInfo[] = [...this.fixed.values()].map((r) => info<McpResourceInfo>(r as never, keys));
    for (const t of this.templates) if (t.list) listed.push(...(await t.list()).map((r) => info<McpResourceInfo>(r as never, keys)));
    return listed;
  }

  listTemplates(): McpResourceTemplateInfo[] {
    return this.templates.map((t) =>
      info<McpResourceTemplateInfo>(t as never, ['uriTemplate', 'name', 'title', 'description', 'mimeType']),
    );
  }

  /** Whether `uri` names a resource of this server (a fixed one or one matching a template). */
  async has(uri: string): Promise<boolean> {
    return this.fixed.has(uri) || (await this.match(uri)) !== undefined;
  }

  async read(uri: string, signal: AbortSignal): Promise<RequestOutcome<{ contents: McpResourceContents[] }>> {
    const fixed = this.fixed.get(uri);
    try {
      if (fixed) return { ok: true, value: { contents: toContents(uri, fixed.mimeType, await fixed.read({ signal })) } };
      const matched = await this.match(uri);
      if (matched) {
        const result = await matched.template.read(uri, matched.variables, { signal });
        return { ok: true, value: { contents: toContents(uri, matched.template.mimeType, result) } };
      }
    } catch (err) {
      return failure(RPC_ERROR.internal, `Reading resource "${uri}" failed: ${errorText(err)}`);
    }
    const known = [...this.fixed.keys(), ...this.templates.map((t) => t.uriTemplate)];
    return failure(RPC_ERROR.resourceNotFound, `Resource "${uri}" not found. Resources: ${known.join(', ') || '(none)'}`);
  }

  /** Suggestions for `variable` of the template `uriTemplate`. */
  async complete(uriTemplate: string, variable: string, value: string, args: Record<string, string>): Promise<RequestOutcome<string[]>> {
    const template = this.templates.find((t) => t.uriTemplate === uriTemplate);
    if (!template) {
      if (this.fixed.has(uriTemplate)) return { ok: true, value: [] };
      return failure(
        RPC_ERROR.invalidParams,
        `Unknown resource template "${uriTemplate}". Templates: ${this.templates.map((t) => t.uriTemplate).join(', ') || '(none)'}`,
      );
    }
    try {
      return { ok: true, value: await completeValues(template.complete?.[variable], value, args) };
    } catch (err) {
      return failure(RPC_ERROR.internal, `Completing "${variable}" of "${uriTemplate}" failed: ${errorText(err)}`);
    }
  }

  private async match(uri: string): Promise<{ template: McpResourceTemplateDefinition; variables: Record<string, string> } | undefined> {
    if (this.templates.length === 0) return undefined;
    this.matchers ??= importSdk(() => import('@modelcontextprotocol/sdk/shared/uriTemplate.js')).then((m) =>
      this.templates.map((t) => new m.UriTemplate(t.uriTemplate)),
    );
    const matchers = await this.matchers;
    for (let i = 0; i < matchers.length; i++) {
      const found = matchers[i].match(uri);
      if (found) {
        const variables = Object.fromEntries(Object.entries(found).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v]));
        return { template: this.templates[i], variables };
      }
    }
    return undefined;
  }
}
