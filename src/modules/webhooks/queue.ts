// The delivery queue in the database: any number of instances claim from it. A claim is a lease
// (claimed_until, claim_token): FOR UPDATE SKIP LOCKED keeps two workers off one row at once, and a
// SIGKILLed instance's claims run out, so another worker claims them again. All times are the database's.
import type { DbOrTrx } from '../../db/knex.js';
import type { EventRow } from '../events/rows.js';
import { recordDelivered } from './delivered.js';
import type { PostOutcome } from './post.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './rows.js';

/** Room for claims: how many at most, and per endpoint ("partner:endpoint") what this worker already has under way. */
interface ClaimRoom {
  total: number;
  perEndpoint: number;
  underWay: ReadonlyMap<string, number>;
}

/**
 * Claims up to `room.total` due deliveries, partner by partner (decisions.md 50): the partners with
 * deliveries due, the one whose oldest is oldest first, each claimed in one statement pinned to it,
 * until the room is used. In the queue's time order within a partner; across partners, a partner's
 * backlog is served before a partner whose oldest delivery came due later.
 */
export async function claimDueDeliveries(
  db: DbOrTrx,
  claimToken: string,
  leaseMs: number,
  room: ClaimRoom,
): Promise<WebhookDeliveryRow[]> {
  const claimed: WebhookDeliveryRow[] = [];
  if (room.total <= 0) return claimed;
  for (const partnerId of await partnersWithDeliveriesDue(db)) {
    const total = room.total - claimed.length;
    if (total <= 0) break;
    claimed.push(...(await claimPartnerDeliveries(db, partnerId, claimToken, leaseMs, { ...room, total })));
  }
  // In the queue's order (an UPDATE returns its rows in no particular order).
  return claimed.sort(
    (a, b) =>
      (a.next_attempt_at?.getTime() ?? 0) - (b.next_attempt_at?.getTime() ?? 0) || Number(BigInt(a.id) - BigInt(b.id)),
  );
}

/**
 * The partners with deliveries due, the oldest due first: read without a lock along the partial index
 * of pending deliveries, so Citus may read every shard for it.
 */
async function partnersWithDeliveriesDue(db: DbOrTrx): Promise<string[]> {
  const { rows } = (await db.raw(
    `select partner_id from webhook_deliveries
      where status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
      group by partner_id order by min(next_attempt_at), partner_id`,
  )) as { rows: Array<{ partner_id: string }> };
  return rows.map((row) => String(row.partner_id));
}

/**
 * Claims up to `room.total` of a partner's due deliveries in one statement, in the queue's time order,
 * each endpoint's share cut to what its cap leaves (the endpoints at their cap are skipped outright).
 * The candidates are locked FOR UPDATE SKIP LOCKED, so two workers never claim one delivery; a
 * candidate cut by its endpoint's cap is left unclaimed, its lock gone with the statement.
 */
async function claimPartnerDeliveries(
  db: DbOrTrx,
  partnerId: string,
  claimToken: string,
  leaseMs: number,
  room: ClaimRoom,
): Promise<WebhookDeliveryRow[]> {
  const atCap: string[] = [];
  const partly: string[] = [];
  const partlyLeft: number[] = [];
  for (const [endpoint, count] of room.underWay) {
    if (count >= room.perEndpoint) atCap.push(endpoint);
    else if (count > 0) {
      partly.push(endpoint);
      partlyLeft.push(room.perEndpoint - count);
    }
  }
  const { rows } = (await db.raw(
    `with candidates as (
       select partner_id, id, endpoint_id, next_attempt_at from webhook_deliveries
        where partner_id = ? and status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
          and not ((partner_id || ':' || endpoint_id) = any(?::text[]))
        order by next_attempt_at, id
        limit ?
        for update skip locked
     ), chosen as (
       select partner_id, id from (
         select c.partner_id, c.id, coalesce(r.left_room, ?) as left_room,
                row_number() over (partition by c.partner_id, c.endpoint_id order by c.next_attempt_at, c.id) as nth
           from candidates c
           left join unnest(?::text[], ?::int[]) as r(endpoint, left_room)
             on r.endpoint = c.partner_id || ':' || c.endpoint_id
       ) ranked
       where nth <= left_room
     )
     update webhook_deliveries d
        set claimed_until = now() + ? * interval '1 millisecond', claim_token = ?, attempt_count = d.attempt_count + 1
       from chosen
      where d.partner_id = ? and d.partner_id = chosen.partner_id and d.id = chosen.id
     returning d.*`,
    [partnerId, atCap, room.total, room.perEndpoint, partly, partlyLeft, leaseMs, claimToken, partnerId],
  )) as { rows: WebhookDeliveryRow[] };
  return rows;
}

/** What a claimed delivery needs: its endpoint (null: deleted) and its event. */
export interface DeliveryTargets {
  endpoint: WebhookEndpointRow | null;
  event: EventRow | null;
}

/**
 * The endpoints and events of a batch of claimed deliveries: one statement for the endpoints and one
 * for the events, whatever the batch's size. Answers them in the deliveries' order.
 */
