// One legacy request: read the credential, parameters and body, run the route's operation through the
// same Apollo pipeline /graphql uses (executeOperation, in-process), map the data to the legacy body,
// and answer errors with the status table. No rule of the domain lives here.
import type { ApolloServer } from '@apollo/server';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { createContext, type Context, type ServiceDeps } from '../context.js';
import { AppError, invalidAccessToken, invalidRequestBody, isErrorCode, maskUnexpectedError, type ErrorCode } from '../errors.js';
import { principalForLog } from '../logger.js';
import { requirePartnerTenant, requirePrincipal, type Credential } from '../modules/auth/principal.js';
import { readDeclaredParams, readQueryParams, singleValue, type QueryParams } from './params.js';
import type { LegacyRequest, LegacyRoute } from './routes.js';
import { HTTP_STATUS, legacyErrorBody, type Surface } from './status.js';

export interface LegacyHandlerDeps {
  service: ServiceDeps;
  apollo: ApolloServer<Context>;
}

export function sendLegacyError(res: Response, surface: Surface, code: ErrorCode, message: string): void {
  res.status(HTTP_STATUS[code]).json(legacyErrorBody(surface, code, message));
}

/** Masks an unexpected error (500, or 503 when the database is unreachable) and logs its detail. */
export function sendUnexpectedError(res: Response, surface: Surface, error: unknown, deps: Pick<ServiceDeps, 'logger'>, where: string): void {
  const { formatted, errorId } = maskUnexpectedError({ message: 'unexpected' }, error);
  deps.logger.error({ err: error, errorId, where, requestId: res.locals.requestId }, 'unexpected error');
  sendGraphQLError(res, surface, formatted);
}

/** A RATE_LIMITED answer says when a request will be accepted again (errors.ts rateLimited). */
function setRetryAfter(res: Response, extensions: Readonly<Record<string, unknown>> | undefined): void {
  const retryAfter = extensions?.retryAfter;
  if (extensions?.code === 'RATE_LIMITED' && typeof retryAfter === 'number') res.set('Retry-After', String(retryAfter));
}

function sendGraphQLError(res: Response, surface: Surface, error: GraphQLFormattedError): void {
  const code = error.extensions?.code;
  setRetryAfter(res, error.extensions);
  // Anything without one of our codes reaching here is a bug in a handwritten operation: mask it.
  if (isErrorCode(code)) sendLegacyError(res, surface, code, error.message);
  else sendLegacyError(res, surface, 'INTERNAL_SERVER_ERROR', 'internal server error');
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

const BODY_LIMIT = '64kb';
const parseJson = express.json({ limit: BODY_LIMIT, strict: false, type: () => true });

/** The JSON body of a payments request; a wrong type, bad JSON or a body over the limit is a 4xx. */
function readJsonBody(req: Request, res: Response): Promise<unknown> {
  if (!req.is('application/json')) {
    return Promise.reject(new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be JSON, sent with Content-Type: application/json'));
  }
  return new Promise((resolve, reject) => {
    parseJson(req, res, (error?: unknown) => {
      if (!error) return resolve(req.body);
      const type = (error as { type?: string }).type;
      if (type === 'entity.too.large') return reject(invalidRequestBody(`is larger than ${BODY_LIMIT}`));
      if (type === 'charset.unsupported' || type === 'encoding.unsupported') return reject(invalidRequestBody('must be UTF-8 JSON, not compressed'));
      reject(invalidRequestBody('is not valid JSON'));
    });
  });
}

export function createLegacyHandler(deps: LegacyHandlerDeps, route: LegacyRoute<never>): RequestHandler {
  return async (req: Request, res: Response) => {
    if (route.noStore) res.set('Cache-Control', 'no-store');
    try {
      const params = readQueryParams(req.originalUrl);
      const credential = credentialOf(route, params, req);
      const contextValue = await createContext(deps.service, { credential, requestId: res.locals.requestId as string, clientAddress: req.ip ?? null });
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

      const response = await deps.apollo.executeOperation({ query: route.operation, variables }, { contextValue });
      if (response.body.kind !== 'single') throw new Error(`operation of ${route.name} returned an incremental result`);
      const { data, errors } = response.body.singleResult;
      if (errors?.length) return sendGraphQLError(res, route.surface, inLegacyTerms(route, errors[0]!));
      const body = route.toLegacy(data as never, request);
      if (route.replayed?.(data as never)) res.set('Idempotent-Replayed', 'true');
      res.status(200).json(body);
    } catch (error) {
      if (error instanceof AppError) {
        setRetryAfter(res, error.extensions);
        return sendLegacyError(res, route.surface, error.code, error.message);
      }
      sendUnexpectedError(res, route.surface, error, deps.service, route.name);
    }
  };
}
