// One legacy request: read the credential and parameters, run the route's operation through the same
// Apollo pipeline /graphql uses (executeOperation, in-process), map the data to the legacy body, and
// answer errors with the status table. No rule of the domain lives here.
import type { ApolloServer } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { GraphQLFormattedError } from 'graphql';
import { createContext, type Context, type ServiceDeps } from '../context.js';
import { AppError, isErrorCode, maskUnexpectedError, type ErrorCode } from '../errors.js';
import { requirePrincipal } from '../modules/auth/principal.js';
import { readDeclaredParams, readQueryParams, singleValue } from './params.js';
import type { LegacyRoute } from './routes.js';
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
  deps.logger.error({ err: error, errorId, where }, 'unexpected error');
  sendGraphQLError(res, surface, formatted);
}

function sendGraphQLError(res: Response, surface: Surface, error: GraphQLFormattedError): void {
  const code = error.extensions?.code;
  // Anything without one of our codes reaching here is a bug in a handwritten operation: mask it.
  if (isErrorCode(code)) sendLegacyError(res, surface, code, error.message);
  else sendLegacyError(res, surface, 'INTERNAL_SERVER_ERROR', 'internal server error');
}

export function createLegacyHandler(deps: LegacyHandlerDeps, route: LegacyRoute<never>): RequestHandler {
  return async (req: Request, res: Response) => {
    try {
      const params = readQueryParams(req.originalUrl);
      const contextValue = await createContext(deps.service, {
        credential: {
          value: singleValue(params, route.credential.name),
          presentedAs: `${route.credential.name} query parameter`,
        },
        requestId: res.locals.requestId as string,
      });
      // Authentication before parameters: an unauthenticated caller learns nothing about them.
      requirePrincipal(contextValue);
      const variables = route.variables(readDeclaredParams(params, route.params));

      const response = await deps.apollo.executeOperation({ query: route.operation, variables }, { contextValue });
      if (response.body.kind !== 'single') throw new Error(`operation of ${route.name} returned an incremental result`);
      const { data, errors } = response.body.singleResult;
      if (errors?.length) return sendGraphQLError(res, route.surface, errors[0]!);
      res.status(200).json(route.toLegacy(data as never));
    } catch (error) {
      if (error instanceof AppError) return sendLegacyError(res, route.surface, error.code, error.message);
      sendUnexpectedError(res, route.surface, error, deps.service, route.name);
    }
  };
}
