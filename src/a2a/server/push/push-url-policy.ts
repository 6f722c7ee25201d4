import { redactUrl } from '../../../core/redact-urls.js';

/** The hosts push notifications go to when nothing is configured. */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/**
 * Why a webhook URL can never be delivered to under the allow-list, or undefined when it can:
 * it must parse as an absolute URL, use http or https, carry no credentials (`user:pw@`: fetch
 * refuses them; use the config's `token` or `authentication`), and name an allowed host —
 * `URL.hostname` or `URL.host` on `allowedHosts` (`*` allows any). Checked when a config is
 * registered and again before each delivery (DNS or the allow-list may have changed).
 */
export function pushUrlProblem(url: string, allowedHosts: readonly string[] = LOOPBACK_HOSTS): string | undefined {
  if (typeof url !== 'string' || url.trim() === '') return 'url is required';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `url "${redactUrl(url).slice(0, 200)}" is not an absolute URL`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return `url must be http or https (got ${JSON.stringify(u.protocol.slice(0, 30))})`;
  if (u.username !== '' || u.password !== '')
    return "url must not contain credentials (user:password@); send them as the config's token or authentication";
  if (allowedHosts.includes('*') || allowedHosts.includes(u.hostname) || allowedHosts.includes(u.host)) return undefined;
  return `host ${JSON.stringify(u.host)} is not in the server's allowed push hosts`;
}
