// The WebSocket door: GraphQL subscriptions on /graphql over the graphql-ws protocol (what Apollo
// Sandbox speaks), under the rules of HTTP (decisions.md 12). An upgrade counts against its address's
// requests without a credential, and an address holds few sockets not yet authenticated; the
// connection is authenticated once, at connection_init, by createContext as on HTTP, and a key holds
// few connections per instance; each subscribe counts as one request of the key, and its document
// meets the same token, depth, alias and cost limits; every message counts against the connection's
// rate. Live access ends with the credential: revoked (told on the event feed's channel), expired,
// or found no longer valid by the periodic recheck. Queries and mutations stay on HTTP.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type ExecutionArgs,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  getVariableValues,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { CloseCode, handleProtocols, makeServer } from 'graphql-ws';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { AppError } from '../kernel/errors.js';
import type { LimitSettings } from '../kernel/limitSettings.js';
import type { TrustedDocuments } from '../kernel/trustedDocuments.js';
import { bearerCredential, type Principal } from '../modules/auth/principal.js';
import { activeApiKeyIds } from '../modules/auth/queries.js';
import { createEventFeed } from '../modules/events/feed.js';
import { type Context, createContext, type ServiceDeps } from '../pipeline/context.js';
import { costRefusal, createOperationShapeRule } from '../pipeline/documentLimits/graphqlLimits.js';
import { documentToRun } from '../pipeline/trustedDocuments.js';
import { introspectionDisabledRule } from './graphqlEdges.js';
import { formatSocketError, labelled, requestError } from './graphqlErrors.js';
import { CLOSE_FORBIDDEN, createKeyConnections, type DoorCloseReason, type KeyConnection } from './keyConnections.js';
import { createUpgradeGate, type DoorRefusal, serveSocket } from './websocketSockets.js';

/** Why a connection closed, for the closes' metric: the door's own reasons, or what the close code says. */
type WebSocketCloseReason =
  | DoorCloseReason
  | 'refused'
  | 'client'
  | 'slow_subscriber'
  | 'feed_interrupted'
  | 'frame_too_large'
  | 'invalid_frame'
  | 'protocol'
  | 'other';

/** Hears the door's subscriptions and connections (createApp installs the metrics); resolvers never see it. */
export interface SubscriptionObserver {
  /** A subscription opened / closed. */
  opened(): void;
  closed(): void;
  /** A WebSocket connection opened (handshake done) / closed, and why. */
  connectionOpened(): void;
  connectionClosed(reason: WebSocketCloseReason): void;
  /** An upgrade (HTTP 429, 503) or a connection_init (4403, 4429, 1013) refused, and why. */
  refused(reason: DoorRefusal): void;
}

interface SubscriptionDoorDeps {
  service: ServiceDeps;
  schema: GraphQLSchema;
  limits: LimitSettings;
  production: boolean;
  logger: Logger;
  /** The client's address of an upgrade request, as the HTTP door reads it (TRUST_PROXY). */
  clientAddressOf: (request: IncomingMessage) => string | null;
  /** Hears subscriptions and connections (createApp installs the metrics); absent: nothing does. */
  observe?: Partial<SubscriptionObserver>;
  /** The trusted documents (decisions.md 33): what callers other than operators may subscribe with; absent: anything. */
  trusted?: TrustedDocuments | null;
}

export interface SubscriptionDoor {
  /** Serves WebSocket upgrades to /graphql on this HTTP server. */
  attach: (server: Server) => void;
  /** Subscribers listening to the event feed on this instance. */
  listening: () => number;
  /** Closes every connection (1001) and stops listening: before the HTTP server's close, which waits for them. */
  close: () => Promise<void>;
}

// RFC 6455 7.4.1: 1013 try again later (rate limited, database unavailable), 1011 unexpected condition.
const CLOSE_TRY_AGAIN_LATER = 1013;
const CLOSE_INTERNAL_ERROR = 1011;
// A connection_init payload or a subscribe message is small; nothing on this socket needs more.
const MAX_MESSAGE_BYTES = 64 * 1024;
// graphql-ws's own defaults, stated: connection_init within 3 s, a ping every 12 s.
const CONNECTION_INIT_WAIT_MS = 3000;
const KEEP_ALIVE_MS = 12_000;

