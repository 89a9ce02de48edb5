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

/**
 * The newest `limit` rows of `table` for each parent of each partner, in id order (`newestFirst` or
 * oldest first): a page per parent, each an index probe along (partner_id, parent column, id). A
 * statement per partner, its partner bound as a value: Citus routes a LATERAL with a LIMIT only when
 * it names one partner (eachPartnerOf, decisions.md 51).
 */
function latestOfEachParent<Row>(
  db: DbOrTrx,
  keys: readonly TenantKey[],
  page: { table: string; parent: string; parentType: 'int8' | 'text'; limit: number; newestFirst: boolean },
): Promise<Row[]> {
  const order = page.newestFirst ? 'desc' : 'asc';
  return eachPartnerOf(keys, (partnerId, ids) =>
    db
      .select('r.*')
      .from(db.raw(`unnest(?::${page.parentType}[]) as k(parent)`, [ids]).wrap('', ''))
      .joinRaw(
        `cross join lateral (select * from (select * from ?? w
           where w.partner_id = ? and ?? = k.parent order by w.id desc limit ?) l
           order by l.id ${order}) r`,
        [page.table, partnerId, `w.${page.parent}`, page.limit],
      ),
  );
}

/** Deliveries of each (partner, endpoint), newest first, at most `limit` each. */
export function deliveriesOfEndpoints(
  db: DbOrTrx,
  keys: readonly TenantKey[],
  limit: number,
): Promise<WebhookDeliveryRow[]> {
  return latestOfEachParent(db, keys, {
    table: 'webhook_deliveries',
    parent: 'endpoint_id',
    parentType: 'int8',
    limit,
    newestFirst: true,
  });
}

/** The latest 25 deliveries of each (partner, event), oldest first. */
export function deliveriesOfEvents(db: DbOrTrx, keys: readonly TenantKey[]): Promise<WebhookDeliveryRow[]> {
  return latestOfEachParent(db, keys, {
    table: 'webhook_deliveries',
    parent: 'event_id',
    parentType: 'text',
    limit: 25,
    newestFirst: false,
  });
}

/** The last 20 attempts of each (partner, delivery), oldest first. */
export function attemptsOfDeliveries(db: DbOrTrx, keys: readonly TenantKey[]): Promise<WebhookAttemptRow[]> {
  return latestOfEachParent(db, keys, {
    table: 'webhook_attempts',
    parent: 'delivery_id',
    parentType: 'int8',
    limit: 20,
    newestFirst: false,
  });
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
