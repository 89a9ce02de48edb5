import type { Resolvers } from '../../__generated__/resolvers.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { operatorActor } from '../audit/record.js';
import { mayRevealPersonalData, readablePartner, requireOperator } from '../auth/principal.js';
import { column } from '../columns.js';
import { DEVICE_CURSOR } from '../devices/rows.js';
import { currentOrderOf } from '../financeOrders/current.js';
import { listingOf, statusMomentOf } from '../financeOrders/listing.js';
import { FINANCE_ORDER_CURSOR } from '../financeOrders/rows.js';
import { optionalText, requireText } from '../inputs.js';
import { connectionResolvers, idCursorOf, pageAfter, pageOfList, parseIdCursor } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import { createCustomer } from './create.js';
import { locateCustomer } from './locate.js';
import { customersPrecede, listCustomers } from './queries.js';
import type { CustomerRow } from './rows.js';

/** The name a customers cursor carries (pages.ts idCursorOf). */
const CURSOR = 'customers';
const cursorOf = (customer: CustomerRow) => idCursorOf(CURSOR, customer.id);

export const customerResolvers: Resolvers = {
  Query: {
    customer: (_root, { locator }, ctx) => {
      const partnerId = readablePartner(ctx, null);
      return partnerId === undefined ? null : locateCustomer(ctx.reads.db, locator, partnerId);
    },
    customers: async (_root, { first, after, partnerId: requested, ...filters }, ctx, info) => {
      // Whom customer(locator) finds: partner and retail keys their own partner's, operators any.
      const partnerId = readablePartner(ctx, requested);
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(CURSOR, after) : undefined;
      const listing =
        partnerId === undefined
          ? null
          : listingOf(partnerId, filters, statusMomentOf(partnerId, ctx.partnerPolicies, ctx.now()));
      if (listing === null) return { rows: [], hasNextPage: false, previousExists: null };
      return pageAfter(
        afterId,
        limit,
        (after, count) => listCustomers(ctx.reads.db, listing, { after, limit: count }),
        (after) => customersPrecede(ctx.reads.db, listing, after),
      );
    },
  },
  CustomerConnection: connectionResolvers(cursorOf),
  Mutation: {
    createCustomer: async (_root, { input }, ctx) => {
      requireOperator(ctx);
      const partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      const row = {
        partner_id: partnerId,
        name: requireText('input.name', input.name),
        phone_number: requireText('input.phoneNumber', input.phoneNumber, 32),
        email: optionalText('input.email', input.email),
        address: optionalText('input.address', input.address, 500),
        national_id: optionalText('input.nationalId', input.nationalId, 64),
      };
      return createCustomer(ctx.primary, operatorActor(ctx), row);
    },
  },
  Customer: {
    phoneNumber: column('phone_number'),
    // A listing or a load by key read it; a lookup did not: then it is loaded by key (batched).
    createdAt: async (customer, _args, ctx) =>
      customer.created_at ??
      (await ctx.reads.loaders.customers.byKey.load({ partnerId: customer.partner_id, id: customer.id }))!.created_at!,
    email: (customer, { reveal }, ctx) => (mayRevealPersonalData(ctx, reveal) ? customer.email : null),
    address: (customer, { reveal }, ctx) => (mayRevealPersonalData(ctx, reveal) ? customer.address : null),
    nationalId: (customer, { reveal }, ctx) => (mayRevealPersonalData(ctx, reveal) ? customer.national_id : null),
    financeOrder: async (customer, _args, ctx) => {
      const { ofMatchedDevice, ofCustomer } = await ctx.reads.loaders.financeOrders.aroundCustomer.load({
        partnerId: customer.partner_id,
        id: customer.id,
        matchedDeviceId: customer.matched_device_id ?? null,
      });
      return (
        currentOrderOf({ ofDevice: ofMatchedDevice, ofCustomer }, ctx.partnerPolicies.nowFor(customer.partner_id)) ??
        null
      );
    },
    // A customer's orders and devices are few: each list is read whole by its loader and paged here.
    financeOrders: async (customer, { first, after }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(FINANCE_ORDER_CURSOR, after) : undefined;
      const key = { partnerId: customer.partner_id, id: customer.id };
      return pageOfList(await ctx.reads.loaders.financeOrders.ofCustomer.load(key), limit, afterId);
    },
    devices: async (customer, { first, after }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(DEVICE_CURSOR, after) : undefined;
      const key = { partnerId: customer.partner_id, id: customer.id };
      return pageOfList(await ctx.reads.loaders.devices.ofCustomer.load(key), limit, afterId);
    },
  },
};
