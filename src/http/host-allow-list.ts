import { ValidationError } from '../errors/validation-error.js';
import { inBlock, type IpAddress, type IpBlock, parseCidr, parseIp } from './ip-address.js';

/**
 * The hosts of `allowHosts`: exact names (`api.example.com`), subdomain wildcards
 * (`*.example.com`: any name below it, not the name itself), addresses (`127.0.0.1`, `::1`) and
 * CIDR blocks (`10.0.0.0/8`). Names compare case-insensitively, without a trailing dot.
 */
export class HostAllowList {
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private readonly blocks: IpBlock[] = [];

  constructor(entries: readonly string[] = []) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase();
      const block = parseCidr(entry);
      if (block) this.blocks.push(block);
      else if (/^\*\.[a-z0-9.-]+$/.test(entry)) this.suffixes.push(normalizeName(entry.slice(1)));
      else if (/^[a-z0-9_.-]+$/.test(entry) && !/^[\d.]+$/.test(entry)) this.names.add(normalizeName(entry));
      else throw new ValidationError(`allowHosts: "${raw}" is not a host name, "*.domain" wildcard, IP address or CIDR block`);
    }
  }

  /** True when the list is empty. */
  get empty(): boolean {
    return this.names.size === 0 && this.suffixes.length === 0 && this.blocks.length === 0;
  }

  /** True when the URL host (a name, or an address in URL form such as `[::1]`) is listed. */
  allowsHost(hostname: string): boolean {
    const ip = parseIp(hostname);
    if (ip) return this.allowsAddress(ip);
    const name = normalizeName(hostname);
    return this.names.has(name) || this.suffixes.some((s) => name.endsWith(s));
  }

  /** True when an address lies in a listed address or block. */
  allowsAddress(ip: IpAddress): boolean {
    return this.blocks.some((b) => inBlock(ip, b));
  }
}

const normalizeName = (name: string): string => name.toLowerCase().replace(/\.$/, '');
