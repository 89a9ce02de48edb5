// The /graphql door over HTTP, in the shape of Apollo Server's express5 integration: it translates an
// Express request into Apollo's HTTPGraphQLRequest, asks the pipeline (executeHTTPGraphQLRequest; the
// REST shim asks the same one in-process, with executeOperation) and writes Apollo's answer. Its own rules stand in front:
// /graphql exactly, GET and POST only, a JSON body within the limit; the request's context is built
// by createContext, as at every door (the credential, the limits).
import { type ApolloServer, HeaderMap, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { withHttpStatus } from '../kernel/errors.js';
import { GRAPHQL_BODY_LIMIT, type LimitSettings } from '../kernel/limitSettings.js';
import { principalForLog } from '../modules/auth/principal.js';
import { type Context, createContext, type ServiceDeps } from '../pipeline/context.js';
import { type KeylessRequest, refusedWithoutCredential } from '../pipeline/documentLimits/keylessRequests.js';
import { graphqlCredential } from './credentials.js';
import { allowOnly } from './errorResponses.js';
import { setRateLimitHeaders } from './rateLimitHeaders.js';

export const GRAPHQL_PATH = '/graphql';

/** Whether the request is for /graphql itself: Express's mounts also take /graphql/, /graphql/foo, /GRAPHQL. */
export function isGraphqlPath(req: Request): boolean {
  const query = req.originalUrl.indexOf('?');
  return (query === -1 ? req.originalUrl : req.originalUrl.slice(0, query)) === GRAPHQL_PATH;
}

/** The document and persisted-query flag of a /graphql request, read where Apollo reads them. */
function keylessRequestOf(request: HTTPGraphQLRequest): KeylessRequest {
  if (request.method === 'GET') {
    const search = new URLSearchParams(request.search);
    const queries = search.getAll('query');
    let extensions: unknown;
    try {
      extensions = JSON.parse(search.get('extensions') ?? 'null');
    } catch {
      extensions = null; // Apollo refuses it (400)
    }
    return { query: queries.length === 1 ? queries[0] : undefined, persistedQuery: hasPersistedQuery(extensions) };
  }
  const body: unknown = request.body;
  if (typeof body !== 'object' || body === null) return { query: undefined, persistedQuery: false };
  const { query, extensions } = body as { query?: unknown; extensions?: unknown };
  return { query, persistedQuery: hasPersistedQuery(extensions) };
}

const hasPersistedQuery = (extensions: unknown) =>
  typeof extensions === 'object' &&
  extensions !== null &&
  ('persistedQuery' in extensions || 'documentId' in extensions);

/**
 * GraphQL over HTTP's persisted documents name a document by `documentId` beside `query`; Apollo
 * keeps only the extensions of a request, so the id is moved there for the pipeline (decisions.md 33).
 */
function documentIdIntoExtensions(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('documentId' in body)) return body;
  const { documentId, extensions, ...request } = body as { documentId: unknown; extensions?: unknown };
  const others = typeof extensions === 'object' && extensions !== null ? extensions : {};
  return { ...request, extensions: { ...others, documentId } };
}

/** Translates: the Express request as Apollo's HTTP request. */
function httpGraphqlRequestOf(req: Request): HTTPGraphQLRequest {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const query = req.url.indexOf('?');
  return {
    method: req.method.toUpperCase(),
    headers,
    search: query === -1 ? '' : req.url.slice(query),
    body: documentIdIntoExtensions(req.body),
  };
}

/** Writes: Apollo's answer, whole or (an incremental delivery) chunk by chunk. */
async function writeAnswer(res: Response, answer: HTTPGraphQLResponse): Promise<void> {
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.statusCode = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    res.send(answer.body.string);
    return;
  }
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

/**
 * The request's context, or its refusal (thrown with the error's HTTP status: Apollo answers it before
 * anything runs). A credential presented and not valid is 401 whatever is asked; none at all is 401
 * once the document is parsed, before any validation or cost, unless it only buys access tokens.
 */
async function contextOf(
  { service, limits }: Pick<GraphqlDoorDeps, 'service' | 'limits'>,
  request: HTTPGraphQLRequest,
  req: Request,
  res: Response,
): Promise<Context> {
  try {
    const context = await createContext(service, {
      credential: {
        value: graphqlCredential(req.get('x-api-key'), req.get('authorization')),
        expected: 'an API key',
        presentedAs: 'X-Api-Key header (or Authorization: Bearer)',
      },
      requestId: res.locals.requestId as string,
      clientAddress: req.ip ?? null,
      onQuota: (quota) => setRateLimitHeaders(res, quota),
    });
    res.locals.principal = principalForLog(context.auth.principal);
    const { auth } = context;
    if (
      !auth.principal &&
      (context.credential.value || refusedWithoutCredential(keylessRequestOf(request), limits.graphql.maxTokens))
    )
      throw auth.failure;
    return context;
  } catch (error) {
    throw withHttpStatus(error);
  }
}

export interface GraphqlDoorDeps {
  service: ServiceDeps;
  /** Started: the pipeline both doors ask. */
  apollo: ApolloServer<Context>;
  limits: LimitSettings;
}

/** The door, to mount at /graphql. A body that cannot be read goes on to the app's last resort (a 4xx). */
export function createGraphqlDoor({ service, apollo, limits }: GraphqlDoorDeps): Router {
  apollo.assertStarted('the /graphql door');
  const exchange: RequestHandler = async (req, res) => {
    const request = httpGraphqlRequestOf(req);
    const answer = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: request,
      context: () => contextOf({ service, limits }, request, req, res),
    });
    await writeAnswer(res, answer);
  };
  const router = express.Router();
  router.use(
    (req, res, next) => {
      // Anything under the mount but /graphql itself is no endpoint: the app's 404.
      if (!isGraphqlPath(req)) return next('router');
      res.locals.route = GRAPHQL_PATH;
      next();
    },
    allowOnly(GRAPHQL_PATH, ['GET', 'POST']),
    express.json({ limit: GRAPHQL_BODY_LIMIT }),
    exchange,
  );
  return router;
}
