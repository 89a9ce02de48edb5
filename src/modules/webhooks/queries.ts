// Endpoints, deliveries and attempts: every read and write addressed by (partner, id).
import type { DbOrTrx } from '../../db/knex.js';
import type { EventRow } from '../events/rows.js';
import { eachPartnerOf, type TenantKey, whereTenantKeys } from '../tenancy.js';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './rows.js';

/** Endpoints per partner: each costs a delivery per event, so a partner cannot fan one event out without end. */
export const MAX_ENDPOINTS_PER_PARTNER = 20;

/** A page of a partner's endpoints (null: every partner's) in id order, oldest first: `limit` after id `after`. */
export function listEndpoints(
  db: DbOrTrx,
  partnerId: string | null,
  page: { after: string | undefined; limit: number },
): Promise<WebhookEndpointRow[]> {
  const query = db<WebhookEndpointRow>('webhook_endpoints').select('*');
  if (partnerId !== null) query.where({ partner_id: partnerId });
  if (page.after !== undefined) query.where('id', '>', page.after);
  return query.orderBy('id').limit(page.limit);
}

/** Whether the listing of listEndpoints holds an endpoint at or before id `after` (hasPreviousPage). */
export async function endpointsPrecede(db: DbOrTrx, partnerId: string | null, after: string): Promise<boolean> {
  const query = db('webhook_endpoints').where('id', '<=', after);
  if (partnerId !== null) query.where({ partner_id: partnerId });
  return (await query.first('id')) !== undefined;
}

export async function endpointByKey(db: DbOrTrx, key: TenantKey, lock = false): Promise<WebhookEndpointRow | null> {
  const query = db<WebhookEndpointRow>('webhook_endpoints').where({ partner_id: key.partnerId, id: key.id }).first();
  if (lock) query.forUpdate();
  return (await query) ?? null;
}

export function endpointsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<WebhookEndpointRow[]> {
  return whereTenantKeys(db<WebhookEndpointRow>('webhook_endpoints').select('*'), ['partner_id', 'id'], keys);
}

