// How both GraphQL doors say an error (decisions.md 3, 12): HTTP through Apollo's formatError, the
// WebSocket door through graphql-ws's hooks. A parse error past the token limit in the service's words; a
// validation error raised by a rule of the service's with its own code; GraphQL request errors with the
// names they echo cut; anything unexpected masked, its detail logged under the id the answer carries.
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import { maskUnexpectedError } from '../kernel/errors.js';
import { tokenLimitMessage } from '../pipeline/documentLimits/graphqlLimits.js';
import { ownValidationCode } from './graphqlEdges.js';

export function formatGraphqlError(
  formatted: GraphQLFormattedError,
  error: unknown,
  logger: Pick<Logger, 'error'>,
): GraphQLFormattedError {
  const code = formatted.extensions?.code;
  const tokenLimit = code === 'GRAPHQL_PARSE_FAILED' ? tokenLimitMessage(formatted.message) : undefined;
  if (tokenLimit) return { ...formatted, message: tokenLimit, locations: undefined };
  const own = code === 'GRAPHQL_VALIDATION_FAILED' ? ownValidationCode(error) : undefined;
  if (own) return { ...formatted, extensions: { ...formatted.extensions, code: own } };
  const masked = maskUnexpectedError(formatted, error);
  if (masked.errorId) logger.error({ err: error, errorId: masked.errorId }, 'unexpected error in GraphQL');
  return masked.formatted;
}

/** A request error of the GraphQL doors with the code Apollo gives its kind (BAD_REQUEST, ...). */
export const requestError = (message: string, code: string) => new GraphQLError(message, { extensions: { code } });

/**
 * A graphql-js parse or validation error labelled as Apollo labels it on HTTP (GRAPHQL_PARSE_FAILED,
 * GRAPHQL_VALIDATION_FAILED), the error kept as the original, so formatGraphqlError finds a rule's own
 * code and the token limit's words. `hideSuggestions` (production) drops "Did you mean ...?", as
 * Apollo's hideSchemaDetailsFromClientErrors does.
 */
export function labelled(
  error: GraphQLError,
  code: 'GRAPHQL_PARSE_FAILED' | 'GRAPHQL_VALIDATION_FAILED',
  hideSuggestions = false,
): GraphQLError {
  const message = hideSuggestions ? error.message.replace(SUGGESTION, '') : error.message;
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError ?? error,
    extensions: { ...error.extensions, code },
  });
}

// Apollo's own pattern (its disableSuggestions plugin).
const SUGGESTION = / ?Did you mean(.+?)\?$/;

/** An error as the WebSocket door sends it: HTTP's formatting, without the HTTP status a refusal carries for Apollo. */
export function formatSocketError(error: GraphQLError, logger: Pick<Logger, 'error'>): GraphQLFormattedError {
  const { extensions, ...formatted } = error.toJSON();
  const { http: _status, ...rest } = extensions ?? {};
  return formatGraphqlError(
    Object.keys(rest).length > 0 ? { ...formatted, extensions: rest } : formatted,
    error,
    logger,
  );
}
