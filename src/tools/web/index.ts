/**
 * The web tools: `web_fetch` (a URL as readable markdown) and `http_request` (any method to
 * allow-listed hosts), both behind an SSRF guard that resolves the host, refuses loopback,
 * private, link-local, metadata and other non-public addresses (unless allowed), checks every
 * redirect again and connects to the address it checked.
 * @example
 * import { webTools } from 'corvid/tools';
 * const agent = new Agent({ name: 'researcher', model, tools: webTools({ allowHosts: ['api.github.com'] }) });
 */
import { ValidationError } from '../../errors/validation-error.js';
import type { Tool } from '../../types/tool.js';
import { httpRequestTool } from './http-request-tool.js';
import { webFetchTool } from './web-fetch-tool.js';
import { webSettings, type WebToolsOptions } from './web-tools-options.js';

export type { HostLookup, ResolvedAddress } from '../../http/ssrf-guard.js';
export { WebRefusal } from '../../http/web-refusal.js';
export { htmlToMarkdown } from './html-to-markdown.js';
export type { HttpRequestResult } from './http-request-tool.js';
export type { WebFetchResult } from './web-fetch-tool.js';
export { webSettings, type WebToolsOptions } from './web-tools-options.js';

/** `web_fetch`, and `http_request` when `allowHosts` lists hosts (see `WebToolsOptions`). */
export function webTools(options: WebToolsOptions = {}): Tool[] {
  const settings = webSettings(options);
  const wanted = new Set(options.tools ?? ['web_fetch', 'http_request']);
  const tools: Tool[] = [];
  if (wanted.has('web_fetch')) tools.push(webFetchTool(settings));
  if (wanted.has('http_request')) {
    if (!settings.allowHosts.empty) tools.push(httpRequestTool(settings));
    else if (options.tools?.includes('http_request'))
      throw new ValidationError('webTools: http_request needs allowHosts, the hosts it may call');
  }
  return tools;
}
