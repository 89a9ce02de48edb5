import type { DbOrTrx } from '../../db/knex.js';
import { type SqlFragment, sql, sqlText } from '../../db/sqlFragment.js';
import { activeTraceparent } from '../../kernel/tracing.js';
import { newEventId } from './ids.js';
import { publishOnCommit } from './log.js';
import type { EventRow, EventTypeName, NewEvent } from './rows.js';

const COLUMNS = ['partner_id', 'id', 'sequence', 'type', 'occurred_at', 'data'] as const;

/**
 * Appends a partner's events in the caller's transaction, in one statement, numbered from the events
 * sequence in the order given (no lock is taken: payments of one partner do not wait for each other).
 * Each carries the traceparent of the active span (null with tracing off): its webhook deliveries
 * continue the trace of the request that wrote it. The log publishes them once `trx` commits (log.ts).
 */
export async function appendEvents(trx: DbOrTrx, partnerId: string, events: readonly NewEvent[]): Promise<EventRow[]> {
  if (events.length === 0) return [];
  const { rows } = (await trx.raw(
    `insert into events (partner_id, id, sequence, type, occurred_at, data, traceparent)
     select ?, e.id, nextval('events_sequence'), e.type, e.occurred_at, e.data, ?::text
     from (select * from unnest(?::text[], ?::text[], ?::timestamptz[], ?::json[]) with ordinality
           as u(id, type, occurred_at, data, ordinal) order by ordinal) as e
     returning ${COLUMNS.join(', ')}`,
    [
      partnerId,
      activeTraceparent(),
      events.map((event) => newEventId(event.occurredAt)),
      events.map((event) => event.type),
      events.map((event) => event.occurredAt.toISOString()),
      events.map((event) => JSON.stringify(event.data)),
    ],
  )) as { rows: EventRow[] };
  rows.sort((a, b) => Number(BigInt(a.sequence) - BigInt(b.sequence)));
  publishOnCommit(trx, rows);
  return rows;
}

/** Events to append as one part of a statement (appendEventsPart): the arrays it unnests, in order. */
export interface EventArrays {
  traceparent: string | null;
  ids: string[];
  types: string[];
  occurredAt: string[];
  data: string[];
  guarded: boolean[];
}

/**
 * appendEvents as one part (a CTE) of a statement that first writes the events' subject, a payment:
 * `subject` names a CTE returning that row's partner_id. The events are written only if the row was,
 * numbered as appendEvents numbers them, so a statement that writes nothing numbers nothing. An event
 * marked `guarded` is written only where `guard`, an SQL condition on the statement's other parts,
 * holds (the lock timeline's unlock: only if the order's lock had fired); the others always. Whoever
 * runs the statement hands what it wrote to appendedBy, in the same function.
 */
export function appendEventsPart(subject: string, events: EventArrays, guard = sqlText('false')): SqlFragment {
  const row = sqlText(subject);
  return sql`insert into events (partner_id, id, sequence, type, occurred_at, data, traceparent)
     select ${row}.partner_id, e.id, nextval('events_sequence'), e.type, e.occurred_at, e.data, ${events.traceparent}::text
     from (select * from unnest(${events.ids}::text[], ${events.types}::text[], ${events.occurredAt}::timestamptz[], ${events.data}::json[], ${events.guarded}::bool[]) with ordinality
           as u(id, type, occurred_at, data, guarded, ordinal) order by ordinal) as e cross join ${row}
     where not e.guarded or (${guard})`;
}

/** appendEventsPart's arrays for `events`, and the events as they will stand once written (a guarded one: if its guard held). */
export function appendEventsOf(
  partnerId: string,
  events: readonly NewEvent[],
  guarded: ReadonlySet<NewEvent> = new Set(),
): {
  arrays: EventArrays;
  written: Array<Pick<EventRow, 'partner_id' | 'id' | 'type'> & { guarded: boolean }>;
} {
  const ids = events.map((event) => newEventId(event.occurredAt));
  return {
    arrays: {
      traceparent: activeTraceparent(),
      ids,
      types: events.map((event) => event.type),
      occurredAt: events.map((event) => event.occurredAt.toISOString()),
      data: events.map((event) => JSON.stringify(event.data)),
      guarded: events.map((event) => guarded.has(event)),
    },
    written: events.map((event, index) => ({
      partner_id: partnerId,
      id: ids[index]!,
      type: event.type,
      guarded: guarded.has(event),
    })),
  };
}