export async function deliveryTargets(
  db: DbOrTrx,
  deliveries: readonly WebhookDeliveryRow[],
): Promise<DeliveryTargets[]> {
  if (deliveries.length === 0) return [];
  const pairs = (column: 'endpoint_id' | 'event_id') => [
    ...new Map(deliveries.map((d) => [`${d.partner_id}:${d[column]}`, [d.partner_id, d[column]]])).values(),
  ];
  const [endpoints, events] = await Promise.all([
    db<WebhookEndpointRow>('webhook_endpoints').whereIn(['partner_id', 'id'], pairs('endpoint_id')),
    db<EventRow>('events').whereIn(['partner_id', 'id'], pairs('event_id')),
  ]);
  const byKey = <T extends { partner_id: string; id: string }>(rows: T[]) =>
    new Map(rows.map((row) => [`${row.partner_id}:${row.id}`, row]));
  const endpointOf = byKey(endpoints);
  const eventOf = byKey(events);
  return deliveries.map((d) => ({
    endpoint: endpointOf.get(`${d.partner_id}:${d.endpoint_id}`) ?? null,
    event: eventOf.get(`${d.partner_id}:${d.event_id}`) ?? null,
  }));
}

/** Gives up on a claimed delivery without an attempt (its endpoint was disabled). */
export async function abandonDelivery(db: DbOrTrx, delivery: WebhookDeliveryRow, claimToken: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ partner_id: delivery.partner_id, id: delivery.id, claim_token: claimToken })
    .update({ status: 'failed', next_attempt_at: null, claimed_until: null, claim_token: null });
}

interface RetryPolicy {
  /** The wait before the next attempt, in milliseconds. */
  retryInMs: number;
  /** A failed delivery older than this is marked failed. */
  retryWindowMs: number;
  /** An endpoint failing for this long is disabled. */
  disableAfterMs: number;
}

/** An attempt's row, its values in recordAttempt's `attempt` order. */
const INSERT_ATTEMPT = `insert into webhook_attempts (partner_id, delivery_id, at, status_code, latency_ms, response, error)
  values (?, ?, ?, ?, ?, ?, ?)`;

/**
 * Records an attempt and its consequence, all or nothing: delivered (and the endpoint's failing streak
 * ended), or due again after retryInMs, or failed past the retry window; an endpoint failing for
 * disableAfterMs is disabled with its reason. Answers the delivery's new status (null: the claim was
 * lost to another worker, and only the attempt is recorded).
 */
export function recordAttempt(
  db: DbOrTrx,
  delivery: WebhookDeliveryRow,
  claimToken: string,
  outcome: PostOutcome,
  policy: RetryPolicy,
): Promise<'delivered' | 'pending' | 'failed' | null> {
  const attempt = [
    delivery.partner_id,
    delivery.id,
    outcome.at,
    outcome.statusCode,
    outcome.latencyMs,
    outcome.response,
    outcome.error,
  ];
  if (outcome.delivered) {
    return recordDelivered(db, claimToken, [{ delivery, outcome }]).then((ids) =>
      ids.has(String(delivery.id)) ? 'delivered' : null,
    );
  }
  // The windows are read at the attempt's time, their bounds reckoned here: Citus refuses a stable
  // function (now(), a timestamp plus an interval) inside a CASE of an update (decisions.md 51).
  const at = outcome.at.getTime();
  const createdBy = new Date(at - policy.retryWindowMs);
  const failingSinceBy = new Date(at - policy.disableAfterMs);
  return db.transaction(async (trx) => {
    await trx.raw(INSERT_ATTEMPT, attempt);
    const { rows } = (await trx.raw(
      `update webhook_deliveries
         set status = case when created_at <= ?::timestamptz then 'failed' else 'pending' end,
             next_attempt_at = case when created_at <= ?::timestamptz then null else ?::timestamptz end,
             claimed_until = null, claim_token = null
       where partner_id = ? and id = ? and claim_token = ?
       returning status`,
      [createdBy, createdBy, new Date(at + policy.retryInMs), delivery.partner_id, delivery.id, claimToken],
    )) as { rows: { status: 'pending' | 'failed' }[] };
    await trx.raw(
      `update webhook_endpoints
         set failing_since = coalesce(failing_since, ?),
             enabled = case when coalesce(failing_since, ?) <= ?::timestamptz then false else enabled end,
             disabled_reason = case when enabled and coalesce(failing_since, ?) <= ?::timestamptz
               then 'disabled by the service: every delivery attempt failed for ' || ? || ' days'
               else disabled_reason end
       where partner_id = ? and id = ?`,
      [
        outcome.at,
        outcome.at,
        failingSinceBy,
        outcome.at,
        failingSinceBy,
        String(Math.round((policy.disableAfterMs / 86_400_000) * 100) / 100),
        delivery.partner_id,
        delivery.endpoint_id,
      ],
    );
    return rows[0]?.status ?? null;
  });
}

/** Pending deliveries, and how many of them are due now: the queue-depth gauge. */
export async function queueDepth(db: DbOrTrx): Promise<{ pending: number; due: number }> {
  const row = (await db('webhook_deliveries')
    .where({ status: 'pending' })
    .select(db.raw('count(*) as pending'), db.raw('count(*) filter (where next_attempt_at <= now()) as due'))
    .first()) as { pending: string | number; due: string | number } | undefined;
  return { pending: Number(row?.pending ?? 0), due: Number(row?.due ?? 0) };
}
