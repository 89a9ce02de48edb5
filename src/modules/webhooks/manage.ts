// Managing a partner's webhook endpoints: each change with its audit record in one transaction. The
// trail records what changed, never a secret (a rotation records only that it happened).
import type { Db } from '../../db/knex.js';
import { invalidArgument, notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { publishDeliveriesDue } from '../events/publish.js';
import type { TenantKey } from '../tenancy.js';
import {
  countEndpoints,
  deleteEndpointRow,
  type EndpointChanges,
  endpointByKey,
  eventByKey,
  insertEndpoint,
  MAX_ENDPOINTS_PER_PARTNER,
  type NewEndpoint,
  pendingDelivery,
  updateEndpointRow,
} from './queries.js';
import type { WebhookEndpointRow, WebhookEndpointSecretParent } from './rows.js';
import { newWebhookSecret } from './signing.js';

/** How long a rotated-out secret keeps signing beside the new one. */
const PREVIOUS_SECRET_GRACE_MS = 24 * 60 * 60 * 1000;

/** What the trail says of an endpoint: everything but its secrets. */
function described(row: WebhookEndpointRow): Record<string, unknown> {
  return {
    url: row.url,
    eventTypes: row.event_types,
    format: row.format,
    description: row.description,
    enabled: row.enabled,
  };
}

export function createWebhookEndpoint(
  db: Db,
  actor: AuditActor,
  endpoint: Omit<NewEndpoint, 'secret'>,
): Promise<WebhookEndpointSecretParent> {
  return audited(
    db,
    actor,
    async (trx) => {
      // The partner's row, locked: two creations at once cannot both pass the count below.
      await trx('partners').where({ id: endpoint.partner_id }).forUpdate().first();
      if ((await countEndpoints(trx, endpoint.partner_id)) >= MAX_ENDPOINTS_PER_PARTNER) {
        throw invalidArgument('input.partnerId', `already has ${MAX_ENDPOINTS_PER_PARTNER} webhook endpoints`);
      }
      const secret = newWebhookSecret();
      return { secret, endpoint: await insertEndpoint(trx, { ...endpoint, secret }) };
    },
    ({ endpoint: row }) => ({
      action: 'webhook_endpoint.create',
      subjectKind: 'webhook_endpoint',
      subjectId: row.id,
      partnerId: row.partner_id,
      details: described(row),
    }),
  );
}

export function updateWebhookEndpoint(
  db: Db,
  actor: AuditActor,
  key: TenantKey,
  changes: EndpointChanges,
): Promise<WebhookEndpointRow> {
  // Enabling again starts afresh: no reason, no failing streak.
  const applied: EndpointChanges =
    changes.enabled === true ? { ...changes, disabled_reason: null, failing_since: null } : changes;
  return audited(
    db,
    actor,
    async (trx) => {
      const row = await updateEndpointRow(trx, key, applied);
      if (!row) throw notFound('webhook endpoint', key.id);
      return row;
    },
    (row) => ({
      action: 'webhook_endpoint.update',
      subjectKind: 'webhook_endpoint',
      subjectId: row.id,
      partnerId: row.partner_id,
      details: { changed: Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) },
    }),
  );
}

export function rotateWebhookSecret(
  db: Db,
  actor: AuditActor,
  key: TenantKey,
  now: Date,
): Promise<WebhookEndpointSecretParent> {
  return audited(
    db,
    actor,
    async (trx) => {
      const current = await endpointByKey(trx, key, true);
      if (!current) throw notFound('webhook endpoint', key.id);
      const secret = newWebhookSecret();
      const endpoint = await updateEndpointRow(trx, key, {
        secret,
        previous_secret: current.secret,
        previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
      });
      return { secret, endpoint: endpoint as WebhookEndpointRow };
    },
    ({ endpoint }) => ({
      action: 'webhook_endpoint.rotate_secret',
      subjectKind: 'webhook_endpoint',
      subjectId: endpoint.id,
      partnerId: endpoint.partner_id,
      details: { previousSecretExpiresAt: endpoint.previous_secret_expires_at?.toISOString() },
    }),
  );
}

export function deleteWebhookEndpoint(db: Db, actor: AuditActor, key: TenantKey): Promise<WebhookEndpointRow> {
  return audited(
    db,
    actor,
    async (trx) => {
      const row = await deleteEndpointRow(trx, key);
      if (!row) throw notFound('webhook endpoint', key.id);
      return row;
    },
    (row) => ({
      action: 'webhook_endpoint.delete',
      subjectKind: 'webhook_endpoint',
      subjectId: row.id,
      partnerId: row.partner_id,
      details: described(row),
    }),
  );
}

/**
 * A new delivery of one of the partner's events to one of its endpoints, due now; while one is pending
 * already, that one, due now too (no second is queued: a redelivery cannot multiply). Audited either way.
 */
export function redeliverEvent(db: Db, actor: AuditActor, partnerId: string, eventId: string, endpointId: string) {
  return audited(
    db,
    actor,
    async (trx) => {
      const endpoint = await endpointByKey(trx, { partnerId, id: endpointId });
      if (!endpoint) throw notFound('webhook endpoint', endpointId);
      const event = await eventByKey(trx, { partnerId, id: eventId });
      if (!event) throw notFound('event', eventId);
      if (endpoint.format === 'payjoy_v1' && event.type !== 'transaction.created' && event.type !== 'webhook.test') {
        throw invalidArgument('eventId', 'is not a transaction event: a PAYJOY_V1 endpoint receives only those');
      }
      const pending = await pendingDelivery(trx, partnerId, endpointId, eventId);
      // Every instance's worker hears it at the commit and claims it then, not at its next poll.
      await publishDeliveriesDue(trx, partnerId);
      return pending;
    },
    ({ delivery, queued }) => ({
      action: 'webhook_delivery.redeliver',
      subjectKind: 'webhook_delivery',
      subjectId: delivery.id,
      partnerId,
      details: { eventId, endpointId, queued },
    }),
  ).then(({ delivery }) => delivery);
}
