// How much one caller may ask of the service: requests per API key, failed authentications per client
// address, and the size of one GraphQL document. Read from the environment by config.ts; these are
// the defaults, which createApp also uses when it is given none.

// What real documents need: the largest legacy operation is under 2 kB, Sandbox's introspection query
// under 4 kB, and GRAPHQL_MAX_TOKENS stops the parser long before; a notification's JSON variable is
// held to the payments door's own 64 kB.
/** The largest /graphql body read (body-parser's notation). */
export const GRAPHQL_BODY_LIMIT = '64kb';

/** At most `limit` events per `windowSeconds`. */
export interface WindowLimit {
  limit: number;
  windowSeconds: number;
}

/** What one GraphQL operation may ask for (graphqlLimits.ts and operationCost.ts define each measure). */
export interface GraphQLLimits {
  maxDepth: number;
  maxAliases: number;
  /** The most objects an answer may hold, as estimated before it runs. */
  maxCost: number;
  maxTokens: number;
  /** The backstop: the most list items one execution resolves, whatever the estimate said. */
  maxListItems: number;
}

/** What the WebSocket door allows (GraphQL subscriptions). */
interface SubscriptionLimits {
  /** Open subscriptions per API key, on one instance. */
  perKey: number;
  /** Events waiting for a subscriber's socket before it is disconnected. */
  maxQueuedEvents: number;
  /** Bytes waiting in a subscriber's send buffer before it is disconnected. */
  maxBufferedBytes: number;
}

/** What the WebSocket door allows of a connection and a client (decisions.md 12). */
interface WebSocketLimits {
  /** Messages of one connection, of any type, per window; past it the socket is closed 4429. */
  messagesPerConnection: WindowLimit;
  /** Authenticated connections per API key, on one instance; past it connection_init is closed 4429. */
  connectionsPerKey: number;
  /** Sockets of one client address not yet authenticated, on one instance; past it the upgrade is 429. */
  unauthenticatedPerAddress: number;
  /** Every connection's credential is checked again this often, in seconds. */
  recheckSeconds: number;
}
// --- Webhook tools (sendTestWebhook, redeliverEvent): decisions.md section 13. ---
/** How often the webhook tools may be used: each field execution counts once (aliases count). */
interface WebhookToolLimits {
  /** Per API key (WEBHOOK_TOOL_LIMIT_PER_KEY per 60 s). */
  perKey: WindowLimit;
  /** Per endpoint, whoever asks (WEBHOOK_TOOL_LIMIT_PER_ENDPOINT per 60 s). */
  perEndpoint: WindowLimit;
}
// --- end of webhook tools ---

export interface LimitSettings {
  /** Requests per API key (an access token counts against the key that bought it). */
  requestsPerKey: WindowLimit;
  /** Failed authentications per client address before its credentials are refused unread. */
  authFailuresPerAddress: WindowLimit;
  /** Requests without a credential per client address (the parse and validation work anyone can ask for). */
  anonymousPerAddress: WindowLimit;
  graphql: GraphQLLimits;
  subscriptions: SubscriptionLimits;
  websocket: WebSocketLimits;
  /** sendTestWebhook and redeliverEvent, per key and per endpoint. */
  webhookTools: WebhookToolLimits;
  /**
   * Payment references a vendor's notifications quoted and had refused as unknown or for another
   * amount, per API key behind the token (PAYMENT_REFERENCE_FAILURE_LIMIT per 60 s): decisions.md 36.
   */
  paymentReferenceFailures: WindowLimit;
}

/**
 * Places of an API key's count one admission in Redis reserves for its instance by default
 * (RATE_LIMIT_REDIS_RESERVE, decisions.md 53): a busy key asks Redis once per ten requests, and
 * each other instance holding a reservation can keep at most nine counts unused.
 */
export const REDIS_RESERVE = 10;

export const DEFAULT_LIMITS: LimitSettings = {
  requestsPerKey: { limit: 600, windowSeconds: 60 },
  authFailuresPerAddress: { limit: 20, windowSeconds: 300 },
  anonymousPerAddress: { limit: 60, windowSeconds: 60 },
  graphql: { maxDepth: 12, maxAliases: 30, maxCost: 50_000, maxTokens: 2000, maxListItems: 50_000 },
  subscriptions: { perKey: 10, maxQueuedEvents: 1000, maxBufferedBytes: 1024 * 1024 },
  websocket: {
    messagesPerConnection: { limit: 50, windowSeconds: 10 },
    connectionsPerKey: 10,
    unauthenticatedPerAddress: 5,
    recheckSeconds: 60,
  },
  webhookTools: { perKey: { limit: 10, windowSeconds: 60 }, perEndpoint: { limit: 5, windowSeconds: 60 } },
  paymentReferenceFailures: { limit: 20, windowSeconds: 60 },
};

/**
 * The least each GraphQL limit may be set to: what the REST shim's handwritten operations need, with
 * room to grow, so no setting can break the legacy contract (graphqlLimits.test.ts measures every
 * legacy operation against these).
 */
export const GRAPHQL_LIMIT_FLOORS: GraphQLLimits = {
  maxDepth: 8,
  maxAliases: 0,
  maxCost: 40_000,
  maxTokens: 500,
  maxListItems: 10_000,
};

/** The environment variable behind each GraphQL limit, for messages. */
export const GRAPHQL_LIMIT_VARIABLES: Readonly<Record<keyof GraphQLLimits, string>> = {
  maxDepth: 'GRAPHQL_MAX_DEPTH',
  maxAliases: 'GRAPHQL_MAX_ALIASES',
  maxCost: 'GRAPHQL_MAX_COST',
  maxTokens: 'GRAPHQL_MAX_TOKENS',
  maxListItems: 'GRAPHQL_MAX_LIST_ITEMS',
};
