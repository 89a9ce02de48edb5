// The executable schema: the SDL files of schema/ joined with each domain module's resolvers.
import { readdirSync, readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { authResolvers } from './modules/auth/resolvers.js';
import { cartResolvers } from './modules/carts/resolvers.js';
import { clerkResolvers } from './modules/clerks/resolvers.js';
import { customerResolvers } from './modules/customers/resolvers.js';
import { deviceResolvers } from './modules/devices/resolvers.js';
import { financeOrderResolvers } from './modules/financeOrders/resolvers.js';
import { merchantResolvers } from './modules/merchants/resolvers.js';
import { partnerResolvers } from './modules/partners/resolvers.js';
import { paymentResolvers } from './modules/payments/resolvers.js';
import { transactionResolvers } from './modules/transactions/resolvers.js';
import { paymentVendorResolvers } from './modules/vendors/resolvers.js';
import { scalarResolvers } from './scalars.js';

const SCHEMA_DIR = new URL('../schema/', import.meta.url);

export function loadTypeDefs(): string[] {
  return readdirSync(SCHEMA_DIR)
    .filter((file) => file.endsWith('.graphql'))
    .sort()
    .map((file) => readFileSync(new URL(file, SCHEMA_DIR), 'utf8'));
}

export function buildSchema(): GraphQLSchema {
  return makeExecutableSchema({
    typeDefs: loadTypeDefs(),
    resolvers: [
      scalarResolvers,
      authResolvers,
      partnerResolvers,
      merchantResolvers,
      clerkResolvers,
      customerResolvers,
      deviceResolvers,
      cartResolvers,
      financeOrderResolvers,
      paymentResolvers,
      paymentVendorResolvers,
      transactionResolvers,
    ],
    // Every field declared in the SDL must be backed by data: fail at start, not at request time.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
