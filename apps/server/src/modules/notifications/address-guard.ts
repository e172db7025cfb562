// Where outbound webhooks may not go (issue #17 point 5): private, loopback, link-local, CGNAT,
// unique-local, multicast, reserved and cloud-metadata addresses, IPv4 and IPv6 (IPv4-mapped,
// NAT64 and 6to4 addresses are judged by the IPv4 address inside). Every delivery resolves the
// host again and connects to the very address that was checked.
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

const V4: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT (and Alibaba's metadata 100.100.100.200)
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
  ['168.63.129.16', 32], // Azure's platform endpoint (a public address that acts as metadata)
];

const V6: Array<[string, number]> = [
  ['::', 96], // unspecified, loopback and IPv4-compatible ::a.b.c.d (deprecated, never public)
  ['::ffff:0:0:0', 96], // IPv4-translated ::ffff:0:a.b.c.d (SIIT)
  ['64:ff9b:1::', 48], // NAT64 local use: translated by the operator's own gateway
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique-local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const blocked = new BlockList();
for (const [address, prefix] of V4) blocked.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of V6) blocked.addSubnet(address, prefix, 'ipv6');

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower)?.[1];
  if (dotted) return dotted;
  const words = expandV6(lower);
  if (!words) return null;
  const toV4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zero(0, 5) && words[5] === 0xffff) return toV4(words[6] ?? 0, words[7] ?? 0);
  if (words[0] === 0x64 && words[1] === 0xff9b && zero(2, 6)) return toV4(words[6] ?? 0, words[7] ?? 0);
  if (words[0] === 0x2002) return toV4(words[1] ?? 0, words[2] ?? 0);
  return null;
}

/** Eight 16-bit words of an IPv6 address in hex notation; null when it is not one. */
function expandV6(address: string): number[] | null {
  if (address.includes('.')) return null;
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text ? text.split(':').map((w) => Number.parseInt(w, 16)) : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...new Array<number>(missing).fill(0), ...right];
}

/** True for any address a webhook must not reach unless ALLOW_PRIVATE_WEBHOOKS is on. */
export function isForbiddenAddress(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const version = isIP(plain);
  if (version === 4) return blocked.check(plain, 'ipv4');
  if (version !== 6) return true;
  const v4 = embeddedV4(plain);
  if (v4) return blocked.check(v4, 'ipv4');
  return blocked.check(plain, 'ipv6');
}

/** Names that are private whatever they resolve to (checked when a URL is saved). */
export function isPrivateHostname(hostname: string): boolean {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  if (isIP(host)) return isForbiddenAddress(host);
  return (
    host === 'localhost' || /\.(localhost|local|internal|home\.arpa)$/.test(host) || host === 'metadata.google.internal'
  );
}

export class ForbiddenAddressError extends Error {
  override readonly name = 'ForbiddenAddressError';
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type LookupAll = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS). */
export const systemLookup: LookupAll = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((r) => ({
    address: r.address,
    family: r.family === 6 ? 6 : 4,
  }));

/**
 * The addresses to connect to for `hostname`, in the resolver's order: an IP literal as is, else
 * every resolved one (the connection tries the next when one cannot be reached, as every client
 * does with `localhost` as ::1 and 127.0.0.1). Without `allowPrivate`, refused when any resolved
 * address is forbidden (a name that mixes public and private answers is not trusted with either).
 */
export async function resolveTargets(
  hostname: string,
  allowPrivate: boolean,
  lookup: LookupAll = systemLookup,
): Promise<[ResolvedAddress, ...ResolvedAddress[]]> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const version = isIP(host);
  const addresses: ResolvedAddress[] = version
    ? [{ address: host, family: version === 6 ? 6 : 4 }]
    : await lookup(host);
  const [first, ...rest] = addresses;
  if (!first) throw new ForbiddenAddressError(`${host} has no address`);
  if (!allowPrivate) {
    const bad = addresses.find((a) => isForbiddenAddress(a.address));
    if (bad) throw new ForbiddenAddressError(`${bad.address} is a private or reserved address`);
  }
  return [first, ...rest];
}
