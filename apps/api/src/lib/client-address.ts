import { isIP } from 'node:net';

/** `::ffff:1.2.3.4` (an IPv4 client of a dual-stack socket) as `1.2.3.4`; anything else as given. */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, an IPv4 tail as two groups). */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!.toLowerCase();
  const ipv4Tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) =>
    Number.parseInt(group, 16),
  );
}

/**
 * What the rate limits count a client by: its IPv4 address, or the /64 network of its IPv6
 * address. One IPv6 subscriber is routed a whole /64 (often far more) and may pick any address
 * in it, so counting single IPv6 addresses would give one client 2^64 budgets.
 */
export function rateLimitKeyOf(ip: string): string {
  const address = unmapped(ip);
  if (isIP(address) !== 6) return address;
  const prefix = ipv6Groups(address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':');
  return `${prefix}::/64`;
}

/** Whether `ip` (a request's client address) is this machine's own: 127.0.0.0/8 or ::1. */
export function isLoopback(ip: string): boolean {
  const address = unmapped(ip);
  if (isIP(address) === 4) return address.startsWith('127.');
  if (isIP(address) !== 6) return false;
  const groups = ipv6Groups(address);
  return groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1;
}
