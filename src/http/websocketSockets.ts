// The WebSocket door below the protocol: which upgrades are taken (per client address, before the
// handshake), and each socket's wiring to graphql-ws, with the per-connection message rate counted
// on the raw frames before graphql-ws parses one, and a refused frame logged in one line.
import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Server as GraphQLWsServer } from 'graphql-ws';
import type { Logger } from 'pino';
import type { WebSocket } from 'ws';
import { clientAddressKey } from '../kernel/clientAddress.js';
import { AppError, HTTP_STATUS, isDatabaseUnavailable, rateLimited } from '../kernel/errors.js';
import type { WindowLimit } from '../kernel/limitSettings.js';
import type { RequestLimiter } from '../pipeline/rateLimits/requestLimits.js';
import { errorBody } from './errorResponses.js';
import { GRAPHQL_PATH } from './graphqlDoor.js';
import { CLOSE_TOO_MANY } from './keyConnections.js';

/** Why an upgrade or a connection_init was refused: the label of the refusals' metric. */
export type DoorRefusal =
  | 'address_rate'
  | 'unauthenticated_sockets'
  | 'unavailable'
  | 'credential'
  | 'blocked_address'
  | 'connections_per_key'
  | 'revoked';

/**
 * Sockets of each client address not yet authenticated, on this instance: a slot is taken at the
 * upgrade and given back once the connection authenticates or closes (release is idempotent).
 */
function createUnauthenticatedCounts(limit: number) {
  const held = new Map<string, number>();
  return {
    /** A slot for `address`; null when it holds `limit` already. */
    take(address: string | null): (() => void) | null {
      if (address === null) return () => {};
      const key = clientAddressKey(address);
      const count = held.get(key) ?? 0;
      if (count >= limit) return null;
      held.set(key, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(key) ?? 1) - 1;
        if (left > 0) held.set(key, left);
        else held.delete(key);
      };
    },
  };
}

/**
 * Answers an upgrade with an HTTP error instead of the handshake, in the /graphql door's body
 * (errorResponses.ts), and closes the socket. A RATE_LIMITED error says when to retry.
 */
