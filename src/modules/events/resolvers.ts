import type { Resolvers } from '../../__generated__/resolvers.js';
import type { DbOrTrx } from '../../db/knex.js';
import { invalidArgument } from '../../kernel/errors.js';
import { pageSizeOf } from '../../kernel/listSize.js';
import { readablePartner } from '../auth/principal.js';
import { column } from '../columns.js';
import { edgesOf, pageInfoOf } from '../pages.js';
import { EVENT_ID } from './ids.js';
import { type EventPosition, type EventSelection, eventById, eventsPrecede, listEvents } from './queries.js';
import type { EventPage, EventRow } from './rows.js';
import { graphEventType, logEventType } from './typeNames.js';

// Opaque cursors: "s" and the sequence within one partner, "t" with the time and id across partners.
const cursorOf = (row: EventRow, byPartner: boolean) =>
  Buffer.from(
    JSON.stringify(byPartner ? { s: String(row.sequence) } : { t: String(row.occurred_at_us), i: row.id }),
  ).toString('base64url');

function parseCursor(after: string): EventPosition {
  try {
    const value = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (typeof value?.s === 'string' && /^\d{1,18}$/.test(value.s)) return { sequence: value.s };
    if (typeof value?.t === 'string' && /^-?\d{1,18}$/.test(value.t) && EVENT_ID.test(String(value.i)))
      return { timeUs: value.t, id: value.i };
  } catch {
    // Not JSON: the same answer as any other text that is no cursor.
  }
  throw invalidArgument('after', 'is not a cursor of this connection');
}

/** The page of `selection` after `position` (none: the newest), `limit` events, with what its pageInfo reads. */
async function eventPage(
  db: DbOrTrx,
  selection: EventSelection,
  position: EventPosition | undefined,
  limit: number,
): Promise<EventPage> {
  const rows = await listEvents(db, { ...selection, after: position, limit: limit + 1 });
  return {
    rows: rows.slice(0, limit),
    hasNextPage: rows.length > limit,
    byPartner: selection.partnerId !== null,
    previousExists: position ? () => eventsPrecede(db, selection, position) : null,
  };
}

export const eventResolvers: Resolvers = {
  Query: {
    events: async (_root, { first, after, types, partnerId: requested }, ctx, info) => {
      // A partner key reads its own partner's log; operators any partner's, or all; retail keys none.
      const partnerId = readablePartner(ctx, requested, ['partner']);
      const limit = pageSizeOf(info, first);
      const position = after != null ? parseCursor(after) : undefined;
      if (partnerId === undefined) return { rows: [], hasNextPage: false, byPartner: true, previousExists: null };
      // A cursor of the other ordering (one partner's log, or every partner's) belongs to another listing.
      if (position && 'sequence' in position !== (partnerId !== null))
        throw invalidArgument('after', 'is not a cursor of this connection');
      return eventPage(ctx.reads.db, { partnerId, types: types ? types.map(logEventType) : null }, position, limit);
    },
    event: async (_root, { id }, ctx) => {
      const partnerId = readablePartner(ctx, null, ['partner']);
      if (partnerId === undefined || !EVENT_ID.test(id)) return null;
      return (await eventById(ctx.reads.db, id, partnerId)) ?? null;
    },
  },
  Device: {
    // Whoever reached the device reads its events (decisions.md 46): its partner's log, by the device's tag.
    events: (device, { first, after, types }, ctx, info) => {
      const limit = pageSizeOf(info, first);
      const position = after != null ? parseCursor(after) : undefined;
      if (position && !('sequence' in position)) throw invalidArgument('after', 'is not a cursor of this connection');
      const selection = {
        partnerId: device.partner_id,
        deviceTag: device.tag,
        types: types ? types.map(logEventType) : null,
      };
      return eventPage(ctx.reads.db, selection, position, limit);
    },
  },
  // A page is ordered by sequence when it is one partner's (every row of it is), else by time.
  EventConnection: {
    edges: (page) => edgesOf(page.rows, (row) => cursorOf(row, page.byPartner)),
    nodes: (page) => page.rows,
    pageInfo: (page) =>
      pageInfoOf(page.rows, page.hasNextPage, (row) => cursorOf(row, page.byPartner), page.previousExists),
  },
  Event: {
    type: (event) => graphEventType(event.type),
    occurredAt: column('occurred_at'),
    partner: (event, _args, ctx) => ctx.reads.loaders.partners.byId.load(event.partner_id),
    sequence: (event) => String(event.sequence),
    data: column('data'),
  },
};
