// Tracing's hook on the GraphQL pipeline (both doors run it): the operation's name and type, and the
// codes of the errors it answered, on the span of the request that runs it (the HTTP server span of
// /graphql, the route span of a legacy path). The graphql instrumentation makes the operation's own
// spans (parse, validate, execute, the resolvers); this names them for the request. With tracing off
// there is no active span, and the plugin hooks nothing.
import type { ApolloServerPlugin } from '@apollo/server';
import { activeSpan } from '../kernel/tracing.js';
import type { Context } from '../pipeline/context.js';

export function graphqlTracingPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      const span = activeSpan();
      if (!span) return;
      return {
        async didResolveOperation({ operationName, operation }) {
          span.setAttributes({
            ...(operation ? { 'graphql.operation.type': operation.operation } : {}),
            ...(operationName ? { 'graphql.operation.name': operationName } : {}),
          });
        },
        async didEncounterErrors({ errors }) {
          // Codes only: a message may quote what the client sent.
          const codes = errors.map((error) => String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR'));
          span.setAttribute('graphql.error.codes', [...new Set(codes)]);
        },
      };
    },
  };
}