/** One WebSocket connection, from its handshake: graphql-ws's `extra`. */
interface Connection {
  socket: WebSocket;
  request: IncomingMessage;
  clientAddress: string | null;
  /** Gives back its address's slot of sockets not yet authenticated (idempotent). */
  releaseUnauthenticated: () => void;
  /** Once authenticated: its context, and its place among its key's connections. */
  context?: Context;
  held?: KeyConnection;
  /** This connection's counted subscriptions, by operation id. */
  counted: Set<string>;
  /** Set when the door closed it: nothing more is sent on it. */
  closedBy: WebSocketCloseReason | null;
}

/** The credential of a connection: the connection_init payload first (names in any case), then the upgrade request's headers. */
function credentialOf(params: Readonly<Record<string, unknown>> | undefined, headers: IncomingHttpHeaders) {
  const given = new Map(
    Object.entries(params ?? {})
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([name, value]) => [name.toLowerCase(), value]),
  );
  const header = (name: string) => (typeof headers[name] === 'string' ? headers[name] : undefined);
  const apiKey = given.get('x-api-key') ?? header('x-api-key');
  if (apiKey) return apiKey;
  return bearerCredential(given.get('authorization') ?? header('authorization'), 'API key or access token');
}

/** Why a principal may not subscribe at all; undefined when it may. */
function refusalOf(principal: Principal): string | undefined {
  if (principal.kind === 'operator' || (principal.kind === 'partner' && principal.keyKind === 'partner')) {
    return undefined;
  }
  return `a ${principal.keyKind} key cannot subscribe to events; use a partner or operator key`;
}

// A close reason is at most 123 bytes (RFC 6455 5.5).
const closeReason = (text: string) => (Buffer.byteLength(text) <= 123 ? text : `${text.slice(0, 110)}...`);

/** A close the door did not decide, by its code. */
function closeReasonOf(code: number): WebSocketCloseReason {
  if (code === 1000 || code === 1001 || code === 1005 || code === 1006) return 'client';
  if (code === 1008) return 'slow_subscriber';
  if (code === 1012) return 'feed_interrupted';
  if (code === 1009) return 'frame_too_large';
  if (code === 1002 || code === 1007) return 'invalid_frame';
  if (code >= 4400 && code < 4500) return 'protocol';
  return 'other';
}

/** A refusal as a subscription's error: the code and when to retry, not the HTTP door's headers. */
function subscriptionError(error: AppError): AppError {
  const { retryAfter } = error.extensions;
  return new AppError(error.code, error.message, typeof retryAfter === 'number' ? { retryAfter } : {});
}

