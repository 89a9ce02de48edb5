// The WebSocket door: GraphQL subscriptions on /graphql over the graphql-ws protocol (what Apollo
// Sandbox speaks). The connection is authenticated once, at connection_init, by createContext as on
// HTTP; each subscription document meets the same token, depth, alias and cost limits; queries and
// mutations stay on HTTP, where the request limits and the list-item ceiling apply.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http';
import {
  type ExecutionArgs,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  NoSchemaIntrospectionCustomRule,
  parse,
  specifiedRules,
  validate,
} from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { WebSocketServer } from 'ws';
import { type Context, createContext, forgetCachedReads, type ServiceDeps } from '../context.js';
import { AppError } from '../errors.js';
import type { LimitSettings } from '../limitSettings.js';
import { costRefusal, createOperationShapeRule, tokenLimitMessage } from '../limits/graphqlLimits.js';
import { bearerCredential, type Principal } from '../modules/auth/principal.js';
import { createEventFeed } from '../modules/events/feed.js';

export interface SubscriptionDoorDeps {
  service: ServiceDeps;
  schema: GraphQLSchema;
  limits: LimitSettings;
  production: boolean;
  logger: Logger;
  /** The client's address of an upgrade request, as the HTTP door reads it (TRUST_PROXY). */
  clientAddressOf: (request: IncomingMessage) => string | null;
  /** Hears subscriptions opening and closing (createApp installs the metrics' gauge); absent: nothing does. */
  observe?: { opened(): void; closed(): void };
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

type ConnectionExtra = {
  context?: Context;
  /** This connection's counted subscriptions, by operation id. */
  counted?: Set<string>;
};

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

export function createSubscriptionDoor(deps: SubscriptionDoorDeps): SubscriptionDoor {
  const { service, schema, limits, logger } = deps;
  const feed = createEventFeed(service.db, logger);
  const openPerKey = new Map<string, number>();
  const rules = [
    ...specifiedRules,
    createOperationShapeRule(limits.graphql),
    ...(deps.production ? [NoSchemaIntrospectionCustomRule] : []),
  ];
  let wss: WebSocketServer | null = null;
  let disposeServer: (() => void | Promise<void>) | null = null;

  const release = (extra: ConnectionExtra, id: string) => {
    const keyId = extra.context?.auth.principal?.keyId;
    if (!keyId || !extra.counted?.delete(id)) return;
    const open = (openPerKey.get(keyId) ?? 1) - 1;
    if (open > 0) openPerKey.set(keyId, open);
    else openPerKey.delete(keyId);
    deps.observe?.closed();
  };

  const attach = (server: Server) => {
    wss = new WebSocketServer({ server, path: '/graphql', maxPayload: MAX_MESSAGE_BYTES });
    const served = useServer<Record<string, unknown> | undefined, ConnectionExtra>(
      {
        schema,
        isProd: deps.production,
        onConnect: async (ctx) => {
          const { socket, request } = ctx.extra;
          const refuse = (code: number, reason: string) => {
            socket.close(code, closeReason(reason));
            return false;
          };
          try {
            const context = await createContext(service, {
              credential: {
                value: credentialOf(ctx.connectionParams, request.headers),
                expected: 'an API key',
                presentedAs: 'X-Api-Key (or Authorization: Bearer) in the connection_init payload',
              },
              requestId: randomUUID(),
              clientAddress: deps.clientAddressOf(request),
            });
            const { principal } = context.auth;
            if (!principal) return refuse(CloseCode.Forbidden, context.auth.failure.message);
            const refusal = refusalOf(principal);
            if (refusal) return refuse(CloseCode.Forbidden, refusal);
            ctx.extra.context = context;
            ctx.extra.counted = new Set();
            return true;
          } catch (error) {
            if (error instanceof AppError && (error.code === 'RATE_LIMITED' || error.code === 'SERVICE_UNAVAILABLE')) {
              return refuse(CLOSE_TRY_AGAIN_LATER, error.message);
            }
            if (error instanceof AppError) return refuse(CloseCode.Forbidden, error.message);
            logger.error({ err: error }, 'unexpected error authenticating a WebSocket connection');
            return refuse(CLOSE_INTERNAL_ERROR, 'internal error');
          }
        },
        onSubscribe: (ctx, id, payload): ExecutionArgs | readonly GraphQLError[] => {
          const base = ctx.extra.context!;
          let document: ReturnType<typeof parse>;
          try {
            document = parse(payload.query, { maxTokens: limits.graphql.maxTokens });
          } catch (error) {
            const message = error instanceof GraphQLError ? error.message : 'the document could not be parsed';
            return [new GraphQLError(tokenLimitMessage(message) ?? message)];
          }
          const errors = validate(schema, document, rules);
          if (errors.length > 0) return errors;
          const operation = getOperationAST(document, payload.operationName);
          if (!operation) return [new GraphQLError('the document names no operation to run (operationName)')];
          if (operation.operation !== 'subscription') {
            return [
              new GraphQLError(`the WebSocket carries subscriptions only: send a ${operation.operation} over HTTP`),
            ];
          }
          const variables = payload.variables ?? {};
          const refusal = costRefusal(schema, document, operation, variables, limits.graphql);
          if (refusal) return [refusal];
          const keyId = base.auth.principal!.keyId;
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
          ctx.extra.counted!.add(id);
          deps.observe?.opened();
          const { socket } = ctx.extra;
          const contextValue: Context = {
            ...base,
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
          forgetCachedReads(contextValue); // each subscription its own loaders
          return { schema, document, operationName: payload.operationName, variableValues: variables, contextValue };
        },
        onComplete: (ctx, id) => release(ctx.extra, id),
        onClose: (ctx) => {
          for (const id of [...(ctx.extra.counted ?? [])]) release(ctx.extra, id);
        },
      },
      wss,
    );
    disposeServer = () => served.dispose();
  };

  return {
    attach,
    listening: () => feed.size(),
    close: async () => {
      const dispose = disposeServer;
      disposeServer = null;
      await dispose?.();
      await feed.close();
    },
  };
}
