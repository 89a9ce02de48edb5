// Who a request came from, for the failed-authentication limit: Express's req.ip (the socket's peer,
// or with TRUST_PROXY the address the trusted proxies report in X-Forwarded-For).
import { isIP, isIPv4, isIPv6 } from 'node:net';

/** Express's `trust proxy` setting: off, on (trust every hop), a number of hops, or trusted addresses and subnets. */
export type TrustProxy = boolean | number | string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrSubnet(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return isIPv4(prefix) && family === 4; // a dotted netmask
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Express takes it: "" or "false" (default: the socket's peer is the client), "true"
 * (the left-most X-Forwarded-For entry; only behind a proxy that always overwrites the header), a
 * whole number of proxy hops, or a comma-separated list of trusted proxy addresses, subnets, and
 * the names loopback, linklocal, uniquelocal. Undefined when the value is none of these.
 */
export function parseTrustProxy(raw: string): TrustProxy | undefined {
  const value = raw.trim();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every((entry) => NAMED_RANGES.has(entry) || isAddressOrSubnet(entry)) ? entries : undefined;
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail is two groups). */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parts = (text: string | undefined): number[] =>
    (text ? text.split(':') : []).flatMap((part) => {
      if (!part.includes('.')) return [parseInt(part, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = part.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const front = parts(head);
  const back = parts(tail);
  return [...front, ...Array<number>(Math.max(0, 8 - front.length - back.length)).fill(0), ...back];
}

/**
 * What the failed-authentication limit counts by: an IPv4 address as it is (also when written as an
 * IPv4-mapped IPv6 address), and an IPv6 address by its /64 network, since one host is commonly
 * given a whole /64 and could otherwise change address for every try.
 */
export function clientAddressKey(address: string): string {
  const unzoned = address.split('%', 1)[0]!;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(unzoned);
  if (mapped) return mapped[1]!;
  if (!isIPv6(unzoned)) return unzoned;
  const network = ipv6Groups(unzoned.toLowerCase()).slice(0, 4);
  return `${network.map((group) => group.toString(16)).join(':')}::/64`;
}
