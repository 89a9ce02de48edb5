// Webhook endpoints in the graph. Operators manage any partner's (naming it); partner keys their own
// partner's only, another partner's endpoint or event being "not found"; retail keys neither.
import type { EventType, Resolvers } from '../../__generated__/resolvers.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { isDatabaseId } from '../../kernel/ids.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import type { Context } from '../../pipeline/context.js';
import { callerActor } from '../audit/record.js';
import { readablePartner, requirePartnerTenant, requirePrincipal } from '../auth/principal.js';
import { column } from '../columns.js';
import { EVENT_ID } from '../events/ids.js';
import type { EventTypeName } from '../events/rows.js';
import { graphEventType, logEventType } from '../events/typeNames.js';
import { optionalText } from '../inputs.js';
import { connectionResolvers, idCursorOf, pageAfter, pageOfList, parseIdCursor } from '../pages.js';
import { requireExistingPartner } from '../partners/guards.js';
import type { TenantKey } from '../tenancy.js';
import { type DestinationRules, requireDeliverableUrl } from './destinations.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  redeliverEvent,
  rotateWebhookSecret,
  updateWebhookEndpoint,
} from './manage.js';
import { endpointPartnerOf, endpointsPrecede, eventPartnerOf, listEndpoints } from './queries.js';
import type { WebhookDeliveryRow, WebhookEndpointRow, WebhookFormatName } from './rows.js';
import { sendTestWebhook } from './test.js';

/** The names the endpoints' and deliveries' cursors carry (pages.ts idCursorOf). */
const ENDPOINT_CURSOR = 'webhookEndpoints';
const DELIVERY_CURSOR = 'webhookDeliveries';

/** The partner a partner key manages (its own), or null for an operator; retail and vendor keys: FORBIDDEN. */
function managingPartner(ctx: Context): string | null {
  if (requirePrincipal(ctx).kind === 'operator') return null;
  return requirePartnerTenant(ctx, ['partner']);
}

/** The (partner, id) of an endpoint the caller manages: RESOURCE_NOT_FOUND for any other. */
async function managedEndpoint(ctx: Context, id: string): Promise<TenantKey> {
  const own = managingPartner(ctx);
  if (!isDatabaseId(id)) throw notFound('webhook endpoint', id);
  const partnerId = own ?? (await endpointPartnerOf(ctx.primary, id));
  if (partnerId === null) throw notFound('webhook endpoint', id);
  return { partnerId, id };
}

/** The endpoint a webhook tool is used on, counted against the caller's key and the endpoint (aliases count). */
async function toolEndpoint(ctx: Context, id: string): Promise<TenantKey> {
  const key = await managedEndpoint(ctx, id);
  await ctx.credentialLimits.webhookTool(requirePrincipal(ctx).keyId, `${key.partnerId}:${key.id}`);
  return key;
}

const destinationRules = (ctx: Context): DestinationRules => ({
  production: ctx.production,
  allowedPorts: ctx.webhookAllowedPorts,
});

function eventTypesOf(argument: string, types: readonly EventType[], format: WebhookFormatName): EventTypeName[] {
  if (types.length === 0) throw invalidArgument(argument, 'must name at least one event type');
  if (types.includes('WEBHOOK_TEST')) throw invalidArgument(argument, 'WEBHOOK_TEST is sent only by sendTestWebhook');
  const names = [...new Set(types.map(logEventType))];
  if (format === 'payjoy_v1' && names.some((name) => name !== 'transaction.created')) {
    throw invalidArgument(argument, 'a PAYJOY_V1 endpoint receives TRANSACTION_CREATED only');
  }
  return names;
}

