// sendTestWebhook: a test message (type webhook.test) queued for one endpoint and answered at once,
// pending; the delivery worker posts it like any other delivery, under the endpoint's concurrency, and
// its attempts show what the receiver answered. Nothing holds the request while a receiver is slow.
// The message is a webhook.test event of the endpoint's partner (its id is the webhook-id): in that
// partner's log, delivered to this endpoint alone (the fan-out trigger passes the type over, and the
// event is not published to subscriptions). Audited, one record per test queued.
import type { Db } from '../../db/knex.js';
import { notFound } from '../../kernel/errors.js';
import { audited } from '../audit/record.js';
import type { AuditActor } from '../audit/rows.js';
import { publishDeliveriesDue } from '../events/publish.js';
import { appendEvents } from '../events/queries.js';
import type { TenantKey } from '../tenancy.js';
import { endpointByKey, insertDelivery } from './queries.js';
import type { WebhookDeliveryRow } from './rows.js';

export function sendTestWebhook(db: Db, actor: AuditActor, key: TenantKey, now: Date): Promise<WebhookDeliveryRow> {
  return audited(
    db,
    actor,
    async (trx) => {
      const endpoint = await endpointByKey(trx, key);
      if (!endpoint) throw notFound('webhook endpoint', key.id);
      const [event] = await appendEvents(trx, endpoint.partner_id, [
        { type: 'webhook.test', occurredAt: now, data: { test: true, endpointId: endpoint.id } },
      ]);
      const delivery = await insertDelivery(trx, endpoint.partner_id, endpoint.id, event!.id);
      // The test event is published to no one: the workers are told of its delivery instead.
      await publishDeliveriesDue(trx, endpoint.partner_id);
      return delivery;
    },
    (delivery) => ({
      action: 'webhook_endpoint.send_test',
      subjectKind: 'webhook_endpoint',
      subjectId: delivery.endpoint_id,
      partnerId: delivery.partner_id,
      details: { deliveryId: delivery.id, eventId: delivery.event_id },
    }),
  );
}
