// The key a per-address limit counts a client under. One IPv6 /64 is what a single subscriber,
// host or cloud instance is handed (RFC 6177), so its 2^64 addresses are one client: keyed by
// the prefix, an attacker cannot mint a fresh allowance per request. IPv4, and IPv4 reached
// through IPv6 (::ffff:a.b.c.d), are keyed by the whole address. Anything else (no address, a
// test's placeholder) is keyed as it is. Every per-address limit keys through here.
import { isIPv4, isIPv6 } from 'node:net';

export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, '');
  if (!isIPv6(plain)) return address;
  const groups = hextets(plain.toLowerCase());
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi = 0, lo = 0] = groups.slice(6);
    return [hi >> 8, hi & 0xff, lo >> 8, lo & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted quad becomes two). */
function hextets(address: string): number[] {
  let text = address;
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad && isIPv4(quad)) {
    const [a = 0, b = 0, c = 0, d = 0] = quad.split('.').map(Number);
    text = `${text.slice(0, -quad.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  return [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
}
