// The OpenAPI 3.1 document of the service: the legacy contract's eight endpoints (payments and
// partner query interfaces) and the vendors' repayment options beside them, /graphql and the operations
// endpoints, and the webhooks the service posts (rest/openapiWebhooks.ts), each with its operationId, tag,
// security (which key it takes) and every status it answers, every response with real examples.
// The legacy operations are derived from the route table (rest/routes.ts: path, method, door,
// credential, parameters, and each route's doc); their schemas are rest/openapiSchemas.ts's. npm run
// openapi builds it with the golden files as examples and writes openapi.json, which the service
// serves (a test holds the file to a fresh build); every golden test validates its response against
// it, so it cannot drift from the code; `npm run lint:openapi` holds it to Redocly's recommended rules.
import type { LegacyDoor } from '../http/errorResponses.js';
import { errorAnswer, type GoldenExample, readGoldenExamples, withGoldenExamples } from './openapiExamples.js';
import { reportPaths, reportsSecuritySchemes, reportsTag } from './openapiReportPaths.js';
import {
  arr,
  jsonContent,
  namedSchema,
  PARAM_SCHEMAS,
  type Parameter,
  RATE_LIMITED,
  type Schema,
  schemas,
  str,
  successHeaders,
} from './openapiSchemas.js';
import { DEVICES_TAG, GRAPHQL_TAG, OPERATIONS_TAG, servicePaths } from './openapiServicePaths.js';
import { buildWebhooks, webhookSchemas, webhooksTag } from './openapiWebhooks.js';
import { LEGACY_ROUTES, type LegacyRoute } from './routes.js';

const PAYMENTS_TAG = 'Payments interface';
const PARTNER_TAG = 'Partner query interface';
const DOOR_TAGS: Record<LegacyDoor, string> = { payments: PAYMENTS_TAG, partner: PARTNER_TAG };

const tags = [
  {
    name: PAYMENTS_TAG,
    description:
      "/payments/v1: a payment vendor trades its vendor key for a bearer access token, then notifies the payments it collected from customers. Errors: { error: { code, message } } (the contract's { error: { message } } with the code added).",
  },
  {
    name: PARTNER_TAG,
    description:
      "/v1: a partner's clerks, merchants, customers, carts and transactions, and payments taken in its stores. The API key travels as the key query parameter; partner keys and retail keys open different endpoints (each operation's security names the kinds it takes). A partner sees only its own records: another partner's is 404. Errors: { valid: false, message, error: { code, message } }.",
  },
  {
    name: GRAPHQL_TAG,
    description:
      '/graphql: the whole graph, which both legacy interfaces run through (one pipeline, one set of rules). Cursor pagination, writes for operators, subscriptions (graphql-ws).',
  },
  {
    name: DEVICES_TAG,
    description:
      "/devices/v1: the device door (docs/decisions.md 19). A device's lock agent checks in with its device credential (issueDeviceCredential) and is answered its lock state, signed with a key of the published JWK set. Errors: { error: { code, message } }.",
  },
  reportsTag,
  {
    name: OPERATIONS_TAG,
    description:
      'Health, metrics and this document, for orchestrators, monitoring and tooling. No key; errors in the partner body.',
  },
  webhooksTag,
];

const securitySchemes = {
  partnerKey: {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description:
      "A partner principal's partner key (demo: demo-partner-key): list-clerks, list-merchants, lookup-customer, lookup-cart, list-transactions.",
  },
  retailKey: {
    type: 'apiKey',
    in: 'query',
    name: 'key',
    description:
      "A partner principal's retail key, for its stores (demo: demo-retail-key): list-clerks, list-merchants, lookup-customer, record-customer-payment.",
  },
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An access token from POST /payments/v1/token, bought with a vendor key (demo: demo-vendor-key) and bound to that vendor; it lasts 3600 s by default.',
  },
  graphqlApiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Api-Key',
    description:
      'Any API key on /graphql: an operator key (demo: demo-operator-key) sees every partner; a partner or retail key its own partner, with the legacy scopes.',
  },
  graphqlBearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'On /graphql, Authorization: Bearer with an API key or an access token.',
  },
  deviceCredential: {
    type: 'http',
    scheme: 'bearer',
    description:
      "On /devices/v1/checkin, Authorization: Bearer with the device's credential (dvc_..., from issueDeviceCredential); it opens this door only.",
  },
  ...reportsSecuritySchemes,
};

/**
 * The errors every route of a door answers, by status; a route's doc.errors add its own statuses,
 * or say one of these its own way.
 */
