// The OpenAPI 3.1 document of the service: the legacy contract's eight endpoints (payments and
// partner query interfaces), /graphql and the operations endpoints, each with its operationId, tag,
// security (which key it takes) and every status it answers, every response with real examples.
// Served at GET /openapi.json and kept in the repo as openapi.json (npm run openapi; a test keeps the
// two equal). Every golden test validates its response against it, so it cannot drift from the code;
// `npm run lint:openapi` holds it to Redocly's recommended rules.
import { GOLDEN_EXAMPLES, type GoldenExample } from '../__generated__/goldenExamples.js';
import { withGoldenExamples } from './openapiExamples.js';
import { legacyPaths, PARTNER_TAG, PAYMENTS_TAG } from './openapiLegacyPaths.js';
import { schemas } from './openapiSchemas.js';
import { GRAPHQL_TAG, OPERATIONS_TAG, servicePaths } from './openapiServicePaths.js';

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
    name: OPERATIONS_TAG,
    description:
      'Health, metrics and this document, for orchestrators, monitoring and tooling. No key; errors in the partner body.',
  },
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
};

/** The document with `goldens` as its examples (npm run openapi builds it from fresh goldens). */
export function buildOpenApiDocument(goldens: readonly GoldenExample[]) {
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
    components: { securitySchemes, schemas },
    paths: withGoldenExamples({ ...legacyPaths, ...servicePaths }, goldens),
  };
}

export const openApiDocument = buildOpenApiDocument(GOLDEN_EXAMPLES);
