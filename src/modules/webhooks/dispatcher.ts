// The HTTP client deliveries are posted with: an undici Agent whose connections are checked where
// they are made. A name is resolved once, by the connection's own lookup, and every address it gave
// must be public (destinations.ts) before the socket connects to one of them; an address in the URL
// is checked before connecting too. So the address checked is the address connected to: a name that
// answers a public address to a check and an internal one to the connection (DNS rebinding) is refused.
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { DOES_NOT_RESOLVE, isInternalAddress, NOT_PUBLIC } from './destinations.js';

/** A connection refused for where it would go: its message is the attempt's error, as is. */
export class DestinationRefusedError extends Error {
  override name = 'DestinationRefusedError';
}

interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to its addresses (dns.lookup by default; tests answer what they need). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/** net.connect's lookup, answering only when every address the name has is public. */
function publicOnlyLookup(resolve: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const addresses = options.family ? found.filter((entry) => entry.family === options.family) : found;
        if (addresses.length === 0) return callback(new DestinationRefusedError(DOES_NOT_RESOLVE), '', 4);
        if (found.some((entry) => isInternalAddress(entry.address))) {
          return callback(new DestinationRefusedError(NOT_PUBLIC), '', 4);
        }
        if (options.all) return (callback as (error: null, addresses: ResolvedAddress[]) => void)(null, addresses);
        return callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      () => callback(new DestinationRefusedError(DOES_NOT_RESOLVE), '', 4),
    );
  };
}

/**
 * The dispatcher of production deliveries: each new connection's host resolved and checked by
 * publicOnlyLookup (an address literal checked as it stands: net.connect looks no literal up).
 */
export function publicOnlyDispatcher(resolve: Resolver = systemResolver): Dispatcher {
  const connectChecked = buildConnector({ lookup: publicOnlyLookup(resolve) });
  return new Agent({
    connect: (options, callback) => {
      const host = options.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) && isInternalAddress(host)) return callback(new DestinationRefusedError(NOT_PUBLIC), null);
      connectChecked(options, callback);
    },
  });
}

let shared: { production: Dispatcher; local: Dispatcher } | undefined;

/** This process's dispatchers: the checked one for production, a plain one for local receivers elsewhere. */
export function deliveryDispatcher(production: boolean): Dispatcher {
  shared ??= { production: publicOnlyDispatcher(), local: new Agent() };
  return production ? shared.production : shared.local;
}
