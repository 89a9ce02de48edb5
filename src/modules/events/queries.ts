import type { DbOrTrx } from '../../db/knex.js';
import { newEventId } from './ids.js';
import type { EventRow, NewEvent } from './rows.js';

const COLUMNS = ['partner_id', 'id', 'sequence', 'type', 'occurred_at', 'data'] as const;

/**
 * Appends a partner's events in the caller's transaction, in one statement: the partner's counter is
 * moved on by their number (its row stays locked until the transaction ends, so the partner's events
 * are numbered in commit order, none skipped), and the events are written with the numbers that follow.
 */
export async function appendEvents(trx: DbOrTrx, partnerId: string, events: readonly NewEvent[]): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const { rows } = (await trx.raw(
    `with allocated as (
       insert into event_sequences (partner_id, last) values (?, ?)
       on conflict (partner_id) do update set last = event_sequences.last + excluded.last
       returning last
     )
     insert into events (partner_id, id, sequence, type, occurred_at, data)
     select ?, e.id, allocated.last - ? + e.ordinal, e.type, e.occurred_at, e.data
     from allocated, unnest(?::text[], ?::text[], ?::timestamptz[], ?::json[]) with ordinality as e(id, type, occurred_at, data, ordinal)
     returning ${COLUMNS.join(', ')}`,
    [
      partnerId,
      events.length,
      partnerId,
      events.length,
      events.map((event) => newEventId(event.occurredAt)),
      events.map((event) => event.type),
      events.map((event) => event.occurredAt.toISOString()),
      events.map((event) => JSON.stringify(event.data)),
    ],
  )) as { rows: EventRow[] };
  return rows.sort((a, b) => Number(BigInt(a.sequence) - BigInt(b.sequence)));
}
