// The edges of the GraphQL door, where a request that is not GraphQL's to serve gets a clear answer:
// only /graphql exactly is the door; a subscription sent over HTTP is told where subscriptions are
// served; introspection in production is refused in the service's own words and code, on both
// transports. (Apollo's own refusal tells clients to "pass introspection: true to ApolloServer".)
import type { ApolloServerPlugin } from '@apollo/server';
import type { RequestHandler } from 'express';
import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { AppError, withHttpStatus } from '../kernel/errors.js';
import { sendDoorError } from './errorResponses.js';

const GRAPHQL_PATH = '/graphql';

/**
 * Mounted under /graphql: lets through the path itself only, answering 404 for what Express would
 * otherwise hand the door too (/graphql/, /graphql/foo, /GRAPHQL: its mounts are prefixes, case-blind).
 */
export const exactGraphqlPath: RequestHandler = (req, res, next) => {
  const query = req.originalUrl.indexOf('?');
  const path = query === -1 ? req.originalUrl : req.originalUrl.slice(0, query);
  if (path === GRAPHQL_PATH) return next();
  sendDoorError(req, res, new AppError('RESOURCE_NOT_FOUND', `no endpoint ${req.method} ${req.path}`));
};

const subscriptionNeedsWebSocket = () =>
  new AppError(
    'SUBSCRIPTION_NEEDS_WEBSOCKET',
    'subscriptions are served over WebSocket at /graphql (the graphql-ws protocol); send queries and mutations over HTTP',
  );

/** Over HTTP, a subscription is refused (400) once its operation is known, before anything runs. */
export function subscriptionsOverHttpPlugin<Context extends object>(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation }) {
          if (operation?.operation === 'subscription') throw withHttpStatus(subscriptionNeedsWebSocket());
        },
      };
    },
  };
}

const INTROSPECTION_FIELDS = new Set(['__schema', '__type']);

const introspectionDisabled = () =>
  new AppError(
    'INTROSPECTION_DISABLED',
    'introspection is turned off in production; the schema is published with the service documentation (schema/*.graphql)',
  );

/** Whether a selection set asks for __schema or __type at its level, through its fragments (each visited once). */
function selectsIntrospection(
  set: SelectionSetNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  visited: Set<string>,
): boolean {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      if (INTROSPECTION_FIELDS.has(selection.name.value)) return true;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (selectsIntrospection(selection.selectionSet, fragments, visited)) return true;
    } else if (!visited.has(selection.name.value)) {
      visited.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment && selectsIntrospection(fragment.selectionSet, fragments, visited)) return true;
    }
  }
  return false;
}

/**
 * Production's validation rule: an operation that asks for __schema or __type at its root is refused
 * with INTROSPECTION_DISABLED (they are only valid there). Linear: each fragment is visited once per
 * operation. Apollo relabels every validation error GRAPHQL_VALIDATION_FAILED; its formatError hook
 * gives back the code of an AppError raised by a rule of ours (ownValidationCode).
 */
export const introspectionDisabledRule: ValidationRule = (context: ValidationContext): ASTVisitor => {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of context.getDocument().definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return {
    OperationDefinition(operation: OperationDefinitionNode) {
      if (selectsIntrospection(operation.selectionSet, fragments, new Set()))
        context.reportError(introspectionDisabled());
      return false;
    },
  };
};

/**
 * The code a validation error of ours carries (an AppError reported by a rule), which Apollo's
 * ValidationError replaced with GRAPHQL_VALIDATION_FAILED; undefined for graphql-js's own rules.
 */
export function ownValidationCode(error: unknown): AppError['code'] | undefined {
  const original = (error as { originalError?: unknown } | undefined)?.originalError;
  return original instanceof AppError ? original.code : undefined;
}