function refuseUpgrade(socket: Duplex, error: AppError): void {
  const { code: _code, http: _http, ...details } = error.extensions;
  const status = HTTP_STATUS[error.code];
  const body = JSON.stringify(errorBody('graphql', error.code, error.message, details));
  const retryAfter = typeof details.retryAfter === 'number' ? `Retry-After: ${details.retryAfter}\r\n` : '';
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}\r\n${body}`,
  );
}

/** An upgrade's charge against its address failed for another reason than the limit: what to answer. */
function upgradeFailure(error: unknown, logger: Pick<Logger, 'warn' | 'error'>): AppError {
  if (error instanceof AppError) return error;
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error }, 'database unavailable while admitting a WebSocket upgrade');
    return new AppError('SERVICE_UNAVAILABLE', 'the service is temporarily unavailable; retry shortly');
  }
  logger.error({ err: error }, 'unexpected error admitting a WebSocket upgrade');
  return new AppError('INTERNAL_SERVER_ERROR', 'internal server error');
}

interface UpgradeGateOptions {
  unauthenticatedPerAddress: number;
  /** How long a socket may wait before connection_init: a refused upgrade's Retry-After. */
  initWaitSeconds: number;
  /** The request limits (requestLimits.ts); absent: none. */
  limiter?: Pick<RequestLimiter, 'chargeAnonymous'>;
  /** The client's address of an upgrade request, as the HTTP door reads it (TRUST_PROXY). */
  clientAddressOf: (request: IncomingMessage) => string | null;
  refused: (reason: DoorRefusal) => void;
  logger: Pick<Logger, 'warn' | 'error'>;
}

/** An upgrade let through: its client's address and its slot among the address's unauthenticated sockets. */
interface AdmittedUpgrade {
  clientAddress: string | null;
  releaseUnauthenticated: () => void;
}

/**
 * What an upgrade meets before any handshake: the path (/graphql), the address's sockets not yet
 * authenticated (WEBSOCKET_UNAUTHENTICATED_PER_ADDRESS), then one request without a credential of
 * the address (ANONYMOUS_RATE_LIMIT_*, as on HTTP). A refusal is answered over HTTP (404, 429, 503).
 */
export function createUpgradeGate(options: UpgradeGateOptions) {
  const unauthenticated = createUnauthenticatedCounts(options.unauthenticatedPerAddress);
  return {
    /** The upgrade let through, or null once it has been answered. */
    async admit(request: IncomingMessage, socket: Duplex): Promise<AdmittedUpgrade | null> {
      // The client may reset the connection while it waits here; ws installs its own handler later.
      socket.on('error', () => socket.destroy());
      const path = upgradePath(request);
      if (path !== GRAPHQL_PATH) {
        refuseUpgrade(socket, new AppError('RESOURCE_NOT_FOUND', `no WebSocket endpoint at ${path}; use /graphql`));
        return null;
      }
      const clientAddress = options.clientAddressOf(request);
      const releaseUnauthenticated = unauthenticated.take(clientAddress);
      if (!releaseUnauthenticated) {
        options.refused('unauthenticated_sockets');
        refuseUpgrade(
          socket,
          rateLimited(
            `this address has ${options.unauthenticatedPerAddress} WebSocket connections not yet authenticated (WEBSOCKET_UNAUTHENTICATED_PER_ADDRESS); send connection_init on those first`,
            options.initWaitSeconds,
          ),
        );
        return null;
      }
      socket.once('close', releaseUnauthenticated);
      try {
        await options.limiter?.chargeAnonymous(clientAddress);
      } catch (error) {
        releaseUnauthenticated();
        const refusal = upgradeFailure(error, options.logger);
        options.refused(refusal.code === 'RATE_LIMITED' ? 'address_rate' : 'unavailable');
        refuseUpgrade(socket, refusal);
        return null;
      }
      return { clientAddress, releaseUnauthenticated };
    },
  };
}

/** What closes a socket whose client sends too much, and what hears a refused frame. */
interface SocketRules {
  messages: WindowLimit;
  /** Pings every this many ms; a socket that does not answer within as long is cut (graphql-ws's 12 s). */
  keepAliveMs: number;
  logger: Pick<Logger, 'warn' | 'error'>;
}

interface SocketHooks {
  /** Closes the socket for a reason of the door's (the closes' metric hears it); nothing is sent after. */
  end: (code: number, reason: string, why: 'message_rate' | 'internal_error') => void;
  /** Who the socket is, for its log lines (the client address, and once authenticated its key). */
  describe: () => Record<string, unknown>;
  /** Whether the door ended it: graphql-ws's sends are dropped from then on. */
  ended: () => boolean;
}

// ws closes the socket itself, with these codes, before it emits such an error (RFC 6455 7.4.1).
const FRAME_CLOSE_CODES: Readonly<Record<string, number>> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 1009,
  WS_ERR_INVALID_UTF8: 1007,
};

/**
 * Serves graphql-ws on `socket` (the glue graphql-ws's own useServer would be, with the door's rules):
 * every message is counted before graphql-ws parses it, and past the rate the socket is closed 4429;
 * an invalid or oversized frame (ws closes it: 1009 past maxPayload) is one warn line, never a stack.
 */
export function serveSocket<E>(
  server: GraphQLWsServer<E>,
  socket: WebSocket,
  extra: E,
  rules: SocketRules,
  hooks: SocketHooks,
): void {
  socket.on('error', (error: Error & { code?: string }) => {
    rules.logger.warn(
      {
        ...hooks.describe(),
        wsError: error.code ?? null,
        closeCode: FRAME_CLOSE_CODES[error.code ?? ''] ?? 1002,
        reason: error.message,
      },
      'WebSocket frame refused: connection closed',
    );
  });

  let windowEnds = 0;
  let counted = 0;
  let onMessage: ((data: string) => Promise<void>) | null = null;
  socket.on('message', (data) => {
    if (socket.readyState !== socket.OPEN || hooks.ended()) return;
    const now = performance.now();
    if (now >= windowEnds) {
      windowEnds = now + rules.messages.windowSeconds * 1000;
      counted = 0;
    }
    counted += 1;
    if (counted > rules.messages.limit) {
      hooks.end(
        CLOSE_TOO_MANY,
        `more than ${rules.messages.limit} messages in ${rules.messages.windowSeconds} s (WEBSOCKET_MESSAGE_LIMIT)`,
        'message_rate',
      );
      return;
    }
    onMessage?.(String(data)).catch((error: unknown) => {
      rules.logger.error({ ...hooks.describe(), err: error }, 'unexpected error handling a WebSocket message');
      hooks.end(1011, 'internal error', 'internal_error');
    });
  });

  let pongWait: NodeJS.Timeout | null = null;
  const pings = setInterval(() => {
    if (socket.readyState !== socket.OPEN || pongWait) return;
    pongWait = setTimeout(() => socket.terminate(), rules.keepAliveMs);
    socket.ping();
  }, rules.keepAliveMs);
  socket.on('pong', () => {
    if (pongWait) clearTimeout(pongWait);
    pongWait = null;
  });

  const closed = server.opened(
    {
      protocol: socket.protocol,
      send: (data) =>
        new Promise<void>((resolve, reject) => {
          if (socket.readyState !== socket.OPEN || hooks.ended()) return resolve();
          socket.send(data, (error) => (error ? reject(error) : resolve()));
        }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (handle) => {
        onMessage = handle;
      },
    },
    extra,
  );
  socket.once('close', (code, reason) => {
    clearInterval(pings);
    if (pongWait) clearTimeout(pongWait);
    closed(code, String(reason)).catch((error: unknown) => {
      rules.logger.error({ ...hooks.describe(), err: error }, 'unexpected error closing a WebSocket connection');
    });
  });
}

/** The path of an upgrade request (its query string aside). */
function upgradePath(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
