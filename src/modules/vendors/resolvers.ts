import type { Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument } from '../../kernel/errors.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import type { Context } from '../../pipeline/context.js';
import { operatorActor } from '../audit/record.js';
import { requireOperator, requirePrincipal } from '../auth/principal.js';
import { column } from '../columns.js';
import { requireId, requireText } from '../inputs.js';
import { createPaymentVendor, updatePaymentVendor } from './configure.js';
import { listPaymentVendors } from './queries.js';
import { schemaProblem } from './requestSchema.js';

const VENDOR_NAME = /^[a-z0-9][a-z0-9-]{1,62}$/;

function mayConfigure(ctx: Context, vendorId: string): boolean {
  const principal = requirePrincipal(ctx);
  return principal.kind === 'operator' || (principal.kind === 'vendor' && principal.vendorId === vendorId);
}

function requireSchema(argument: string, schema: unknown): Record<string, unknown> {
  const problem = schemaProblem(schema);
  if (problem) throw invalidArgument(argument, problem.replace(/^requestSchema /, ''));
  return schema as Record<string, unknown>;
}

export const paymentVendorResolvers: Resolvers = {
  Query: {
    paymentVendors: (_root, _args, ctx, info) => {
      requireOperator(ctx);
      return listPaymentVendors(ctx.reads.db, pageSizeOf(info, null));
    },
  },
  Mutation: {
    createPaymentVendor: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      if (!VENDOR_NAME.test(input.name))
        throw invalidArgument('input.name', 'must be 2 to 63 lowercase letters, digits and dashes');
      const row = {
        name: input.name,
        display_name: requireText('input.displayName', input.displayName),
        request_schema: requireSchema('input.requestSchema', input.requestSchema),
        enabled: input.enabled ?? true,
      };
      return createPaymentVendor(ctx.primary, operatorActor(ctx), row);
    },
    updatePaymentVendor: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const id = requireId('payment vendor', input.id);
      const changes = {
        ...(input.displayName != null ? { display_name: requireText('input.displayName', input.displayName) } : {}),
        ...(input.requestSchema != null
          ? { request_schema: requireSchema('input.requestSchema', input.requestSchema) }
          : {}),
        ...(input.enabled != null ? { enabled: input.enabled } : {}),
      };
      const row = await updatePaymentVendor(ctx.primary, operatorActor(ctx), id, changes);
      ctx.logger.info({ paymentVendorId: id, changed: Object.keys(changes) }, 'payment vendor updated');
      return row;
    },
  },
  // A partner may see which vendor a payment came through, not how that vendor's integration is set up.
  PaymentVendor: {
    displayName: column('display_name'),
    requestSchema: (vendor, _args, ctx) => (mayConfigure(ctx, vendor.id) ? vendor.request_schema : null),
    enabled: (vendor, _args, ctx) => (mayConfigure(ctx, vendor.id) ? vendor.enabled : null),
    createdAt: column('created_at'),
  },
};
