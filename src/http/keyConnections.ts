// The authenticated WebSocket connections of this instance, by the API key behind them (the key
// itself or the key that bought the access token): at most WEBSOCKET_CONNECTIONS_PER_KEY of a key,
// and live access ends when the credential does (decisions.md 12): a revocation heard on the event
// feed's channel, the key's or the token's expiry at its moment, and a recheck of every key in the
// database every WEBSOCKET_RECHECK_SECONDS.
import type { Logger } from 'pino';

/** Why the door closed a connection: the label of the closes' metric. */
export type DoorCloseReason =
  | 'message_rate'
  | 'revoked'
  | 'expired'
  | 'no_longer_valid'
  | 'feed_lost'
  | 'shutdown'
  | 'internal_error';

/** One authenticated connection as the registry holds it. */
export interface KeyConnection {
  keyId: string;
  /** When the credential stops being valid by itself (Principal.expiresAt). */
  expiresAt: Date | null;
  /** Closes the socket; nothing is sent on it after this call. */
  end: (code: number, reason: string, why: DoorCloseReason) => void;
  /** The expiry's timer, once armed. */
  expiryTimer?: NodeJS.Timeout;
}

interface KeyConnectionsOptions {
  connectionsPerKey: number;
  recheckSeconds: number;
  /** The service's clock. */
  now: () => Date;
  /** Of `keyIds`, those still neither revoked nor expired (one statement). */
  activeKeys: (keyIds: readonly string[], now: Date) => Promise<Set<string>>;
  logger: Pick<Logger, 'warn'>;
}

// RFC 6455 leaves 4000-4999 to applications; graphql-ws uses 4403 for Forbidden, and 4429 reads as 429.
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_TOO_MANY = 4429;
const CLOSE_FEED_LOST = 1012;

/** setTimeout's longest delay (about 24.8 days): an expiry further away is armed by a later recheck. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;
/** Revocations remembered for connections whose authentication was under way when they were heard. */
const REMEMBERED_REVOCATIONS = 1000;
/** Keys asked about in one recheck statement. */
const RECHECK_CHUNK = 5000;

export function createKeyConnections(options: KeyConnectionsOptions) {
  const byKey = new Map<string, Set<KeyConnection>>();
  // Revocations heard, each with its place in the order heard: a connection authenticated across one
  // (its key read as valid just before the revocation committed) is refused once it is added.
  const revokedAt = new Map<string, number>();
  let heard = 0;
  let rechecking = false;

  const endAll = (connections: Iterable<KeyConnection>, code: number, reason: string, why: DoorCloseReason) => {
    for (const connection of [...connections]) connection.end(code, reason, why);
  };

  const armExpiry = (connection: KeyConnection) => {
    if (connection.expiryTimer || !connection.expiresAt) return;
    const delay = connection.expiresAt.getTime() - options.now().getTime();
    if (delay > LONGEST_TIMER_MS) return;
    connection.expiryTimer = setTimeout(
      () => connection.end(CLOSE_FORBIDDEN, 'the credential expired', 'expired'),
      Math.max(0, delay),
    );
    connection.expiryTimer.unref();
  };

  const recheck = async () => {
    if (rechecking || byKey.size === 0) return;
    rechecking = true;
    try {
      const now = options.now();
      const keyIds = [...byKey.keys()];
      for (let start = 0; start < keyIds.length; start += RECHECK_CHUNK) {
        const chunk = keyIds.slice(start, start + RECHECK_CHUNK);
        const active = await options.activeKeys(chunk, now);
        for (const keyId of chunk) {
          const connections = byKey.get(keyId);
          if (!connections) continue;
          if (!active.has(keyId)) {
            endAll(
              connections,
              CLOSE_FORBIDDEN,
              'the credential is no longer valid (revoked or expired)',
              'no_longer_valid',
            );
          } else for (const connection of connections) armExpiry(connection);
        }
      }
    } catch (error) {
      // The database did not answer: the connections stay; the next recheck asks again.
      options.logger.warn({ err: error }, "rechecking the WebSocket connections' credentials failed; they stay open");
    } finally {
      rechecking = false;
    }
  };
  const rechecks = setInterval(() => void recheck(), options.recheckSeconds * 1000);
  rechecks.unref();

  const remove = (connection: KeyConnection) => {
    if (connection.expiryTimer) clearTimeout(connection.expiryTimer);
    const connections = byKey.get(connection.keyId);
    if (!connections?.delete(connection)) return;
    if (connections.size === 0) byKey.delete(connection.keyId);
  };

  return {
    /** Where the revocations heard stand now: what a connection's authentication starts from (add's `since`). */
    mark: () => heard,
    /**
     * Adds a connection whose authentication started at `since` (mark()): refused when its key was
     * revoked since (4403), or when the key has its connections already (4429). Returns the refusal.
     */
    add(connection: KeyConnection, since: number): { code: number; reason: string } | null {
      if ((revokedAt.get(connection.keyId) ?? -1) >= since) {
        return { code: CLOSE_FORBIDDEN, reason: 'the credential was revoked' };
      }
      const connections = byKey.get(connection.keyId) ?? new Set();
      if (connections.size >= options.connectionsPerKey) {
        return {
          code: CLOSE_TOO_MANY,
          reason: `this key has ${connections.size} connections open here, the limit (WEBSOCKET_CONNECTIONS_PER_KEY)`,
        };
      }
      connections.add(connection);
      byKey.set(connection.keyId, connections);
      armExpiry(connection);
      return null;
    },
    remove,
    /** Key `keyId` was revoked: each of its connections is closed now. */
    keyRevoked(keyId: string) {
      revokedAt.delete(keyId);
      revokedAt.set(keyId, heard++);
      if (revokedAt.size > REMEMBERED_REVOCATIONS) revokedAt.delete(revokedAt.keys().next().value!);
      const connections = byKey.get(keyId);
      if (connections) endAll(connections, CLOSE_FORBIDDEN, 'the credential was revoked', 'revoked');
    },
    /** Revocations may have gone unheard (the feed lost its connection): every connection closes, to authenticate again. */
    feedLost(reason: string) {
      for (const connections of [...byKey.values()]) endAll(connections, CLOSE_FEED_LOST, reason, 'feed_lost');
    },
    /** Authenticated connections held now. */
    size: () => [...byKey.values()].reduce((total, connections) => total + connections.size, 0),
    /** Stops the rechecks and every expiry timer. */
    stop() {
      clearInterval(rechecks);
      for (const connections of byKey.values())
        for (const connection of connections) clearTimeout(connection.expiryTimer);
    },
  };
}
