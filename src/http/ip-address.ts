import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as a number: IPv4 in 32 bits, IPv6 in 128 bits. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

/** Parses a canonical IPv4 (dotted quad) or IPv6 address (brackets and a zone id allowed); `undefined` otherwise. */
export function parseIp(text: string): IpAddress | undefined {
  const s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(s)) return { family: 4, value: ipv4Value(s) };
  const bare = s.split('%')[0];
  if (!isIPv6(bare)) return undefined;
  return { family: 6, value: ipv6Value(bare) };
}

function ipv4Value(s: string): bigint {
  return s.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(s: string): bigint {
  let text = s.toLowerCase();
  // An embedded dotted IPv4 tail (`::ffff:127.0.0.1`) becomes two hex groups.
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = ipv4Value(tail[1]);
    text = `${text.slice(0, -tail[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest === undefined ? [] : rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...new Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** Formats an address back to text (IPv6 uncompressed, lower-case). */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4) return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let shift = 112n; shift >= 0n; shift -= 16n) groups.push(((ip.value >> shift) & 0xffffn).toString(16));
  return groups.join(':');
}

/** A CIDR block, e.g. `10.0.0.0/8` or `fc00::/7`. */
export interface IpBlock {
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

/** Parses `address/prefix` (or a single address, as a /32 or /128 block); `undefined` when it is not one. */
export function parseCidr(text: string): IpBlock | undefined {
  const [addr, len, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const ip = parseIp(addr);
  if (!ip) return undefined;
  const bits = ip.family === 4 ? 32 : 128;
  const prefix = len === undefined ? bits : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!(prefix >= 0 && prefix <= bits)) return undefined;
  return { family: ip.family, base: ip.value & mask(bits, prefix), prefix };
}

function mask(bits: number, prefix: number): bigint {
  const all = (1n << BigInt(bits)) - 1n;
  return prefix === 0 ? 0n : all ^ ((1n << BigInt(bits - prefix)) - 1n);
}

/** True when `ip` lies in `block`. */
export function inBlock(ip: IpAddress, block: IpBlock): boolean {
  if (ip.family !== block.family) return false;
  return (ip.value & mask(ip.family === 4 ? 32 : 128, block.prefix)) === block.base;
}
