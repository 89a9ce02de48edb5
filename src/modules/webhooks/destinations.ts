// Where deliveries may go. In production: https only, port 443 unless the operator allows more
// (WEBHOOK_ALLOWED_PORTS), and only public addresses. A URL is checked when it is set (an early,
// named refusal), and the address is checked again where every connection is made (dispatcher.ts):
// a name that resolves elsewhere between a check and the connection is still refused. A refusal says
// "does not resolve" or "is not a public address", never an address a name resolved to (a refusal
// must not map an internal network). Outside production, http://127.0.0.1 and localhost serve local
// receivers. node:net's BlockList does the address arithmetic.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidArgument } from '../../kernel/errors.js';

/** What a refusal may say of a host: nothing more. */
export const DOES_NOT_RESOLVE = 'the host does not resolve';
export const NOT_PUBLIC = 'the host is not a public address';

/** The ports deliveries may use in production when WEBHOOK_ALLOWED_PORTS is not set. */
export const DEFAULT_ALLOWED_PORTS: readonly number[] = [443];

/** The production rules a destination is held to: the ports allowed besides https's scheme. */
export interface DestinationRules {
  production: boolean;
  allowedPorts: readonly number[];
}

// Private, loopback, link-local, shared (CGNAT), reserved, multicast, benchmarking, documentation
// and the 6to4 relay anycast range: none is a partner's receiver.
const INTERNAL_IPV4 = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL_IPV4.addSubnet(network, prefix, 'ipv4');
}

// An IPv6 address is public only inside the global unicast range 2000::/3 (everything outside it is
// loopback, unspecified, IPv4-mapped/-compatible/SIIT, NAT64, discard, unique-local, link-local,
// site-local, multicast or unassigned) and outside the special ranges within it: the IETF protocol
// assignments 2001::/23 (Teredo 2001::/32, benchmarking, ORCHID), documentation 2001:db8::/32 and
// 3fff::/20, 6to4 2002::/16, SRv6 5f00::/16. The forms that embed or translate an IPv4 address are
// listed again by name, so the rule reads as decided (decisions.md, section 13) whatever 2000::/3
// covers. A list of its own, checked only with IPv6 addresses: BlockList matches an IPv4 address
// against a ::ffff:0:0/96 rule, so that range in a list checked with IPv4 addresses would refuse every
// IPv4 address.
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');
const INTERNAL_IPV6 = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped
  ['::ffff:0:0:0', 96], // SIIT
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48], // local-use NAT64
  ['2001::', 23], // IETF protocol assignments, Teredo 2001::/32 among them
  ['2001::', 32], // Teredo
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4
  ['3fff::', 20],
  ['5f00::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL_IPV6.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is not a public one (this network's, reserved, or not an address at all). */
export function isInternalAddress(address: string): boolean {
  // A zone (fe80::1%eth0) belongs to a link-local address.
  if (address.includes('%')) return true;
  const family = isIP(address);
  if (family === 4) return INTERNAL_IPV4.check(address, 'ipv4');
  if (family === 6) return !GLOBAL_UNICAST.check(address, 'ipv6') || INTERNAL_IPV6.check(address, 'ipv6');
  return true;
}

/** The host of a URL as an address or a name: brackets of an IPv6 literal dropped. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The port a URL connects to. */
const portOf = (url: URL) => (url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port));

const MAX_URL_LENGTH = 2048;

/** Why the URL itself is refused in production (scheme, port), before any address is looked up; null: not. */
export function refusedUrl(url: URL, rules: DestinationRules): string | null {
  if (!rules.production) return null;
  if (url.protocol !== 'https:') return 'the URL is not https://';
  const port = portOf(url);
  if (!rules.allowedPorts.includes(port)) {
    return `port ${port} is not allowed (${rules.allowedPorts.join(', ')}: WEBHOOK_ALLOWED_PORTS)`;
  }
  return null;
}

/** Checks a URL as createWebhookEndpoint/updateWebhookEndpoint receive it (INVALID_ARGUMENT naming the problem). */
export function requireWebhookUrl(argument: string, value: string, rules: DestinationRules): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(argument, 'is not a URL');
  }
  if (value.length > MAX_URL_LENGTH) throw invalidArgument(argument, `is longer than ${MAX_URL_LENGTH} characters`);
  if (url.username || url.password) throw invalidArgument(argument, 'must not hold a user name or password');
  if (url.protocol !== 'https:' && (rules.production || url.protocol !== 'http:')) {
    throw invalidArgument(
      argument,
      rules.production ? 'must be an https:// URL' : 'must be an http:// or https:// URL',
    );
  }
  const refused = refusedUrl(url, rules);
  if (refused) throw invalidArgument(argument, refused);
  return url.href;
}

/**
 * Why a delivery may not go to `url` as things resolve now (null: it may): in production every
 * address its host resolves to must be public. Only an early answer when the URL is set: what decides
 * is the check where each connection is made (dispatcher.ts).
 */
export async function refusedDestination(url: string, rules: DestinationRules): Promise<string | null> {
  if (!rules.production) return null;
  const parsed = new URL(url);
  const refused = refusedUrl(parsed, rules);
  if (refused) return refused;
  const host = hostOf(parsed);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return DOES_NOT_RESOLVE;
  }
  if (addresses.length === 0) return DOES_NOT_RESOLVE;
  return addresses.some(isInternalAddress) ? NOT_PUBLIC : null;
}

/** requireWebhookUrl, then (production) the address check: INVALID_ARGUMENT when refused. */
export async function requireDeliverableUrl(argument: string, value: string, rules: DestinationRules): Promise<string> {
  const url = requireWebhookUrl(argument, value, rules);
  const refused = await refusedDestination(url, rules);
  if (refused) throw invalidArgument(argument, refused);
  return url;
}
