// The executable schema: the SDL files of schema/ joined with each domain module's resolvers.
import { readdirSync, readFileSync } from 'node:fs';
import { makeExecutableSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { authResolvers } from './modules/auth/resolvers.js';
import { clerkResolvers } from './modules/clerks/resolvers.js';
import { merchantResolvers } from './modules/merchants/resolvers.js';
import { partnerResolvers } from './modules/partners/resolvers.js';

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
    resolvers: [authResolvers, partnerResolvers, merchantResolvers, clerkResolvers],
    // Every field declared in the SDL must be backed by data: fail at start, not at request time.
    resolverValidationOptions: { requireResolversToMatchSchema: 'error' },
  });
}