/** What a statement of appendEventsPart wrote on `handle`: the log publishes it once committed (log.ts). */
export function appendedBy<T extends Pick<EventRow, 'partner_id' | 'id' | 'type'>>(handle: DbOrTrx, written: T[]): T[] {
  publishOnCommit(handle, written);
  return written;
}

/** Where a page of the log stops: a partner's by sequence, every partner's by (time, id). */
export type EventPosition = { sequence: string } | { timeUs: string; id: string };

/** The device an event names, as events_partner_device_sequence indexes it (its migration: 20261201000100). */
const DEVICE_TAG = "(data->'device'->>'tag')";

interface EventListing {
  /** One partner's events (by sequence), or every partner's (null: operators, by time). */
  partnerId: string | null;
  /** Of one partner's log, only the events whose data names this device (by its tag). */
  deviceTag?: string;
  types: readonly EventTypeName[] | null;
  after: EventPosition | undefined;
  limit: number;
}

/** Which events a listing holds, wherever its page starts. */
export type EventSelection = Omit<EventListing, 'after' | 'limit'>;

/** A page of the log, newest first. */
export function listEvents(db: DbOrTrx, listing: EventListing): Promise<EventRow[]> {
  const query = db('events')
    .select(...COLUMNS, db.raw('(extract(epoch from occurred_at) * 1000000)::int8 as occurred_at_us'))
    .limit(listing.limit);
  if (listing.types) query.whereIn('type', [...listing.types]);
  if (listing.deviceTag !== undefined) query.whereRaw(`${DEVICE_TAG} = ?`, [listing.deviceTag]);
  const after = listing.after;
  if (listing.partnerId !== null) {
    query.where('partner_id', listing.partnerId).orderBy('sequence', 'desc');
    if (after && 'sequence' in after) query.where('sequence', '<', after.sequence);
  } else {
    query.orderBy([
      { column: 'occurred_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
    if (after && 'timeUs' in after) {
      query.whereRaw(`(occurred_at, id) < (timestamptz 'epoch' + ?::int8 * interval '1 microsecond', ?)`, [
        after.timeUs,
        after.id,
      ]);
    }
  }
  return query as unknown as Promise<EventRow[]>;
}

/**
 * Whether the listing (its partner and types) holds an event at or before `position` in its own
 * order, newest first: the event at the position or a newer one. One row at most, read along the
 * listing's index from the position.
 */
export async function eventsPrecede(db: DbOrTrx, listing: EventSelection, position: EventPosition): Promise<boolean> {
  const query = db('events').select(db.raw('1 as present')).limit(1);
  if (listing.types) query.whereIn('type', [...listing.types]);
  if (listing.deviceTag !== undefined) query.whereRaw(`${DEVICE_TAG} = ?`, [listing.deviceTag]);
  if (listing.partnerId !== null) {
    query.where('partner_id', listing.partnerId).orderBy('sequence');
    if ('sequence' in position) query.where('sequence', '>=', position.sequence);
  } else {
    query.orderBy(['occurred_at', 'id']);
    if ('timeUs' in position) {
      query.whereRaw(`(occurred_at, id) >= (timestamptz 'epoch' + ?::int8 * interval '1 microsecond', ?)`, [
        position.timeUs,
        position.id,
      ]);
    }
  }
  return (await query).length > 0;
}

/** One event by id: of `partnerId`'s only, or of any partner (null: operators). */
export async function eventById(db: DbOrTrx, id: string, partnerId: string | null): Promise<EventRow | undefined> {
  const query = db('events')
    .select(...COLUMNS)
    .where({ id });
  if (partnerId !== null) query.where({ partner_id: partnerId });
  return (await query.first()) as EventRow | undefined;
}
