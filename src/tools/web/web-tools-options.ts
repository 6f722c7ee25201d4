import { ValidationError } from '../../errors/validation-error.js';
import { HostAllowList } from '../../http/host-allow-list.js';
import { type HostLookup, SsrfGuard } from '../../http/ssrf-guard.js';

/** Options of `webTools()`. */
export interface WebToolsOptions {
  /**
   * Hosts `http_request` may call — names (`api.example.com`), subdomain wildcards
   * (`*.example.com`), addresses (`127.0.0.1`, `::1`) or CIDR blocks (`10.0.0.0/8`); without any,
   * `http_request` is not offered. Listed hosts are also trusted by the SSRF guard of both tools:
   * a listed name may resolve to a loopback, private or link-local address, a listed address or
   * block may be reached whatever it is (cloud metadata addresses only this way).
   */
  allowHosts?: readonly string[];
  /**
   * Lets both tools reach loopback, private (RFC 1918, CGNAT, ULA) and link-local addresses
   * of any host — for local setups. Metadata, multicast, reserved and unspecified addresses stay
   * refused unless listed by address in `allowHosts`. Default false.
   */
  allowPrivate?: boolean;
  /** Largest response body, after decompression, in bytes; larger ones are refused. Default 5 MiB. */
  maxResponseBytes?: number;
  /** Most characters of page text (`web_fetch`) or body (`http_request`) returned per call; the rest is cut, with an offset to continue. Default 40,000. */
  maxChars?: number;
  /** Time limit of one call (connection, redirects and body), in milliseconds. Default 30,000. */
  timeoutMs?: number;
  /** Most redirects followed per call; each one is checked again. Default 5. */
  maxRedirects?: number;
  /** `User-Agent` of the requests. Default `Mozilla/5.0 (compatible; Corvid; +https://github.com/corvid-ai/corvid)`. */
  userAgent?: string;
  /** Which tools to make. Default both (`http_request` only with `allowHosts`). */
  tools?: ReadonlyArray<'web_fetch' | 'http_request'>;
  /** Resolves host names (default: the system resolver). Tests inject a stub. */
  lookup?: HostLookup;
}

/** The options with their defaults filled in. */
export interface WebSettings {
  allowHosts: HostAllowList;
  allowPrivate: boolean;
  maxResponseBytes: number;
  maxChars: number;
  timeoutMs: number;
  maxRedirects: number;
  userAgent: string;
  lookup?: HostLookup;
  /** The guard of `web_fetch` (any public host). */
  fetchGuard: SsrfGuard;
  /** The guard of `http_request` (listed hosts only). */
  requestGuard: SsrfGuard;
}

export const DEFAULT_USER_AGENT = 'Mozilla/5.0 (compatible; Corvid; +https://github.com/corvid-ai/corvid)';

/** Fills in defaults and checks the numbers. */
export function webSettings(options: WebToolsOptions = {}): WebSettings {
  const allowHosts = new HostAllowList(options.allowHosts ?? []);
  const allowPrivate = options.allowPrivate === true;
  const positive = (name: string, value: number | undefined, fallback: number, min = 1): number => {
    if (value === undefined) return fallback;
    if (!Number.isFinite(value) || value < min)
      throw new ValidationError(`webTools: ${name} must be a number of at least ${min}, got ${value}`);
    return value;
  };
  return {
    allowHosts,
    allowPrivate,
    maxResponseBytes: positive('maxResponseBytes', options.maxResponseBytes, 5 * 1024 * 1024),
    maxChars: positive('maxChars', options.maxChars, 40_000),
    timeoutMs: positive('timeoutMs', options.timeoutMs, 30_000),
    maxRedirects: positive('maxRedirects', options.maxRedirects, 5, 0),
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    lookup: options.lookup,
    fetchGuard: new SsrfGuard({ allowHosts, allowPrivate, onlyAllowedHosts: false, lookup: options.lookup }),
    requestGuard: new SsrfGuard({ allowHosts, allowPrivate, onlyAllowedHosts: true, lookup: options.lookup }),
  };
}

/** Cuts `text` to `max` characters from `offset`; says where to continue when something is left. */
export function window(text: string, offset: number, max: number): { text: string; totalChars: number; nextOffset?: number } {
  const slice = text.slice(offset, offset + max);
  const end = offset + slice.length;
  return { text: slice, totalChars: text.length, ...(end < text.length ? { nextOffset: end } : {}) };
}
