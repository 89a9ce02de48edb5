import type { Resolvers } from '../../__generated__/resolvers.js';
import { pageSizeOf } from '../../listSize.js';
import { invalidArgument, notFound } from '../../errors.js';
import type { Context } from '../../context.js';
import { requireOperator, requirePrincipal } from '../auth/principal.js';
import { audited } from '../audit/record.js';
import { isUniqueViolation, requireId, requireText } from '../inputs.js';
import { insertPaymentVendor, listPaymentVendors, updatePaymentVendor } from './queries.js';
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
      return listPaymentVendors(ctx.db, pageSizeOf(info, null));
    },
  },
  Mutation: {
    createPaymentVendor: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      if (!VENDOR_NAME.test(input.name)) throw invalidArgument('input.name', 'must be 2 to 63 lowercase letters, digits and dashes');
      const row = {
        name: input.name,
        display_name: requireText('input.displayName', input.displayName),
        request_schema: requireSchema('input.requestSchema', input.requestSchema),
        enabled: input.enabled ?? true,
      };
      try {
        return await audited(
          ctx,
          (trx) => insertPaymentVendor(trx, row),
          (vendor) => ({ action: 'payment_vendor.create', subjectKind: 'payment_vendor', subjectId: vendor.id, details: { name: vendor.name, enabled: vendor.enabled, requestSchema: vendor.request_schema } }),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidArgument('input.name', 'is already a payment vendor');
        throw error;
      }
    },
    updatePaymentVendor: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const id = requireId('payment vendor', input.id);
      const changes = {
        ...(input.displayName != null ? { display_name: requireText('input.displayName', input.displayName) } : {}),
        ...(input.requestSchema != null ? { request_schema: requireSchema('input.requestSchema', input.requestSchema) } : {}),
        ...(input.enabled != null ? { enabled: input.enabled } : {}),
      };
      // The trail keeps what changed: a schema change records the new schema in full.
      const row = await audited(
        ctx,
        async (trx) => {
          const updated = await updatePaymentVendor(trx, id, changes);
          if (!updated) throw notFound('payment vendor', id);
          return updated;
        },
        (vendor) => ({ action: 'payment_vendor.update', subjectKind: 'payment_vendor', subjectId: vendor.id, details: { changed: changes } }),
      );
      ctx.logger.info({ paymentVendorId: id, changed: Object.keys(changes) }, 'payment vendor updated');
      return row;
    },
  },
  // A partner may see which vendor a payment came through, not how that vendor's integration is set up.
  PaymentVendor: {
    displayName: (vendor) => vendor.display_name,
    requestSchema: (vendor, _args, ctx) => (mayConfigure(ctx, vendor.id) ? vendor.request_schema : null),
    enabled: (vendor, _args, ctx) => (mayConfigure(ctx, vendor.id) ? vendor.enabled : null),
    createdAt: (vendor) => vendor.created_at,
  },
};
