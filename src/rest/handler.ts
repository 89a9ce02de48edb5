// One legacy request: read the credential, parameters and body, run the route's operation through the
// same Apollo pipeline /graphql uses (executeOperation, in-process), map the data to the legacy body,
// and answer errors through the one renderer (http/errorResponses.ts). No rule of the domain lives here.
import type { ApolloServer } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { createContext, forgetCachedReads, type Context, type ServiceDeps } from '../context.js';
import { AppError, invalidAccessToken } from '../errors.js';
import { sendError, sendUnexpectedError } from '../http/errorResponses.js';
import { listSizeOf } from '../listSize.js';
import { setRateLimitHeaders } from '../ops/headers.js';
import { principalForLog, requirePartnerTenant, requirePrincipal, type Credential } from '../modules/auth/principal.js';
import { readJsonBody } from './jsonBody.js';
import { readDeclaredParams, readQueryParams, singleValue, type QueryParams } from './params.js';
import type { LegacyListBody } from './mappers.js';
import type { LegacyRequest, LegacyRoute } from './routes.js';

export interface LegacyHandlerDeps {
  service: ServiceDeps;
  apollo: ApolloServer<Context>;
  /** The graph's schema: a list route's page is its field's @listSize bound. */
  schema: GraphQLSchema;
}

/** An argument error of the graph, said of the query parameter or header the legacy request used. */
function inLegacyTerms(route: LegacyRoute<never>, error: GraphQLFormattedError): GraphQLFormattedError {
  const { code, argument, problem } = error.extensions ?? {};
  const name = typeof argument === 'string' ? route.argumentNames?.[argument] : undefined;
  if (code !== 'INVALID_ARGUMENT' || !name) return error;
  if ('param' in name) {
    return { message: `the ${name.param} query parameter ${String(problem)}`, extensions: { code: 'INVALID_QUERY_PARAMETER' } };
  }
  return { message: `the ${name.header} header ${String(problem)}`, extensions: { code: 'INVALID_ARGUMENT' } };
}

function credentialOf(route: LegacyRoute<never>, params: QueryParams, req: Request): Credential {
  const source = route.credential;
  if (source.in === 'query') {
    return { value: singleValue(params, source.name), expected: 'an API key', presentedAs: `${source.name} query parameter` };
  }
  if (source.in === 'bearer') {
    const header = req.get('authorization');
    const match = header === undefined ? null : /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
    if (header !== undefined && header.trim() !== '' && !match) {
      throw invalidAccessToken('the Authorization header must be "Bearer <access token>"');
    }
    return { value: match?.[1], expected: 'an access token', presentedAs: 'Authorization: Bearer header' };
  }
  return { value: undefined, expected: 'nothing', presentedAs: 'nothing' };
}

/** Runs the route's operation through the Apollo pipeline: its data, or its first error in legacy terms. */
async function execute(
  deps: LegacyHandlerDeps,
  route: LegacyRoute<never>,
  variables: Record<string, unknown>,
  contextValue: Context,
): Promise<{ data: unknown } | { error: GraphQLFormattedError }> {
  const response = await deps.apollo.executeOperation({ query: route.operation, variables }, { contextValue });
  if (response.body.kind !== 'single') throw new Error(`operation of ${route.name} returned an incremental result`);
  const { data, errors } = response.body.singleResult;
  if (errors?.length) return { error: inLegacyTerms(route, errors[0]!) };
  return { data };
}

/** Resolves once the client has taken what was written, or has gone away. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * A list answer, page by page: each page is one run of the operation; it is mapped and written as
 * it arrives, then forgotten (the loaders too), so memory holds one page whatever the list's length.
 * An error on the first page is an ordinary error answer; after that the status is sent, and a
 * failure can only cut the body short (abandonList), which no client can mistake for a whole list.
 */
async function writeList(
  res: Response,
  deps: LegacyHandlerDeps,
  route: LegacyRoute<never>,
  list: { field: string; body: LegacyListBody<never> },
  variables: Record<string, unknown>,
  contextValue: Context,
): Promise<void> {
  const pageSize = listSizeOf(deps.schema, 'Query', list.field)!.max;
  let after: string | null = null;
  let items = 0;
  for (;;) {
    const outcome = await execute(deps, route, { ...variables, first: pageSize, after }, contextValue);
    if ('error' in outcome) {
      if (!res.headersSent) return sendError(res, route.surface, outcome.error);
      return abandonList(res, deps, route, outcome.error);
    }
    const page = list.body.page(outcome.data as never, pageSize);
    let chunk = res.headersSent ? '' : list.body.head;
    for (const item of page.items) chunk += (items++ ? ',' : '') + JSON.stringify(item);
    if (!res.headersSent) res.status(200).set('Content-Type', 'application/json; charset=utf-8');
    if (!res.write(chunk)) await drained(res);
    if (res.destroyed) return;
    if (!page.hasNextPage || !page.endCursor) break;
    after = page.endCursor;
    forgetCachedReads(contextValue);
  }
  res.end(list.body.tail);
}

/**
 * A list that failed after its status was sent: logged, and the connection closed mid-body once what
 * was written has gone out (the body's end never comes, so the client sees an incomplete answer).
 */
function abandonList(res: Response, deps: LegacyHandlerDeps, route: LegacyRoute<never>, error: unknown): void {
  deps.service.logger.error({ err: error, requestId: res.locals.requestId, route: route.name }, 'list cut short after its first page');
  if (res.socket) res.socket.end();
  else res.destroy();
}

export function createLegacyHandler(deps: LegacyHandlerDeps, route: LegacyRoute<never>): RequestHandler {
  return async (req: Request, res: Response) => {
    if (route.noStore) res.set('Cache-Control', 'no-store');
    try {
      const params = readQueryParams(req.originalUrl);
      const credential = credentialOf(route, params, req);
      const contextValue = await createContext(deps.service, {
        credential,
        credentialInBody: route.credential.in === 'none',
        requestId: res.locals.requestId as string,
        clientAddress: req.ip ?? null,
        onQuota: (quota) => setRateLimitHeaders(res, quota),
      });
      res.locals.principal = principalForLog(contextValue.auth.principal);
      // Authentication before parameters: an unauthenticated caller learns nothing about them.
      if (route.credential.in !== 'none') requirePrincipal(contextValue);
      // The partner interface is the partners' door (decisions.md 1): operator and vendor keys use
      // GraphQL and the payments interface. Which partner key kind each route takes is the graph's rule.
      if (route.surface === 'partner') requirePartnerTenant(contextValue);
      const request: LegacyRequest = {
        params: readDeclaredParams(params, route.params),
        body: route.jsonBody ? await readJsonBody(req, res) : undefined,
        header: (name) => req.get(name),
      };
      const variables = route.variables(request);
      if (route.list) return await writeList(res, deps, route, route.list, variables, contextValue);

      const outcome = await execute(deps, route, variables, contextValue);
      if ('error' in outcome) return sendError(res, route.surface, outcome.error);
      const body = route.toLegacy(outcome.data as never, request);
      if (route.replayed?.(outcome.data as never)) res.set('Idempotent-Replayed', 'true');
      res.status(200).json(body);
    } catch (error) {
      if (res.headersSent) return abandonList(res, deps, route, error);
      if (error instanceof AppError) return sendError(res, route.surface, error);
      sendUnexpectedError(res, route.surface, error, deps.service, route.name);
    }
  };
}
