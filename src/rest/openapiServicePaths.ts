// The service's own doors in the OpenAPI document: /graphql (the door both legacy interfaces run
// through) and the operations endpoints of src/ops/router.ts, as they really answer.
import { AppError, invalidRequestBody, rateLimited, unreadableBody } from '../kernel/errors.js';
import { GRAPHQL_BODY_LIMIT } from '../kernel/limitSettings.js';
import type { Readiness } from '../ops/health.js';
import { errorAnswer, rendered } from './openapiExamples.js';
import {
  arr,
  type Examples,
  errorResponse,
  int,
  jsonContent,
  obj,
  RATE_LIMITED,
  rateLimitedResponse,
  ref,
  type Schema,
  str,
  successHeaders,
} from './openapiSchemas.js';

export const GRAPHQL_TAG = 'GraphQL';
export const DEVICES_TAG = 'Device door';
export const OPERATIONS_TAG = 'Operations';

const readiness = (summary: string, value: Readiness): Examples => ({
  [value.status.replace(' ', '-')]: { summary, value },
});

// A few lines of a real scrape (test/rest/openapi.test.ts checks each HELP line against GET /metrics).
const METRICS_EXAMPLE = `# HELP http_requests_total HTTP requests answered, by method, route template and status.
# TYPE http_requests_total counter
http_requests_total{method="GET",route="/v1/list-clerks.php",status="200"} 3
# HELP payments_recorded_total Payments recorded (new payments only; replays are counted in payments_replayed_total), by channel.
# TYPE payments_recorded_total counter
payments_recorded_total{channel="store"} 1
`;

const nullableOf = (schema: Schema): Schema => ({ ...schema, type: [schema.type, 'null'] });
const unixSeconds = (what: string) => int(`${what}, Unix seconds, in the partner's time.`);

const checkinRequest = obj(
  {
    imei: { type: 'string', pattern: '^[0-9]{15,16}$', description: "The device's IMEI, as it reads it." },
    simNumber: nullableOf({
      ...str('The SIM card number it sees (1 to 32 characters); absent or null: none reported.'),
      maxLength: 32,
    }),
    appVersion: { ...str("The lock agent's version (1 to 64 characters)."), minLength: 1, maxLength: 64 },
    acknowledged: {
      ...arr(str('A command id.')),
      maxItems: 100,
      description:
        'The ids of commands received in earlier answers and carried out, until an answer to a check-in that listed them is accepted.',
    },
    nonce: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]{16,128}$',
      description:
        'Fresh and random for each check-in (16 to 128 base64url characters; 24 random bytes make 32). The signed answer echoes it: a device takes only the answer carrying the nonce of its latest request (docs/decisions.md, section 34).',
    },
  },
  ['simNumber', 'acknowledged'],
);
// Members the service does not know are ignored, so a newer agent may send more.
checkinRequest.additionalProperties = true;

const checkinData = obj({
  deviceTag: str("The device's tag."),
  lockState: { enum: ['UNLOCKED', 'LOCKED', 'RELEASED'], description: 'What the device must be now.' },
  reason: {
    enum: ['PAYMENT_OVERDUE', 'SIM_MISMATCH', 'LOCK_COMMAND', null],
    description: 'Why LOCKED; null otherwise.',
  },
  lockAt: nullableOf(
    unixSeconds('When the device locks unless a payment arrives; null when released or without an order'),
  ),
  nextCheckinAt: unixSeconds('When to check in next'),
  offlineLockAt: nullableOf(
    unixSeconds(
      "When the device must lock by itself if it has not checked in again (the earlier of lockAt and now + the partner's offlineLockDays); null when released",
    ),
  ),
  message: nullableOf(str('A line for the screen while LOCKED.')),
  commands: arr(
    obj({
      id: str('The command id, to acknowledge. A command rides every answer until it is acknowledged.'),
      type: { enum: ['LOCK_NOW', 'UNLOCK_FOR_HOURS', 'SHOW_MESSAGE', 'RELEASE'] },
      hours: nullableOf(int('UNLOCK_FOR_HOURS: the hours.')),
      message: nullableOf(str('SHOW_MESSAGE: the text.')),
    }),
  ),
  issuedAt: unixSeconds('The check-in (not an order: a sandbox clock reset sends it back)'),
  sequence: int(
    "This device's answer counter, strictly increasing from one answer to the next: what a device orders answers by.",
  ),
  nonce: str("The request's nonce: this answer belongs to that request only."),
  unlockCodesThrough: int(
    "The greatest offline unlock-code counter issued under the device's credential when the answer was made: the device raises its last accepted counter (L) to it, voiding every code printed before, a reversed payment's among them (docs/decisions.md, sections 21 and 44).",
  ),
});

