import { inBlock, type IpAddress, type IpBlock, parseCidr } from './ip-address.js';

/** Why an address is not a public internet address. */
export type AddressClass = 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

const table = (entries: Array<[string, AddressClass]>): Array<[IpBlock, AddressClass]> =>
  entries.map(([cidr, kind]) => [parseCidr(cidr)!, kind]);

// Most specific first: the metadata addresses sit inside link-local / ULA ranges.
const V4 = table([
  ['169.254.169.254/32', 'metadata'], // AWS, GCP, Azure, OpenStack…
  ['169.254.170.2/32', 'metadata'], // ECS task metadata
  ['100.100.100.200/32', 'metadata'], // Alibaba Cloud
  ['0.0.0.0/8', 'unspecified'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'private'], // carrier-grade NAT (RFC 6598)
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // documentation
  ['192.88.99.0/24', 'reserved'], // 6to4 relay anycast
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'],
  ['203.0.113.0/24', 'reserved'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // includes the broadcast address
]);

const V6 = table([
  ['fd00:ec2::254/128', 'metadata'], // AWS over IPv6
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['64:ff9b:1::/48', 'private'], // local-use NAT64
  ['100::/64', 'reserved'], // discard
  ['2001::/32', 'reserved'], // Teredo tunnels: the real endpoint is hidden
  ['2001:db8::/32', 'reserved'], // documentation
  ['fc00::/7', 'private'], // unique local addresses
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'private'], // deprecated site-local
  ['ff00::/8', 'multicast'],
]);

// IPv6 forms that carry an IPv4 address: mapped, the deprecated compatible form, NAT64, 6to4.
const MAPPED = parseCidr('::ffff:0:0/96')!;
const COMPATIBLE = parseCidr('::/96')!;
const NAT64 = parseCidr('64:ff9b::/96')!;
const SIX_TO_FOUR = parseCidr('2002::/16')!;

/** The IPv4 address an IPv6 address stands for (mapped, compatible, NAT64 or 6to4 forms), if any. */
export function embeddedIpv4(ip: IpAddress): IpAddress | undefined {
  if (ip.family !== 6) return undefined;
  if (inBlock(ip, MAPPED) || inBlock(ip, NAT64) || (inBlock(ip, COMPATIBLE) && ip.value > 1n)) {
    return { family: 4, value: ip.value & 0xffffffffn };
  }
  if (inBlock(ip, SIX_TO_FOUR)) return { family: 4, value: (ip.value >> 80n) & 0xffffffffn };
  return undefined;
}

/**
 * Classifies an address: `undefined` for a public internet address, else why it is not one.
 * IPv6 forms that embed an IPv4 address are judged by that address.
 */
export function addressClass(ip: IpAddress): AddressClass | undefined {
  const v4 = embeddedIpv4(ip);
  if (v4) return addressClass(v4);
  for (const [block, kind] of ip.family === 4 ? V4 : V6) if (inBlock(ip, block)) return kind;
  return undefined;
}
