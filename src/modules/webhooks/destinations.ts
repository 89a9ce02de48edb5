// Where deliveries may go. In production: https only, and never to an address of this network
// (loopback, private, link-local, unique-local...), checked when the URL is set and again before every
// attempt (a name may resolve elsewhere later). Outside production, http://127.0.0.1 and localhost serve
// local receivers. node:net's BlockList does the address arithmetic.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { invalidArgument } from '../../errors.js';

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

// An IPv4-mapped IPv6 address (::ffff:127.0.0.1, or ::ffff:7f00:1 as URLs write it) is its IPv4 address.
// (BlockList itself matches IPv4 addresses against ::ffff:0:0/96, so that range cannot be listed above.)
const MAPPED_DOTTED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const MAPPED_HEX = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i;

function mappedIpv4(address: string): string | null {
  const dotted = MAPPED_DOTTED.exec(address);
  if (dotted) return dotted[1]!;
  const hex = MAPPED_HEX.exec(address);
  if (!hex) return null;
  const [high, low] = [Number.parseInt(hex[1]!, 16), Number.parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an IP address is one of this network's (or no public address at all). */
export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const mapped = family === 6 ? mappedIpv4(address) : null;
  if (mapped) return isInternalAddress(mapped);
  return INTERNAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const MAX_URL_LENGTH = 2048;

/** Checks a URL as createWebhookEndpoint/updateWebhookEndpoint receive it (INVALID_ARGUMENT naming the problem). */
export function requireWebhookUrl(argument: string, value: string, production: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(argument, 'is not a URL');
  }
  if (value.length > MAX_URL_LENGTH) throw invalidArgument(argument, `is longer than ${MAX_URL_LENGTH} characters`);
  if (url.username || url.password) throw invalidArgument(argument, 'must not hold a user name or password');
  if (url.protocol === 'https:') return url.href;
  if (!production && url.protocol === 'http:') return url.href;
  throw invalidArgument(argument, production ? 'must be an https:// URL' : 'must be an http:// or https:// URL');
}

/**
 * Why a delivery may not go to `url` now (null: it may): in production every address its host
 * resolves to must be public. The check runs at creation (requireDeliverableUrl) and before each attempt.
 */
export async function refusedDestination(url: string, production: boolean): Promise<string | null> {
  if (!production) return null;
  const { protocol, hostname } = new URL(url);
  if (protocol !== 'https:') return 'the URL is not https://';
  const host = hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((entry) => entry.address);
  } catch {
    return `the host ${host} does not resolve`;
  }
  const internal = addresses.find(isInternalAddress);
  return internal ? `the host ${host} resolves to an address that is not public (${internal})` : null;
}

/** requireWebhookUrl, then (production) the address check: INVALID_ARGUMENT when refused. */
export async function requireDeliverableUrl(argument: string, value: string, production: boolean): Promise<string> {
  const url = requireWebhookUrl(argument, value, production);
  const refused = await refusedDestination(url, production);
  if (refused) throw invalidArgument(argument, refused);
  return url;
}
