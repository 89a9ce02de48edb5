// Delivered attempts, recorded together: the posts answered while a record is being written are
// written by the next one, in one statement (group commit). A statement per delivery was most of the
// worker's statements; now a busy worker writes one per batch, an idle one one per delivery, as before.
import type { Knex } from 'knex';
import type { DbOrTrx } from '../../db/knex.js';
import type { PostOutcome } from './post.js';
import type { WebhookDeliveryRow } from './rows.js';

/** At most this many deliveries in one statement. */
const MOST_PER_STATEMENT = 200;

interface Waiting {
  delivery: WebhookDeliveryRow;
  outcome: PostOutcome;
  settle: (delivered: boolean) => void;
  fail: (error: unknown) => void;
}

/**
 * Records delivered attempts (outcome.delivered) of deliveries claimed with `claimToken`, in one
 * statement: each attempt inserted; each delivery delivered if this worker still holds its claim; their
 * endpoints' failing streaks ended. Answers the ids delivered (a delivery whose claim was lost to
 * another worker is not among them; its attempt is recorded all the same).
 */
export async function recordDelivered(
  db: DbOrTrx,
  claimToken: string,
  attempts: ReadonlyArray<{ delivery: WebhookDeliveryRow; outcome: PostOutcome }>,
): Promise<Set<string>> {
  const column = <T>(of: (attempt: { delivery: WebhookDeliveryRow; outcome: PostOutcome }) => T) => attempts.map(of);
  const { rows } = (await db.raw(
    `with batch as (
       select * from unnest(?::int8[], ?::int8[], ?::int8[], ?::timestamptz[], ?::int[], ?::int[], ?::text[])
         as b(partner_id, delivery_id, endpoint_id, at, status_code, latency_ms, response)
     ), attempt as (
       insert into webhook_attempts (partner_id, delivery_id, at, status_code, latency_ms, response, error)
       select partner_id, delivery_id, at, status_code, latency_ms, response, null from batch
     ), delivered as (
       update webhook_deliveries d
          set status = 'delivered', delivered_at = now(), next_attempt_at = null, claimed_until = null,
              claim_token = null
         from batch
        where d.partner_id = batch.partner_id and d.id = batch.delivery_id and d.claim_token = ?
        returning d.id
     ), streak_ended as (
       update webhook_endpoints e set failing_since = null
         from (select distinct partner_id, endpoint_id from batch) b
        where e.partner_id = b.partner_id and e.id = b.endpoint_id and e.failing_since is not null
     )
     select id from delivered`,
    [
      column((a) => a.delivery.partner_id),
      column((a) => a.delivery.id),
      column((a) => a.delivery.endpoint_id),
      column((a) => a.outcome.at),
      column((a) => a.outcome.statusCode),
      column((a) => a.outcome.latencyMs),
      column((a) => a.outcome.response),
      claimToken,
    ] as Knex.RawBinding[],
  )) as { rows: { id: string | number }[] };
  return new Set(rows.map((row) => String(row.id)));
}

interface DeliveredRecorder {
  /** Whether the delivery was recorded delivered (false: its claim was lost to another worker). */
  record(delivery: WebhookDeliveryRow, outcome: PostOutcome): Promise<boolean>;
}

/** One record statement under way at a time; the attempts answered meanwhile go in the next. */
export function deliveredRecorder(db: DbOrTrx, claimToken: string): DeliveredRecorder {
  let waiting: Waiting[] = [];
  let writing = false;
  const write = async () => {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MOST_PER_STATEMENT);
      waiting = waiting.slice(batch.length);
      try {
        const delivered = await recordDelivered(db, claimToken, batch);
        for (const entry of batch) entry.settle(delivered.has(String(entry.delivery.id)));
      } catch (error) {
        for (const entry of batch) entry.fail(error);
      }
    }
    writing = false;
  };
  return {
    record: (delivery, outcome) =>
      new Promise<boolean>((settle, fail) => {
        waiting.push({ delivery, outcome, settle, fail });
        if (!writing) void write();
      }),
  };
}
