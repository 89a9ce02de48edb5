// The service's own doors in the OpenAPI document: /graphql (the door both legacy interfaces run
// through) and the operations endpoints of src/ops/router.ts, as they really answer.
import { unreadableBody } from '../kernel/errors.js';
import { GRAPHQL_BODY_LIMIT } from '../kernel/limitSettings.js';
import type { Readiness } from '../ops/health.js';
import { errorAnswer, rendered } from './openapiExamples.js';
import { type Examples, errorResponse, jsonContent, RATE_LIMITED, ref, successHeaders } from './openapiSchemas.js';

export const GRAPHQL_TAG = 'GraphQL';
export const OPERATIONS_TAG = 'Operations';

const readiness = (summary: string, value: Readiness): Examples => ({
  [value.status.replace(' ', '-')]: { summary, value },
});

// A few lines of a real scrape (test/openapi.test.ts checks each HELP line against GET /metrics).
const METRICS_EXAMPLE = `# HELP http_requests_total HTTP requests answered, by method, route template and status.
# TYPE http_requests_total counter
http_requests_total{method="GET",route="/v1/list-clerks.php",status="200"} 3
# HELP payments_recorded_total Payments recorded (new payments only; replays are counted in payments_replayed_total), by channel.
# TYPE payments_recorded_total counter
payments_recorded_total{channel="store"} 1
`;

const readOnly = (path: string) =>
  errorResponse('partner', `METHOD_NOT_ALLOWED: ${path} takes GET and HEAD only (see the Allow header).`);

export const servicePaths = {
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
          description: 'The operation ran: data, and errors for the fields that failed (with extensions.code).',
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
