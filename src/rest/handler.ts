// One legacy request: read the credential, parameters and body, run the route's operation through the
// same Apollo pipeline /graphql uses (executeOperation, in-process), map the data to the legacy body,
// and answer errors through the one renderer (http/errorResponses.ts). No rule of the domain lives here.
import type { ApolloServer } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { ReadAhead } from '../db/readAhead.js';
import { sendError, sendUnexpectedError } from '../http/errorResponses.js';
import { readJsonBody } from '../http/jsonBody.js';
import { AppError } from '../kernel/errors.js';
import { listSizeOf } from '../kernel/listSize.js';
import {
  bearerCredential,
  type Credential,
  principalForLog,
  requireRoutePrincipal,
} from '../modules/auth/principal.js';
import { setRateLimitHeaders } from '../ops/headers.js';
import { type Context, createContext, pageContext, type ServiceDeps } from '../pipeline/context.js';
import type { LegacyListBody } from './mappers.js';
import {
  type ParamSpecs,
  type ParamValues,
  type QueryParams,
  readDeclaredParams,
  readQueryParams,
  singleValue,
} from './params.js';
import type { LegacyRequest, LegacyRoute, LegacyRouteHead, OperationVariables, TypedLegacyRoute } from './routes.js';

interface LegacyHandlerDeps {
  service: ServiceDeps;
  apollo: ApolloServer<Context>;
  /** The graph's schema: a list route's page is its field's @listSize bound. */
  schema: GraphQLSchema;
  /** A list answer the client takes nothing of for this long is cut (REQUEST_TIMEOUT_MS); absent: never. */
  stalledClientMs?: number;
}

/** An argument error of the graph, said of the query parameter or header the legacy request used. */
function inLegacyTerms(route: LegacyRouteHead, error: GraphQLFormattedError): GraphQLFormattedError {
  const { code, argument, problem } = error.extensions ?? {};
  const name = typeof argument === 'string' ? route.argumentNames?.[argument] : undefined;
  if (code !== 'INVALID_ARGUMENT' || !name) return error;
  if ('param' in name) {
    return {
      message: `the ${name.param} query parameter ${String(problem)}`,
      extensions: { code: 'INVALID_QUERY_PARAMETER' },
    };
  }
  return { message: `the ${name.header} header ${String(problem)}`, extensions: { code: 'INVALID_ARGUMENT' } };
}

function credentialOf(route: LegacyRouteHead, params: QueryParams, req: Request): Credential {
  const source = route.credential;
  if (source.in === 'query') {
    return {
      value: singleValue(params, source.name),
      expected: 'an API key',
      presentedAs: `${source.name} query parameter`,
    };
  }
  if (source.in === 'bearer') {
    const value = bearerCredential(req.get('authorization'), 'access token');
    return { value, expected: 'an access token', presentedAs: 'Authorization: Bearer header' };
  }
  return { value: undefined, expected: 'nothing', presentedAs: 'nothing' };
}

/** Runs the route's operation through the Apollo pipeline: its data, or its first error in legacy terms. */
async function execute<TData>(
  deps: LegacyHandlerDeps,
  route: LegacyRouteHead,
  variables: OperationVariables,
  contextValue: Context,
): Promise<{ data: TData } | { error: GraphQLFormattedError }> {
  // TData is the operation's generated type (codegen from the same .graphql file).
  const response = await deps.apollo.executeOperation<TData>({ query: route.operation, variables }, { contextValue });
  if (response.body.kind !== 'single') throw new Error(`operation of ${route.name} returned an incremental result`);
  const { data, errors } = response.body.singleResult;
  if (errors?.length) return { error: inLegacyTerms(route, errors[0]!) };
  if (data === undefined || data === null) throw new Error(`operation of ${route.name} returned no data and no error`);
  return { data };
}

/**
 * Resolves once the client has taken what was written, or has gone away; or, when the client takes
 * nothing for `stalledMs`, calls `stalled` and resolves. Node's socket timeout measures exactly that:
 * a send queue that still shrinks counts as activity, so a slow reader that keeps reading is never
 * stalled, however long the answer takes.
 */
function drained(res: Response, gone: AbortSignal, stalledMs: number | undefined, stalled: () => void): Promise<void> {
  return new Promise((resolve) => {
    const socketTimeout = res.socket?.timeout ?? 0;
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      res.off('timeout', onStall);
      gone.removeEventListener('abort', done);
      if (stalledMs) res.setTimeout(socketTimeout);
      resolve();
    };
    const onStall = () => {
      done();
      stalled();
    };
    res.on('drain', done);
    res.on('close', done);
    gone.addEventListener('abort', done);
    if (stalledMs) {
      res.on('timeout', onStall);
      res.setTimeout(stalledMs);
    }
  });
}

/** How much of a page's text is gathered before it is written (the client's pace is awaited once per page). */
const WRITE_CHARS = 64 * 1024;

type Outcome<TData> = Awaited<ReturnType<typeof execute<TData>>>;

/**
 * A list answer, page by page: each page is one run of the operation, mapped and written as it
 * arrives, then forgotten, so memory holds at most two pages whatever the list's length: once a
 * page's data (and its endCursor) is in hand, the next page is read while this one is mapped and
 * written (the database works while this process does). Each page runs with loaders of its own.
 * An error on the first page is an ordinary error answer; after that the status is sent, and a
 * failure can only cut the body short (abandonList), which no client can mistake for a whole list.
 * A client that goes away stops the list: no page is started after, the one being read is cancelled.
 */