export function createSubscriptionDoor(deps: SubscriptionDoorDeps): SubscriptionDoor {
  const { service, schema, limits, logger } = deps;
  const observe = deps.observe ?? {};
  const keys = createKeyConnections({
    connectionsPerKey: limits.websocket.connectionsPerKey,
    recheckSeconds: limits.websocket.recheckSeconds,
    now: service.now,
    activeKeys: (keyIds, now) => activeApiKeyIds(service.db, keyIds, now),
    logger,
  });
  const feed = createEventFeed(service.db, logger, {
    keyRevoked: (keyId) => keys.keyRevoked(keyId),
    lost: (reason) => keys.feedLost(reason),
  });
  const gate = createUpgradeGate({
    unauthenticatedPerAddress: limits.websocket.unauthenticatedPerAddress,
    initWaitSeconds: CONNECTION_INIT_WAIT_MS / 1000,
    limiter: service.limiter,
    clientAddressOf: deps.clientAddressOf,
    refused: (reason) => observe.refused?.(reason),
    logger,
  });
  const openPerKey = new Map<string, number>();
  const rules = [
    ...specifiedRules,
    createOperationShapeRule(limits.graphql),
    ...(deps.production ? [introspectionDisabledRule] : []),
  ];
  let wss: WebSocketServer | null = null;
  let detach: (() => void) | null = null;
  const openConnections = new Set<Connection>();
  let closing = false;

  /** Closes `connection` for the door's reason; nothing is sent on it from now on. */
  const end = (connection: Connection, code: number, reason: string, why: WebSocketCloseReason) => {
    if (connection.closedBy || connection.socket.readyState !== connection.socket.OPEN) return;
    connection.closedBy = why;
    connection.socket.close(code, closeReason(reason));
  };

  const release = (connection: Connection, id: string) => {
    const keyId = connection.context?.auth.principal?.keyId;
    if (!keyId || !connection.counted.delete(id)) return;
    const open = (openPerKey.get(keyId) ?? 1) - 1;
    if (open > 0) openPerKey.set(keyId, open);
    else openPerKey.delete(keyId);
    observe.closed?.();
  };

  /** connection_init: authenticated as on HTTP, then held among its key's connections; false refuses it. */
  const authenticate = async (connection: Connection, params: Record<string, unknown> | undefined) => {
    const { socket, request } = connection;
    const refuse = (code: number, reason: string, why: DoorRefusal) => {
      observe.refused?.(why);
      end(connection, code, reason, 'refused');
      return false;
    };
    try {
      // Listening before the key is read: a revocation committed after that read is heard.
      await feed.listen();
    } catch (error) {
      logger.warn({ err: error }, 'the event feed cannot listen: WebSocket connection refused');
      return refuse(CLOSE_TRY_AGAIN_LATER, 'the live event feed is unavailable; retry shortly', 'unavailable');
    }
    const since = keys.mark();
    let context: Context;
    try {
      context = await createContext(service, {
        credential: {
          value: credentialOf(params, request.headers),
          expected: 'an API key',
          presentedAs: 'X-Api-Key (or Authorization: Bearer) in the connection_init payload',
        },
        requestId: randomUUID(),
        clientAddress: connection.clientAddress,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'RATE_LIMITED') {
        return refuse(CLOSE_TRY_AGAIN_LATER, error.message, 'blocked_address');
      }
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') {
        return refuse(CLOSE_TRY_AGAIN_LATER, error.message, 'unavailable');
      }
      if (error instanceof AppError) return refuse(CloseCode.Forbidden, error.message, 'credential');
      logger.error({ err: error }, 'unexpected error authenticating a WebSocket connection');
      return refuse(CLOSE_INTERNAL_ERROR, 'internal error', 'unavailable');
    }
    const { principal } = context.auth;
    if (!principal) return refuse(CloseCode.Forbidden, context.auth.failure.message, 'credential');
    const refusal = refusalOf(principal);
    if (refusal) return refuse(CloseCode.Forbidden, refusal, 'credential');
    // The client left while its key was read: nothing to hold.
    if (socket.readyState !== socket.OPEN) return false;
    const held: KeyConnection = {
      keyId: principal.keyId,
      expiresAt: principal.expiresAt,
      end: (code, reason, why) => end(connection, code, reason, why),
    };
    const full = keys.add(held, since);
    if (full) return refuse(full.code, full.reason, full.code === CLOSE_FORBIDDEN ? 'revoked' : 'connections_per_key');
    connection.held = held;
    connection.context = context;
    connection.releaseUnauthenticated();
    return true;
  };

  /** subscribe: one request of the key, then the document's limits, then the key's open subscriptions. */
  const subscribe = async (
    connection: Connection,
    id: string,
    payload: {
      query: string;
      operationName?: string | null;
      variables?: Record<string, unknown> | null;
      extensions?: Record<string, unknown> | null;
    },
  ): Promise<ExecutionArgs | readonly GraphQLError[]> => {
    const base = connection.context!;
    const keyId = base.auth.principal!.keyId;
    try {
      await base.credentialLimits.accepted(keyId);
    } catch (error) {
      if (error instanceof AppError) return [subscriptionError(error)];
      throw error;
    }
    if (connection.closedBy) return [new AppError('SERVICE_UNAVAILABLE', 'the connection is closing')];
    // The same rule as /graphql's (its id with an empty query, or its text), before the document is parsed.
    let text: string | undefined;
    try {
      text = documentToRun(deps.trusted ?? null, base.auth.principal, payload);
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return [error];
    }
    // Each refusal below with the code HTTP gives it (decisions.md 12), said in HTTP's words (onError).
    let document: ReturnType<typeof parse>;
    try {
      document = parse(text ?? '', { maxTokens: limits.graphql.maxTokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return [labelled(error, 'GRAPHQL_PARSE_FAILED')];
    }
    const errors = validate(schema, document, rules);
    if (errors.length > 0) return errors.map((error) => labelled(error, 'GRAPHQL_VALIDATION_FAILED', deps.production));
    const operation = getOperationAST(document, payload.operationName);
    if (!operation) {
      return [requestError('the document names no operation to run (operationName)', 'OPERATION_RESOLUTION_FAILURE')];
    }
    if (operation.operation !== 'subscription') {
      const message = `the WebSocket carries subscriptions only: send a ${operation.operation} over HTTP`;
      return [requestError(message, 'BAD_REQUEST')];
    }
    const variables = payload.variables ?? {};
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 10 });
    if (coerced.errors) return coerced.errors.map((error) => requestError(error.message, 'BAD_USER_INPUT'));
    const refusal = costRefusal(schema, document, operation, variables, limits.graphql);
    if (refusal) return [refusal];
    const open = openPerKey.get(keyId) ?? 0;
    if (open >= limits.subscriptions.perKey) {
      return [
        new AppError(
          'RATE_LIMITED',
          `this key has ${open} subscriptions open, the limit (SUBSCRIPTIONS_PER_KEY); complete one first`,
        ),
      ];
    }
    openPerKey.set(keyId, open + 1);
    connection.counted.add(id);
    observe.opened?.();
    const { socket } = connection;
    const contextValue: Context = {
      ...base,
      reads: base.reads.fresh(), // each subscription its own loaders (on the primary)
      requestId: `${base.requestId}/${id}`,
      live: {
        feed,
        connection: {
          bufferedAmount: () => socket.bufferedAmount,
          close: (code, reason) => socket.close(code, closeReason(reason)),
        },
        bounds: limits.subscriptions,
      },
    };
    return { schema, document, operationName: payload.operationName, variableValues: variables, contextValue };
  };

  const protocol = makeServer<Record<string, unknown> | undefined, Connection>({
    schema,
    connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
    onConnect: (ctx) => authenticate(ctx.extra, ctx.connectionParams),
    onSubscribe: (ctx, id, payload) => subscribe(ctx.extra, id, payload),
    // Every error sent, a refused subscribe's or an event's, in the words and codes of HTTP's.
    onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatSocketError(error, logger)),
    onNext: (_ctx, _id, _payload, _args, result) =>
      result.errors ? { ...result, errors: result.errors.map((error) => formatSocketError(error, logger)) } : undefined,
    onComplete: (ctx, id) => release(ctx.extra, id),
    onClose: (ctx) => {
      for (const id of [...ctx.extra.counted]) release(ctx.extra, id);
    },
  });

  const socketRules = {
    messages: limits.websocket.messagesPerConnection,
    keepAliveMs: KEEP_ALIVE_MS,
    logger,
  };

  /** A socket past its handshake: served by graphql-ws, its close counted. */
  const connected = (
    socket: WebSocket,
    request: IncomingMessage,
    clientAddress: string | null,
    releaseUnauthenticated: () => void,
  ) => {
    const connection: Connection = {
      socket,
      request,
      clientAddress,
      releaseUnauthenticated,
      counted: new Set(),
      closedBy: null,
    };
    openConnections.add(connection);
    observe.connectionOpened?.();
    socket.once('close', (code) => {
      openConnections.delete(connection);
      releaseUnauthenticated();
      if (connection.held) keys.remove(connection.held);
      observe.connectionClosed?.(connection.closedBy ?? closeReasonOf(code));
    });
    serveSocket(protocol, socket, connection, socketRules, {
      end: (code, reason, why) => end(connection, code, reason, why),
      describe: () => ({ clientAddress, keyId: connection.held?.keyId ?? null }),
      ended: () => connection.closedBy !== null,
    });
  };

  /** An upgrade: answered (404, 429, 503) by the gate before any handshake, else handed to ws. */
  const upgrade = async (server: WebSocketServer, request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (closing) {
      socket.destroy();
      return;
    }
    const admitted = await gate.admit(request, socket);
    if (!admitted) return;
    if (socket.destroyed || closing) {
      admitted.releaseUnauthenticated();
      socket.destroy();
      return;
    }
    const { clientAddress, releaseUnauthenticated } = admitted;
    server.handleUpgrade(request, socket, head, (ws) => connected(ws, request, clientAddress, releaseUnauthenticated));
  };

  const attach = (httpServer: Server) => {
    const server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, handleProtocols });
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      void upgrade(server, request, socket, head);
    };
    httpServer.on('upgrade', onUpgrade);
    wss = server;
    detach = () => httpServer.off('upgrade', onUpgrade);
  };

  return {
    attach,
    listening: () => feed.size(),
    close: async () => {
      closing = true;
      detach?.();
      detach = null;
      keys.stop();
      const server = wss;
      wss = null;
      if (server) {
        for (const connection of openConnections) end(connection, 1001, 'Going away', 'shutdown');
        await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
      }
      await feed.close();
    },
  };
}
