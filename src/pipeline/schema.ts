// The executable schema: the SDL files of schema/ joined with each domain module's resolvers.
import { readdirSync, readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import type { GraphQLSchema } from 'graphql';
import type { Resolvers } from '../__generated__/resolvers.js';
import { scalarResolvers } from '../kernel/scalars.js';
import { apiKeyResolvers } from '../modules/apiKeys/resolvers.js';
import { auditResolvers } from '../modules/audit/resolvers.js';
import { authResolvers } from '../modules/auth/resolvers.js';
import { portfolioHistoryResolvers } from '../modules/book/historyResolvers.js';
import { bookResolvers } from '../modules/book/resolvers.js';
import { cartResolvers } from '../modules/carts/resolvers.js';
import { clerkResolvers } from '../modules/clerks/resolvers.js';
import { customerResolvers } from '../modules/customers/resolvers.js';
import { deviceCommandResolvers } from '../modules/deviceCommands/resolvers.js';
import { deviceDoorResolvers } from '../modules/deviceDoor/resolvers.js';
import { deviceResolvers } from '../modules/devices/resolvers.js';
import { eventResolvers } from '../modules/events/resolvers.js';
import { eventSubscriptionResolvers } from '../modules/events/subscriptionResolvers.js';
import { financeOrderResolvers } from '../modules/financeOrders/resolvers.js';
import { merchantResolvers } from '../modules/merchants/resolvers.js';
import { orderClosingResolvers } from '../modules/orderClosing/resolvers.js';
import { pageInfoResolvers } from '../modules/pages.js';
import { partnerPolicyResolvers } from '../modules/partnerPolicy/resolvers.js';
import { partnerResolvers } from '../modules/partners/resolvers.js';
import { paymentReferenceResolvers } from '../modules/paymentReferences/resolvers.js';
import { paymentResolvers } from '../modules/payments/resolvers.js';
import { reversalResolvers } from '../modules/payments/reversalResolvers.js';
import { reportResolvers } from '../modules/reports/resolvers.js';
import { timelineResolvers } from '../modules/timeline/resolvers.js';
import { transactionResolvers, transactionTypeValues } from '../modules/transactions/resolvers.js';
import { paymentVendorResolvers } from '../modules/vendors/resolvers.js';
import { webhookResolvers } from '../modules/webhooks/resolvers.js';
import type { Context } from './context.js';

const SCHEMA_DIR = new URL('../../schema/', import.meta.url);

function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, SCHEMA_DIR), 'utf8'));
}

type AnyResolver = (root: unknown, args: unknown, ctx: Context, info: unknown) => unknown;

/** Every mutation, followed by forgetting the operation's cached reads (OperationReads.forget). */
function forgettingAfterMutations(modules: Resolvers[]): Resolvers[] {
  return modules.map((module) => {
    if (!module.Mutation) return module;
    const wrapped = Object.fromEntries(
      Object.entries(module.Mutation as Record<string, AnyResolver>).map(([name, resolve]) => [
        name,
        async (root: unknown, args: unknown, ctx: Context, info: unknown) => {
          try {
            return await resolve(root, args, ctx, info);
          } finally {
            ctx.reads.forget();
          }
        },
      ]),
    );
    return { ...module, Mutation: wrapped } as Resolvers;
  });
}

export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers: [
      scalarResolvers,
      transactionTypeValues,
      pageInfoResolvers,
      ...forgettingAfterMutations([
        authResolvers,
        apiKeyResolvers,
        partnerResolvers,
        partnerPolicyResolvers,
        timelineResolvers,
        merchantResolvers,
        clerkResolvers,
        customerResolvers,
        deviceResolvers,
        deviceCommandResolvers,
        deviceDoorResolvers,
        cartResolvers,
        financeOrderResolvers,
        paymentResolvers,
        reversalResolvers,
        orderClosingResolvers,
        paymentReferenceResolvers,
        paymentVendorResolvers,
        transactionResolvers,
        bookResolvers,
        auditResolvers,
        reportResolvers,
        eventSubscriptionResolvers,
        webhookResolvers,
        eventResolvers,
        portfolioHistoryResolvers,
      ]),
    ],
    // Every field declared in the SDL must be backed by data: fail at start, not at request time.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}

/**
 * The schema as the graph publishes it: its SDL with every applied directive (@listSize, @specifiedBy,
 * @deprecated), what test/schema-snapshot.graphql holds (npm run schema:snapshot writes it).
 */
export function publishedSchemaText(): string {
  return `${printSchemaWithDirectives(buildSchema())}\n`;
}