async function writeList<TData>(
  res: Response,
  deps: LegacyHandlerDeps,
  route: LegacyRouteHead,
  list: { field: string; body: LegacyListBody<TData> },
  variables: OperationVariables,
  contextValue: Context,
): Promise<void> {
  const pageSize = listSizeOf(deps.schema, 'Query', list.field)!.max;
  // Gone: the connection closed, or the client shut its side (Node then ends ours: nothing more can be sent).
  const gone = new AbortController();
  const leave = () => gone.abort();
  const socket = res.socket;
  res.once('close', leave);
  socket?.once('end', leave);
  // Each page may leave its successor's read here, so that it runs beside the page (src/db/readAhead.ts).
  const readAhead = new ReadAhead(gone.signal);
  const read = (after: string | null) => {
    const page = execute<TData>(
      deps,
      route,
      { ...variables, first: pageSize, after },
      pageContext(contextValue, gone.signal, readAhead),
    );
    // Awaited once the page before it is written; a failure meanwhile is not unhandled.
    page.catch(() => undefined);
    return page;
  };
  let next: Promise<Outcome<TData>> | undefined = read(null);
  let items = 0;
  try {
    while (next) {
      const outcome: Outcome<TData> = await next;
      next = undefined;
      if (gone.signal.aborted) return void res.destroy();
      if ('error' in outcome) {
        if (!res.headersSent) return sendError(res, route.door, outcome.error);
        return abandonList(res, deps, route, outcome.error);
      }
      const { hasNextPage, endCursor } = list.body.next(outcome.data, pageSize);
      if (hasNextPage && endCursor) next = read(endCursor);
      let chunk = res.headersSent ? '' : list.body.head;
      if (!res.headersSent) res.status(200).set('Content-Type', 'application/json; charset=utf-8');
      list.body.items(outcome.data, (item) => {
        chunk += (items++ ? ',' : '') + JSON.stringify(item);
        // Written as it grows: each piece of text is garbage once sent, not held until the page is.
        if (chunk.length >= WRITE_CHARS) {
          res.write(chunk);
          chunk = '';
        }
      });
      if (!res.write(chunk)) await drained(res, gone.signal, deps.stalledClientMs, () => cutStalled(res, deps, route));
      if (gone.signal.aborted || res.destroyed) return void res.destroy();
    }
    res.end(list.body.tail);
  } finally {
    res.off('close', leave);
    socket?.off('end', leave);
    // A page still being read when the list stops early is cancelled and awaited: nothing runs on.
    if (next) {
      gone.abort();
      await next.catch(() => undefined);
    }
    await readAhead.close();
  }
}

/**
 * A list that failed after its status was sent: logged, and the connection closed mid-body once what
 * was written has gone out (the body's end never comes, so the client sees an incomplete answer).
 */
function abandonList(res: Response, deps: LegacyHandlerDeps, route: LegacyRouteHead, error: unknown): void {
  deps.service.logger.error(
    { err: error, requestId: res.locals.requestId, route: route.name },
    'list cut short after its first page',
  );
  if (res.socket) res.socket.end();
  else res.destroy();
}

/** A list the client stopped taking (section 26 of decisions.md): logged, and the connection closed at once. */
function cutStalled(res: Response, deps: LegacyHandlerDeps, route: LegacyRouteHead): void {
  deps.service.logger.warn(
    { requestId: res.locals.requestId, route: route.name, stalledMs: deps.stalledClientMs },
    'list cut: the client took nothing of it',
  );
  res.destroy();
}

/** The rest of a request once its caller is known: parameters, body, operation and answer, typed by the route. */
async function answer<TData, P extends ParamSpecs>(
  deps: LegacyHandlerDeps,
  route: TypedLegacyRoute<TData, P>,
  query: QueryParams,
  req: Request,
  res: Response,
  contextValue: Context,
): Promise<void> {
  const request: LegacyRequest<ParamValues<P>> = {
    params: readDeclaredParams(query, route.params),
    body: route.jsonBody ? await readJsonBody(req, res) : undefined,
    header: (name) => req.get(name),
  };
  const variables = route.variables(request);
  if (route.list) return writeList(res, deps, route, route.list, variables, contextValue);

  const outcome = await execute<TData>(deps, route, variables, contextValue);
  if ('error' in outcome) return sendError(res, route.door, outcome.error);
  const body = route.toLegacy(outcome.data, request);
  if (route.replayed?.(outcome.data)) res.set('Idempotent-Replayed', 'true');
  res.status(200).json(body);
}

export function createLegacyHandler(deps: LegacyHandlerDeps, route: LegacyRoute): RequestHandler {
  return async (req: Request, res: Response) => {
    if (route.noStore) res.set('Cache-Control', 'no-store');
    try {
      const query = readQueryParams(req.originalUrl);
      const contextValue = await createContext(deps.service, {
        credential: credentialOf(route, query, req),
        credentialInBody: route.credential.in === 'none',
        requestId: res.locals.requestId,
        clientAddress: req.ip ?? null,
        onQuota: (quota) => setRateLimitHeaders(res, quota),
      });
      res.locals.principal = principalForLog(contextValue.auth.principal);
      // Authentication before parameters: an unauthenticated caller learns nothing about them. What
      // each route needs is declared in its table entry; the partner interface is the partners' door.
      requireRoutePrincipal(contextValue, route.principal);
      await route.typed((typed) => answer(deps, typed, query, req, res, contextValue));
    } catch (error) {
      if (res.headersSent) return abandonList(res, deps, route, error);
      if (error instanceof AppError) return sendError(res, route.door, error);
      sendUnexpectedError(res, route.door, error, deps.service, route.name);
    }
  };
}