export async function countEndpoints(db: DbOrTrx, partnerId: string): Promise<number> {
  const row = await db('webhook_endpoints').where({ partner_id: partnerId }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export type NewEndpoint = Pick<
  WebhookEndpointRow,
  'partner_id' | 'url' | 'event_types' | 'format' | 'description' | 'secret'
>;

export async function insertEndpoint(db: DbOrTrx, endpoint: NewEndpoint): Promise<WebhookEndpointRow> {
  const [row] = await db<WebhookEndpointRow>('webhook_endpoints').insert(endpoint).returning('*');
  return row as WebhookEndpointRow;
}

export type EndpointChanges = Partial<
  Pick<
    WebhookEndpointRow,
    | 'url'
    | 'event_types'
    | 'description'
    | 'enabled'
    | 'disabled_reason'
    | 'failing_since'
    | 'secret'
    | 'previous_secret'
    | 'previous_secret_expires_at'
  >
>;

export async function updateEndpointRow(
  db: DbOrTrx,
  key: TenantKey,
  changes: EndpointChanges,
): Promise<WebhookEndpointRow | null> {
  const [row] = await db<WebhookEndpointRow>('webhook_endpoints')
    .where({ partner_id: key.partnerId, id: key.id })
    .update(changes)
    .returning('*');
  return row ?? null;
}

export async function deleteEndpointRow(db: DbOrTrx, key: TenantKey): Promise<WebhookEndpointRow | null> {
  const [row] = await db<WebhookEndpointRow>('webhook_endpoints')
    .where({ partner_id: key.partnerId, id: key.id })
    .delete()
    .returning('*');
  return row ?? null;
}

/** An event of the partner, or null. */
export async function eventByKey(db: DbOrTrx, key: TenantKey): Promise<EventRow | null> {
  return (await db<EventRow>('events').where({ partner_id: key.partnerId, id: key.id }).first()) ?? null;
}

export function eventsByKeys(db: DbOrTrx, keys: readonly TenantKey[]): Promise<EventRow[]> {
  return db<EventRow>('events')
    .select('*')
    .whereRaw('(partner_id, id) in (select * from unnest(?::int8[], ?::text[]))', [
      keys.map((key) => key.partnerId),
      keys.map((key) => key.id),
    ]);
}

/** A new delivery of an event to an endpoint, due now (sendTestWebhook's, of its new event). */
export async function insertDelivery(
  db: DbOrTrx,
  partnerId: string,
  endpointId: string,
  eventId: string,
): Promise<WebhookDeliveryRow> {
  const [row] = await db<WebhookDeliveryRow>('webhook_deliveries')
    .insert({
      partner_id: partnerId,
      endpoint_id: endpointId,
      event_id: eventId,
      next_attempt_at: db.fn.now() as never,
    })
    .returning('*');
  return row as WebhookDeliveryRow;
}

/**
 * The pending delivery of an event to an endpoint, due now (redeliverEvent): queued unless one is
 * pending already, whose next attempt is then brought forward to now if it was backing off
 * (decisions.md 36); `queued` says which. The partial unique index webhook_deliveries_one_pending holds
 * at most one pending: of two at once, the second waits for the first to commit, then finds its row.
 * A pending row that is delivered or failed between the two statements is looked past: queued again.
 */
export async function pendingDelivery(
  trx: DbOrTrx,
  partnerId: string,
  endpointId: string,
  eventId: string,
): Promise<{ delivery: WebhookDeliveryRow; queued: boolean }> {
  for (;;) {
    const { rows } = (await trx.raw(
      `insert into webhook_deliveries (partner_id, endpoint_id, event_id, next_attempt_at)
       values (?, ?, ?, now())
       on conflict (partner_id, endpoint_id, event_id) where status = 'pending' do nothing
       returning *`,
      [partnerId, endpointId, eventId],
    )) as { rows: WebhookDeliveryRow[] };
    if (rows[0]) return { delivery: rows[0], queued: true };
    // An attempt under way keeps its claim: its outcome sets the next attempt.
    const [pending] = await trx<WebhookDeliveryRow>('webhook_deliveries')
      .where({ partner_id: partnerId, endpoint_id: endpointId, event_id: eventId, status: 'pending' })
      .update({ next_attempt_at: trx.raw('least(next_attempt_at, now())') as never })
      .returning('*');
    if (pending) return { delivery: pending as WebhookDeliveryRow, queued: false };
  }
}

/** Deliveries of each (partner, endpoint), newest first, at most `limit` each. */
export function deliveriesOfEndpoints(
  db: DbOrTrx,
  keys: readonly TenantKey[],
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return eachPartnerOf(keys, (partnerId, ids) =>
    db
      .select('d.*')
      .from(db.raw('unnest(?::int8[]) as k(endpoint_id)', [ids]).wrap('', ''))
      .joinRaw(
        `cross join lateral (select * from webhook_deliveries w
           where w.partner_id = ? and w.endpoint_id = k.endpoint_id order by w.id desc limit ?) d`,
        [partnerId, limit],
      ),
  );
}

/** The latest 25 deliveries of each (partner, event), oldest first. */
export function deliveriesOfEvents(db: DbOrTrx, keys: readonly TenantKey[]): Promise<WebhookDeliveryRow[]> {
  return eachPartnerOf(keys, (partnerId, ids) =>
    db
      .select('d.*')
      .from(db.raw('unnest(?::text[]) as k(event_id)', [ids]).wrap('', ''))
      .joinRaw(
        `cross join lateral (select * from (select * from webhook_deliveries w
           where w.partner_id = ? and w.event_id = k.event_id order by w.id desc limit 25) l
           order by l.id) d`,
        [partnerId],
      ),
  );
}

/** The last 20 attempts of each (partner, delivery), oldest first. */
export function attemptsOfDeliveries(db: DbOrTrx, keys: readonly TenantKey[]): Promise<WebhookAttemptRow[]> {
  return eachPartnerOf(keys, (partnerId, ids) =>
    db
      .select('a.*')
      .from(db.raw('unnest(?::int8[]) as k(delivery_id)', [ids]).wrap('', ''))
      .joinRaw(
        `cross join lateral (select * from (select * from webhook_attempts w
           where w.partner_id = ? and w.delivery_id = k.delivery_id order by w.id desc limit 20) l
           order by l.id) a`,
        [partnerId],
      ),
  );
}

/** The partner of endpoint `id` (operators name endpoints by id alone), or null. */
export async function endpointPartnerOf(db: DbOrTrx, id: string): Promise<string | null> {
  const row = await db('webhook_endpoints').where({ id }).select('partner_id').first();
  return row ? String(row.partner_id) : null;
}

/** The partner of event `id` (operators name events by id alone), or null. */
export async function eventPartnerOf(db: DbOrTrx, id: string): Promise<string | null> {
  const row = await db('events').where({ id }).select('partner_id').first();
  return row ? String(row.partner_id) : null;
}