const checkinExample = {
  deviceTag: 'DTSTBBB',
  lockState: 'UNLOCKED',
  reason: null,
  lockAt: 1_783_296_000,
  nextCheckinAt: 1_781_127_000,
  offlineLockAt: 1_781_710_200,
  message: null,
  commands: [],
  issuedAt: 1_781_105_400,
  sequence: 42,
  nonce: 'q3Vx0b8kZ1nT4mWcE9aLr2HyJ6sPdFgU',
  unlockCodesThrough: 3,
};

/** An error of the device door, with its answer as the door renders it. */
const devicesError = (description: string, error: AppError, summary: string) =>
  errorResponse('devices', description, rendered('devices', error, summary));

const deviceCredentialRefused = new AppError(
  'INVALID_DEVICE_CREDENTIAL',
  'a valid device credential is required: send it as Authorization: Bearer dvc_... (unknown, ended or missing)',
);

const readOnly = (path: string) =>
  errorResponse('partner', `METHOD_NOT_ALLOWED: ${path} takes GET and HEAD only (see the Allow header).`);

export const servicePaths = {
  '/devices/v1/checkin': {
    post: {
      operationId: 'deviceCheckin',
      tags: [DEVICES_TAG],
      summary: "A device's check-in",
      description:
        "A device's lock agent reports what it sees and is answered what it must be: its lock state from its current order at the partner's time, until when, when to lock by itself without a network (offlineLockAt), when to check in next, and the commands waiting for it. The answer's signature is a compact JWS (EdDSA, Ed25519, typ dfs-checkin+jws) whose payload is data's JSON text, signed with the key its kid names in GET /devices/v1/jwks.json: a device verifies it, and takes it only when its nonce is its latest request's and its sequence is above the last one it took, before trusting the state; it keeps enforcing it offline. The commands not yet acknowledged ride every answer. The check-in becomes the device's lastSeen; a SIM other than the enrolled one is recorded (LOCKED, reason SIM_MISMATCH, where the partner enabled SIM control). Rules: docs/decisions.md, sections 19 and 34.",
      security: [{ deviceCredential: [] }],
      requestBody: {
        required: true,
        content: jsonContent(checkinRequest, {
          'demo-device': {
            summary: "the demo order's device (DTSTBBB)",
            value: {
              imei: '123456789012347',
              simNumber: '8901000000000000001',
              appVersion: '1.0.0',
              acknowledged: [],
              nonce: 'q3Vx0b8kZ1nT4mWcE9aLr2HyJ6sPdFgU',
            },
          },
        }),
      },
      responses: {
        '200': {
          description: 'The signed state.',
          headers: successHeaders,
          content: jsonContent(obj({ data: checkinData, signature: str('A compact JWS over data (RFC 7515).') }), {
            unlocked: {
              summary: 'an active device',
              value: {
                data: checkinExample,
                signature:
                  'eyJhbGciOiJFZERTQSIsImtpZCI6ImRldiIsInR5cCI6ImRmcy1jaGVja2luK2p3cyJ9.eyJkZXZpY2VUYWciOi4uLn0.c2lnbmF0dXJl',
              },
            },
          }),
        },
        '400': devicesError(
          'INVALID_REQUEST_BODY: not JSON, not UTF-8, over 64 kB, a member twice, an imei not of 15 or 16 digits, no appVersion, a bad simNumber or acknowledged, no nonce or a malformed one. Nothing is written.',
          invalidRequestBody('has a bad imei: 15 or 16 digits'),
          'an imei that is not 15 or 16 digits',
        ),
        '401': devicesError(
          'INVALID_DEVICE_CREDENTIAL: no credential, a malformed one (refused unread), or an ended one. An Authorization header that is not "Bearer <credential>" is INVALID_ACCESS_TOKEN, as at every door.',
          deviceCredentialRefused,
          'a mistyped credential',
        ),
        '403': devicesError(
          "DEVICE_MISMATCH: the imei is not the credential's device's. The refusal is audited; nothing else is written.",
          new AppError('DEVICE_MISMATCH', "the imei is not the device's this credential was issued for"),
          "another device's imei",
        ),
        '405': devicesError(
          'METHOD_NOT_ALLOWED: this path takes POST only (see the Allow header).',
          new AppError('METHOD_NOT_ALLOWED', '/devices/v1/checkin accepts POST only, not GET'),
          'a GET',
        ),
        '415': devicesError(
          'UNSUPPORTED_MEDIA_TYPE: the body is not sent as application/json.',
          new AppError(
            'UNSUPPORTED_MEDIA_TYPE',
            'the request body must be JSON, sent with Content-Type: application/json',
          ),
          'a body sent as text/plain',
        ),
        '429': rateLimitedResponse(
          'devices',
          'RATE_LIMITED: the device checked in more often than RATE_LIMIT_REQUESTS per RATE_LIMIT_WINDOW_SECONDS, or the address failed authentication too often. Retry after Retry-After seconds.',
          rendered(
            'devices',
            rateLimited('too many check-ins from this device or address', 42),
            'a device past its quota',
          ),
        ),
        '503': errorAnswer('devices', 503, 'SERVICE_UNAVAILABLE: the database cannot be reached.'),
      },
    },
  },
  '/devices/v1/jwks.json': {
    get: {
      operationId: 'deviceSigningKeys',
      tags: [DEVICES_TAG],
      summary: 'The keys that sign check-in answers',
      description:
        'The public keys of DEVICE_SIGNING_KEYS as a JWK set (RFC 7517): Ed25519 (kty OKP), each with its kid. The first configured key signs; the others stay published through a rotation, so a device fetches the set now and then and keeps it for offline use. No credential.',
      security: [],
      responses: {
        '200': {
          description: 'The key set.',
          content: jsonContent(
            obj({
              keys: arr(
                obj({
                  kty: { const: 'OKP' },
                  crv: { const: 'Ed25519' },
                  x: str('The public key, base64url.'),
                  kid: str('The key id, as check-in signatures name it.'),
                  alg: { const: 'EdDSA' },
                  use: { const: 'sig' },
                }),
              ),
            }),
            {
              'one-key': {
                summary: 'one key',
                value: {
                  keys: [
                    {
                      kty: 'OKP',
                      crv: 'Ed25519',
                      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
                      kid: 'dev',
                      alg: 'EdDSA',
                      use: 'sig',
                    },
                  ],
                },
              },
            },
          ),
        },
        '405': devicesError(
          'METHOD_NOT_ALLOWED: this path takes GET and HEAD only (see the Allow header).',
          new AppError('METHOD_NOT_ALLOWED', '/devices/v1/jwks.json accepts GET or HEAD only, not POST'),
          'a POST',
        ),
      },
    },
  },
  '/graphql': {
    post: {
      operationId: 'executeGraphql',
      tags: [GRAPHQL_TAG],
      summary: 'Run a GraphQL operation',
      description:
        "GraphQL over HTTP (Apollo Server): a JSON body with query, and optionally variables and operationName. The graph is schema/*.graphql; introspection needs a key, and is off in production. The credential is any API key, as X-Api-Key (graphqlApiKey) or Authorization: Bearer (graphqlBearer, which also takes a vendor's access token): an operator key sees every partner; partner and retail keys their own partner, with the same scopes as the legacy routes. No credential is not refused up front (createAccessToken and __typename need none): each field that needs a key fails with MISSING_API_KEY, in a 200. A credential presented and not valid, a spent quota or the database away refuses the whole request with the status of the error table and no data. GET /graphql serves Apollo Sandbox (outside production) and GET queries; subscriptions use graphql-ws on the same path.",
      security: [{ graphqlApiKey: [] }, { graphqlBearer: [] }, {}],
      requestBody: { required: true, content: jsonContent(ref('GraphQLRequest')) },
      responses: {
        '200': {
          description:
            'The operation ran: data, and errors for the fields that failed (with extensions.code); a limit a field applies as it runs (the webhook tools, refused payment references) is such an error, RATE_LIMITED with extensions.retryAfter, beside the data of the fields that ran.',
          headers: successHeaders,
          content: jsonContent(ref('GraphQLResponse')),
        },
        '400': errorResponse(
          'graphql',
          'INVALID_REQUEST_BODY (not valid JSON), GRAPHQL_PARSE_FAILED or GRAPHQL_VALIDATION_FAILED (the document), BAD_USER_INPUT (the variables), or a limit of the cost or shape of the document.',
        ),
        '401': errorResponse(
          'graphql',
          'INVALID_API_KEY or INVALID_ACCESS_TOKEN: a credential was presented and is not valid, whatever the operation asks.',
        ),
        '405': errorResponse('graphql', 'METHOD_NOT_ALLOWED: /graphql takes GET and POST only (see the Allow header).'),
        '413': errorResponse(
          'graphql',
          'REQUEST_TOO_LARGE: the body is larger than 64 kB.',
          rendered('graphql', unreadableBody('entity.too.large', GRAPHQL_BODY_LIMIT), 'a body over 64 kB'),
        ),
        '414': errorAnswer('graphql', 414, 'URI_TOO_LONG: the query string is longer than 8 KiB.'),
        '415': errorResponse(
          'graphql',
          'UNSUPPORTED_MEDIA_TYPE: a charset other than UTF-8, or an unsupported Content-Encoding.',
          rendered('graphql', unreadableBody('charset.unsupported', GRAPHQL_BODY_LIMIT), 'a body in another charset'),
        ),
        '429': errorAnswer('graphql', 429, RATE_LIMITED),
        '503': errorAnswer(
          'graphql',
          503,
          'SERVICE_UNAVAILABLE: the database cannot be reached or did not answer in time.',
        ),
      },
    },
  },
  '/healthz': {
    get: {
      operationId: 'checkLiveness',
      tags: [OPERATIONS_TAG],
      summary: 'Liveness',
      description: "The process is up. Touches neither the database nor any key: for an orchestrator's liveness probe.",
      security: [],
      responses: {
        '200': { description: 'Alive.', content: jsonContent(ref('Liveness')) },
        '405': readOnly('/healthz'),
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'checkReadiness',
      tags: [OPERATIONS_TAG],
      summary: 'Readiness',
      description:
        'This instance can serve now: its database answers within 2 s and its migrations are current. 503 while it cannot, and once it is draining (SIGTERM), so a load balancer takes it out. Also says where the request limits are counted and how the read replica is; neither makes the instance unready.',
      security: [],
      responses: {
        '200': {
          description: 'Ready.',
          content: jsonContent(
            ref('Readiness'),
            readiness('ready, on Postgres', {
              status: 'ready',
              database: 'ok',
              migrations: 'current',
              rateLimitStore: 'shared (postgres)',
              replica: 'none',
            }),
          ),
        },
        '503': {
          description: 'Not ready (the database is unreachable, or migrations are pending or unknown), or draining.',
          content: jsonContent(ref('Readiness'), {
            ...readiness('the database cannot be reached', {
              status: 'not ready',
              database: 'unreachable',
              migrations: 'unknown',
              rateLimitStore: 'shared (postgres)',
              replica: 'none',
            }),
            ...readiness('draining after SIGTERM', {
              status: 'draining',
              database: 'ok',
              migrations: 'current',
              rateLimitStore: 'shared (postgres)',
              replica: 'none',
            }),
          }),
        },
        '405': readOnly('/readyz'),
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'scrapeMetrics',
      tags: [OPERATIONS_TAG],
      summary: 'Prometheus metrics',
      description:
        "The process's metrics in the Prometheus text format: requests by route template and status, payments recorded, replayed and refused, events, the database pool, the webhook queue, the replica, and Node's defaults. No key; labels never hold a URL or a key, but keep this endpoint off the public internet.",
      security: [],
      responses: {
        '200': {
          description: 'The scrape.',
          content: {
            'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' }, example: METRICS_EXAMPLE },
          },
        },
        '405': readOnly('/metrics'),
        '503': errorAnswer(
          'partner',
          503,
          'SERVICE_UNAVAILABLE: the database cannot be reached (the webhook queue depth is read from it).',
        ),
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApiDocument',
      tags: [OPERATIONS_TAG],
      summary: 'This document',
      description: 'The OpenAPI 3.1 document of the service, the same as openapi.json in the repository.',
      security: [],
      responses: {
        '200': {
          description: 'The document.',
          content: jsonContent(
            {
              type: 'object',
              properties: {
                openapi: { const: '3.1.0' },
                info: { type: 'object' },
                servers: { type: 'array' },
                tags: { type: 'array' },
                components: { type: 'object' },
                paths: { type: 'object' },
              },
              required: ['openapi', 'info', 'paths'],
            },
            {
              abridged: {
                summary: 'the document, abridged',
                value: { openapi: '3.1.0', info: { title: '...', version: '1.0.0' }, paths: {} },
              },
            },
          ),
        },
        '405': readOnly('/openapi.json'),
      },
    },
  },
};