export const webhookResolvers: Resolvers = {
  Query: {
    webhookEndpoints: (_root, { first, after, partnerId }, ctx, info) => {
      const partner = readablePartner(ctx, partnerId, ['partner']);
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(ENDPOINT_CURSOR, after) : undefined;
      if (partner === undefined) return { rows: [], hasNextPage: false, previousExists: null };
      return pageAfter(
        afterId,
        limit,
        (after, count) => listEndpoints(ctx.reads.db, partner, { after, limit: count }),
        (after) => endpointsPrecede(ctx.reads.db, partner, after),
      );
    },
  },
  Mutation: {
    createWebhookEndpoint: async (_root, { input }, ctx) => {
      const own = managingPartner(ctx);
      let partnerId: string;
      if (own === null) {
        if (input.partnerId == null) throw invalidArgument('input.partnerId', 'is required for operators');
        partnerId = await requireExistingPartner(ctx.primary, input.partnerId);
      } else {
        if (input.partnerId != null && input.partnerId !== own) throw notFound('partner', input.partnerId);
        partnerId = own;
      }
      const format: WebhookFormatName = input.format === 'PAYJOY_V1' ? 'payjoy_v1' : 'standard';
      const eventTypes = eventTypesOf('input.eventTypes', input.eventTypes, format);
      const url = await requireDeliverableUrl('input.url', input.url, destinationRules(ctx));
      const description = optionalText('input.description', input.description);
      return createWebhookEndpoint(ctx.primary, callerActor(ctx), {
        partner_id: partnerId,
        url,
        event_types: eventTypes,
        format,
        description,
      });
    },
    updateWebhookEndpoint: async (_root, { input }, ctx) => {
      const key = await managedEndpoint(ctx, input.id);
      const current = await ctx.reads.loaders.webhooks.endpointByKey.load(key);
      if (!current) throw notFound('webhook endpoint', input.id);
      return updateWebhookEndpoint(ctx.primary, callerActor(ctx), key, {
        url: input.url == null ? undefined : await requireDeliverableUrl('input.url', input.url, destinationRules(ctx)),
        event_types:
          input.eventTypes == null ? undefined : eventTypesOf('input.eventTypes', input.eventTypes, current.format),
        description: input.description === undefined ? undefined : optionalText('input.description', input.description),
        enabled: input.enabled ?? undefined,
      });
    },
    rotateWebhookSecret: async (_root, { id }, ctx) =>
      rotateWebhookSecret(ctx.primary, callerActor(ctx), await managedEndpoint(ctx, id), ctx.now()),
    deleteWebhookEndpoint: async (_root, { id }, ctx) =>
      deleteWebhookEndpoint(ctx.primary, callerActor(ctx), await managedEndpoint(ctx, id)),
    sendTestWebhook: async (_root, { endpointId }, ctx) =>
      sendTestWebhook(ctx.primary, callerActor(ctx), await toolEndpoint(ctx, endpointId), ctx.now()),
    redeliverEvent: async (_root, { eventId, endpointId }, ctx) => {
      const key = await toolEndpoint(ctx, endpointId);
      if (!EVENT_ID.test(eventId)) throw notFound('event', eventId);
      const eventPartner = managingPartner(ctx) ?? (await eventPartnerOf(ctx.primary, eventId));
      if (eventPartner !== key.partnerId) throw notFound('event', eventId);
      return redeliverEvent(ctx.primary, callerActor(ctx), key.partnerId, eventId, key.id);
    },
  },
  // An endpoint, delivery or attempt is only handed out after the checks above: all of one partner.
  WebhookEndpoint: {
    eventTypes: (endpoint) => endpoint.event_types.map(graphEventType),
    format: (endpoint) => (endpoint.format === 'payjoy_v1' ? 'PAYJOY_V1' : 'STANDARD'),
    disabledReason: column('disabled_reason'),
    failingSince: column('failing_since'),
    createdAt: column('created_at'),
    partner: (endpoint, _args, ctx) => ctx.reads.loaders.partners.byId.load(endpoint.partner_id),
    // The latest 500 deliveries, read whole by the loader (one statement for every endpoint asked), paged here.
    deliveries: async (endpoint, { first, after }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      const afterId = after != null ? parseIdCursor(DELIVERY_CURSOR, after) : undefined;
      const key = { partnerId: endpoint.partner_id, id: endpoint.id };
      return pageOfList(await ctx.reads.loaders.webhooks.deliveriesOfEndpoint.load(key), limit, afterId);
    },
  },
  WebhookEndpointConnection: connectionResolvers((endpoint: WebhookEndpointRow) =>
    idCursorOf(ENDPOINT_CURSOR, endpoint.id),
  ),
  WebhookDeliveryConnection: connectionResolvers((delivery: WebhookDeliveryRow) =>
    idCursorOf(DELIVERY_CURSOR, delivery.id),
  ),
  WebhookDelivery: {
    endpoint: async (delivery, _args, ctx) =>
      (await ctx.reads.loaders.webhooks.endpointByKey.load({
        partnerId: delivery.partner_id,
        id: delivery.endpoint_id,
      }))!,
    event: async (delivery, _args, ctx) =>
      (await ctx.reads.loaders.webhooks.eventByKey.load({ partnerId: delivery.partner_id, id: delivery.event_id }))!,
    status: (delivery) => delivery.status.toUpperCase() as 'PENDING' | 'DELIVERED' | 'FAILED',
    attempts: (delivery, _args, ctx) =>
      ctx.reads.loaders.webhooks.attemptsOfDelivery.load({ partnerId: delivery.partner_id, id: delivery.id }),
    nextAttemptAt: (delivery) => (delivery.status === 'pending' ? delivery.next_attempt_at : null),
    deliveredAt: column('delivered_at'),
    createdAt: column('created_at'),
  },
  DeliveryAttempt: {
    statusCode: column('status_code'),
    latencyMs: column('latency_ms'),
  },
  Event: {
    deliveries: (event, _args, ctx) =>
      ctx.reads.loaders.webhooks.deliveriesOfEvent.load({ partnerId: event.partner_id, id: event.id }),
  },
};
