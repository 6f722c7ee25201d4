/** One piece of a resource's contents, as `resources/read` returns it (`blob`: base64). */
export type McpResourceContents = { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };

/**
 * What reading a resource may return: a string (text, with the resource's `mimeType`), bytes
 * (sent as a base64 `blob`), or the contents as MCP has them.
 */
export type McpResourceReadResult = string | Uint8Array | McpResourceContents[];

/** What a resource's `read` gets besides the URI. */
export interface McpResourceReadContext {
  /** Aborted when the client cancels the request or disconnects. */
  signal: AbortSignal;
}

/** Metadata of a resource, as `resources/list` shows it. */
export interface McpResourceInfo {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when known. */
  size?: number;
}

/** A resource at a fixed URI. */
export interface McpStaticResourceDefinition extends McpResourceInfo {
  read(context: McpResourceReadContext): McpResourceReadResult | Promise<McpResourceReadResult>;
}

/**
 * Suggestions for one completable value (a template variable or a prompt argument): a fixed
 * list (filtered by the typed prefix for you), or a function given the typed value and the other
 * arguments already filled in, returning the suggestions (it filters itself).
 */
export type McpCompleter =
  readonly string[] | ((value: string, context: { arguments: Record<string, string> }) => string[] | Promise<string[]>);

/** Resources whose URIs follow an RFC 6570 template, e.g. `file:///logs/{date}.log`. */
export interface McpResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Concrete resources of this template to add to `resources/list` (optional). */
  list?(): McpResourceInfo[] | Promise<McpResourceInfo[]>;
  /** Suggestions for the template's variables (`completion/complete` with `ref/resource`). */
  complete?: Record<string, McpCompleter>;
  /** Reads the resource at `uri`; `variables` are the template's values in it. */
  read(
    uri: string,
    variables: Record<string, string>,
    context: McpResourceReadContext,
  ): McpResourceReadResult | Promise<McpResourceReadResult>;
}

/** A resource served by `createMcpServer`: made by `mcpResource` or `mcpResourceTemplate`. */
export type McpServedResource =
  ({ kind: 'resource' } & McpStaticResourceDefinition) | ({ kind: 'template' } & McpResourceTemplateDefinition);

/**
 * A resource at a fixed URI, for `createMcpServer({ resources })`.
 * @example
 * mcpResource({ uri: 'config://app', name: 'app-config', mimeType: 'application/json', read: () => JSON.stringify(config) })
 */
export function mcpResource(definition: McpStaticResourceDefinition): McpServedResource {
  return { kind: 'resource', ...definition };
}

/**
 * A family of resources whose URIs follow a template, for `createMcpServer({ resources })`.
 * Clients list it with `resources/templates/list`, read any matching URI, and can complete its
 * variables.
 * @example
 * mcpResourceTemplate({
 *   uriTemplate: 'users://{id}/profile', name: 'user-profile', mimeType: 'application/json',
 *   complete: { id: (typed) => userIds.filter((id) => id.startsWith(typed)) },
 *   read: (_uri, { id }) => JSON.stringify(users.get(id)),
 * })
 */
export function mcpResourceTemplate(definition: McpResourceTemplateDefinition): McpServedResource {
  return { kind: 'template', ...definition };
}
