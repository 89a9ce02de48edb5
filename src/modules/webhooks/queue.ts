// The delivery queue in the database: any number of instances claim from it. A claim is a lease
// (claimed_until, claim_token): FOR UPDATE SKIP LOCKED keeps two workers off one row at once, and a
// SIGKILLed instance's claims run out, so another worker claims them again. All times are the database's.
import type { Knex } from 'knex';
import type { DbOrTrx } from '../../db/knex.js';
import type { EventRow } from '../events/rows.js';
import type { PostOutcome } from './post.js';
import type { WebhookDeliveryRow, WebhookEndpointRow } from './rows.js';

/** Claims the next due delivery, skipping endpoints this worker is already busy with ("partner:endpoint"). */
export async function claimDueDelivery(
  db: DbOrTrx,
  claimToken: string,
  leaseMs: number,
  busyEndpoints: readonly string[],
): Promise<WebhookDeliveryRow | null> {
  const { rows } = (await db.raw(
    `update webhook_deliveries d
       set claimed_until = now() + ? * interval '1 millisecond', claim_token = ?, attempt_count = d.attempt_count + 1
     from (select partner_id, id from webhook_deliveries
           where status = 'pending' and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
             and not ((partner_id || ':' || endpoint_id) = any(?::text[]))
           order by next_attempt_at, id
           limit 1
           for update skip locked) due
     where d.partner_id = due.partner_id and d.id = due.id
     returning d.*`,
    [leaseMs, claimToken, [...busyEndpoints]],
  )) as { rows: WebhookDeliveryRow[] };
  return rows[0] ?? null;
}

/** What a claimed delivery needs: its endpoint (null: deleted) and its event. */
export async function deliveryTargets(
  db: DbOrTrx,
  delivery: WebhookDeliveryRow,
): Promise<{ endpoint: WebhookEndpointRow | null; event: EventRow | null }> {
  const [endpoint, event] = await Promise.all([
    db<WebhookEndpointRow>('webhook_endpoints')
      .where({ partner_id: delivery.partner_id, id: delivery.endpoint_id })
      .first(),
    db<EventRow>('events').where({ partner_id: delivery.partner_id, id: delivery.event_id }).first(),
  ]);
  return { endpoint: endpoint ?? null, event: event ?? null };
}

/** Gives up on a claimed delivery without an attempt (its endpoint was disabled). */
export async function abandonDelivery(db: DbOrTrx, delivery: WebhookDeliveryRow, claimToken: string): Promise<void> {
  await db('webhook_deliveries')
    .where({ partner_id: delivery.partner_id, id: delivery.id, claim_token: claimToken })
    .update({ status: 'failed', next_attempt_at: null, claimed_until: null, claim_token: null });
}

export interface RetryPolicy {
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
  if (outcome.delivered) return recordDelivered(db, delivery, claimToken, attempt);
  return db.transaction(async (trx) => {
    await trx.raw(INSERT_ATTEMPT, attempt);
    const { rows } = (await trx.raw(
      `update webhook_deliveries
         set status = case when created_at + ? * interval '1 millisecond' <= now() then 'failed' else 'pending' end,
             next_attempt_at = case when created_at + ? * interval '1 millisecond' <= now() then null
                                    else now() + ? * interval '1 millisecond' end,
             claimed_until = null, claim_token = null
       where partner_id = ? and id = ? and claim_token = ?
       returning status`,
      [policy.retryWindowMs, policy.retryWindowMs, policy.retryInMs, delivery.partner_id, delivery.id, claimToken],
    )) as { rows: { status: 'pending' | 'failed' }[] };
    await trx.raw(
      `update webhook_endpoints
         set failing_since = coalesce(failing_since, ?),
             enabled = case when coalesce(failing_since, ?) + ? * interval '1 millisecond' <= now()
               then false else enabled end,
             disabled_reason = case when enabled and coalesce(failing_since, ?) + ? * interval '1 millisecond' <= now()
               then 'disabled by the service: every delivery attempt failed for ' || ? || ' days'
               else disabled_reason end
       where partner_id = ? and id = ?`,
      [
        outcome.at,
        outcome.at,
        policy.disableAfterMs,
        outcome.at,
        policy.disableAfterMs,
        String(Math.round((policy.disableAfterMs / 86_400_000) * 100) / 100),
        delivery.partner_id,
        delivery.endpoint_id,
      ],
    );
    return rows[0]?.status ?? null;
  });
}

/**
 * A delivered attempt in one statement (the common case: one round trip, where a transaction took five):
 * the attempt recorded, the delivery delivered if this worker still holds its claim, the endpoint's
 * failing streak ended. A statement's parts commit together.
 */
async function recordDelivered(
  db: DbOrTrx,
  delivery: WebhookDeliveryRow,
  claimToken: string,
  attempt: readonly unknown[],
): Promise<'delivered' | null> {
  const { rows } = (await db.raw(
    `with attempt as (${INSERT_ATTEMPT}), delivered as (
       update webhook_deliveries
          set status = 'delivered', delivered_at = now(), next_attempt_at = null, claimed_until = null,
              claim_token = null
        where partner_id = ? and id = ? and claim_token = ?
        returning id
     ), streak_ended as (
       update webhook_endpoints set failing_since = null
        where partner_id = ? and id = ? and failing_since is not null
     )
     select count(*)::int as changed from delivered`,
    [
      ...attempt,
      delivery.partner_id,
      delivery.id,
      claimToken,
      delivery.partner_id,
      delivery.endpoint_id,
    ] as Knex.RawBinding[],
  )) as { rows: { changed: number }[] };
  return rows[0]?.changed ? 'delivered' : null;
}

/** Pending deliveries, and how many of them are due now: the queue-depth gauge. */
export async function queueDepth(db: DbOrTrx): Promise<{ pending: number; due: number }> {
  const row = (await db('webhook_deliveries')
    .where({ status: 'pending' })
    .select(db.raw('count(*) as pending'), db.raw('count(*) filter (where next_attempt_at <= now()) as due'))
    .first()) as { pending: string | number; due: string | number } | undefined;
  return { pending: Number(row?.pending ?? 0), due: Number(row?.due ?? 0) };
}
