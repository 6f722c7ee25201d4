import { lookup as dnsLookup } from 'node:dns/promises';

import { type AddressClass, addressClass } from './address-class.js';
import type { HostAllowList } from './host-allow-list.js';
import { parseIp } from './ip-address.js';
import { WebRefusal } from './web-refusal.js';

/** One address a name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to its addresses (default: the system resolver, `dns.lookup` with `all`). */
export type HostLookup = (hostname: string) => Promise<ResolvedAddress[]>;

/** The address a request may connect to, after every check passed. */
export interface VettedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Options of `SsrfGuard`. */
export interface SsrfGuardOptions {
  allowHosts: HostAllowList;
  /** Lets loopback, private and link-local addresses through (not metadata, multicast, reserved or unspecified ones). */
  allowPrivate: boolean;
  /** Only hosts in `allowHosts` may be reached at all (`http_request`). */
  onlyAllowedHosts: boolean;
  lookup?: HostLookup;
}

// What `allowPrivate`, or a host listed by name, opens.
const OPENABLE = new Set<AddressClass>(['loopback', 'private', 'link-local']);

const defaultLookup: HostLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Decides whether a URL may be requested and which address to connect to. The host is resolved
 * here, every address it resolves to is checked, and the request then connects to the checked
 * address (no second resolution a DNS rebinding could change). Refusals throw `WebRefusal`.
 */
export class SsrfGuard {
  private readonly lookup: HostLookup;

  constructor(private readonly options: SsrfGuardOptions) {
    this.lookup = options.lookup ?? defaultLookup;
  }

  /** Checks `url`; resolves to the address to connect to, or throws `WebRefusal` saying why not. */
  async vet(url: URL): Promise<VettedTarget> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WebRefusal(`Refused ${url.protocol.replace(/:$/, '')} URL: only http and https URLs can be fetched`);
    }
    if (url.username || url.password) throw new WebRefusal('Refused a URL with a user name or password in it: send credentials in headers');
    const host = url.hostname;
    const { allowHosts } = this.options;
    const hostListed = allowHosts.allowsHost(host);
    if (this.options.onlyAllowedHosts && !hostListed) {
      throw new WebRefusal(`Refused: host "${host}" is not in the allowed hosts of this tool`);
    }
    const literal = parseIp(host);
    const addresses = literal ? [{ address: host.replace(/^\[|\]$/g, ''), family: literal.family }] : await this.resolve(host);
    if (addresses.length === 0) throw new WebRefusal(`Could not resolve host "${host}"`);
    for (const { address } of addresses) {
      const ip = parseIp(address);
      if (!ip) throw new WebRefusal(`Refused: host "${host}" resolved to "${address}", which is not an IP address`);
      const kind = addressClass(ip);
      if (kind === undefined || allowHosts.allowsAddress(ip)) continue;
      if (OPENABLE.has(kind) && (this.options.allowPrivate || hostListed)) continue;
      const via = literal ? `"${host}"` : `host "${host}" resolves to ${address}, which`;
      throw new WebRefusal(
        `Refused: ${via} is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address. Requests to loopback, private, link-local and cloud metadata addresses are blocked (server-side request forgery protection)`,
      );
    }
    const first = addresses[0];
    return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  private async resolve(host: string): Promise<ResolvedAddress[]> {
    try {
      return await this.lookup(host.replace(/\.$/, ''));
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new WebRefusal(`Could not resolve host "${host}"${code ? ` (${code})` : ''}`, { cause: err });
    }
  }
}