const DOOR_ERRORS: Record<LegacyDoor, Readonly<Record<number, string>>> = {
  partner: {
    400: 'MISSING_QUERY_PARAMETER or INVALID_QUERY_PARAMETER (a malformed value, or a parameter given more than once), or a refusal named by its code.',
    401: 'MISSING_API_KEY or INVALID_API_KEY (unknown, revoked or expired: one answer for all).',
    403: 'FORBIDDEN: a valid key of a kind this endpoint does not take.',
    405: 'METHOD_NOT_ALLOWED: this path takes another method (see the Allow header).',
    414: 'URI_TOO_LONG: the query string is longer than 8 KiB (8192 bytes).',
    429: RATE_LIMITED,
    500: 'INTERNAL_SERVER_ERROR: the message carries an error id; the detail is in the service log.',
    503: 'SERVICE_UNAVAILABLE: the database cannot be reached or did not answer in time; retry shortly.',
  },
  payments: {
    405: 'METHOD_NOT_ALLOWED: another method than POST (see the Allow header).',
    414: 'The query string is longer than 8 KiB (8192 bytes).',
    415: 'The body is not sent as application/json.',
    429: RATE_LIMITED,
    500: 'Internal server error.',
    503: 'The database cannot be reached or did not answer in time.',
  },
};

/** create-access-token -> createAccessToken */
const operationId = (name: string) => name.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Which credential the route takes, as security requirements (decisions.md 1). */
function securityOf(route: LegacyRoute): Array<Record<string, []>> {
  switch (route.credential.in) {
    case 'none':
      return [];
    case 'bearer':
      return [{ accessToken: [] }];
    case 'query': {
      // The partnerKey and retailKey schemes are both the `key` query parameter, told apart by the kind of key.
      const keys = route.doc.keys;
      if (!keys?.length) throw new Error(`route ${route.name} takes a key but its doc names no kind of key`);
      return keys.map((kind) => ({ [`${kind}Key`]: [] }));
    }
  }
}

/** The route's declared query parameters, then the headers it reads. */
function parametersOf(route: LegacyRoute): Parameter[] {
  const query = route.typed(({ params }) =>
    Object.entries(params).map(([name, spec]): Parameter => {
      const schema: Schema = PARAM_SCHEMAS[spec.kind];
      return {
        name,
        in: 'query',
        required: spec.required,
        description: spec.description,
        ...(spec.repeatable ? { schema: arr(schema), style: 'form', explode: true } : { schema }),
      };
    }),
  );
  const headers = Object.entries(route.doc.headers ?? {}).map(
    ([name, description]): Parameter => ({ name, in: 'header', required: false, description, schema: str() }),
  );
  return [...query, ...headers];
}

/** A legacy route as an OpenAPI Path Item: its one method, every status it answers. */
function legacyPathItem(route: LegacyRoute, notification: Schema) {
  const { doc, door } = route;
  const parameters = parametersOf(route);
  const errors: Record<number, string> = { ...DOOR_ERRORS[door], ...doc.errors };
  // Only a route that reads a JSON body refuses one of another type (http/jsonBody.ts).
  if (!route.jsonBody) delete errors[415];
  return {
    [route.method.toLowerCase()]: {
      operationId: operationId(route.name),
      tags: [DOOR_TAGS[door]],
      summary: doc.summary,
      description: doc.description,
      security: securityOf(route),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(doc.body
        ? { requestBody: { required: true, content: jsonContent(namedSchema(doc.body, notification)) } }
        : {}),
      responses: {
        '200': {
          description: doc.answer.description,
          headers: successHeaders,
          content: jsonContent(namedSchema(doc.answer.schema, notification)),
        },
        ...Object.fromEntries(
          Object.entries(errors).map(([status, description]) => [
            status,
            errorAnswer(door, Number(status), description),
          ]),
        ),
      },
    },
  };
}

/**
 * The document with `goldens` as its examples (npm run openapi builds it from fresh goldens), and
 * `notification` (a vendor's stored request schema: the demo vendor's) as the notification body.
 */
function buildOpenApiDocument(goldens: readonly GoldenExample[], notification: Schema) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Device-financing service',
      version: '1.0.0',
      description:
        'The legacy contract, the payments interface (/payments/v1) and the partner query interface (/v1), with the GraphQL door both run through and the operations endpoints. Every response carries X-Request-ID; every answer to a request whose API key (or access token) was accepted carries RateLimit-Policy and RateLimit. The examples are the answers of the golden files (test/golden), recorded against the demo data set with the clock at 2026-06-10T15:30:00Z.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    // Relative: the service that serves this document (npm start: http://localhost:4000).
    servers: [{ url: '/', description: 'The service that serves this document.' }],
    tags,
    components: { securitySchemes, schemas: { ...schemas, ...webhookSchemas } },
    paths: withGoldenExamples(
      {
        ...Object.fromEntries(LEGACY_ROUTES.map((route) => [route.path, legacyPathItem(route, notification)])),
        ...servicePaths,
        ...reportPaths,
      },
      goldens,
    ),
    // What the service posts to webhook endpoints, one entry per event type (docs/decisions.md 41).
    webhooks: buildWebhooks(),
  };
}

/** openapi.json's text: the document with the golden files under `goldenDir` (test/golden/) as its examples. */
export const openApiFileText = (goldenDir: string, notification: Schema) =>
  `${JSON.stringify(buildOpenApiDocument(readGoldenExamples(goldenDir), notification), null, 2)}\n`;
