// Tells every instance's listeners (subscriptions: events/feed.ts) that events committed, once the
// change's transaction has committed, in a statement of its own. A NOTIFY inside the change's own
// transaction would hold Postgres's one notification lock through that transaction's commit (its WAL
// flush included), so every payment of every partner would commit one after another: measured, a
// third fewer payments per second. Subscriptions are live and best effort (a client catches up with
// Query.events); webhooks do not depend on this (their deliveries are written with the event).
// A key's revocation travels on the same channel, inside its own transaction (publishKeyRevocation).
// The events of changes committed in one turn of the event loop are told in one statement.
import type { Logger } from 'pino';
import type { DbOrTrx } from '../../db/knex.js';
import { runSql } from '../../db/prepared.js';
import type { EventRow } from './rows.js';

export const EVENTS_CHANNEL = 'dfs_events';

/** The listeners' message for an event: "partner_id:id" (feed.ts reads the row by that key). */
const notification = (event: Pick<EventRow, 'partner_id' | 'id'>) => `${event.partner_id}:${event.id}`;

/**
 * A revoked key's message on the same channel: the door closes the connections of that key and of
 * its access tokens. It cannot be taken for an event's ("partner_id:id": partner ids are digits).
 */
export const REVOKED_KEY_PREFIX = 'revoked-key:';

/**
 * NOTIFYs the revocation of key `keyId` inside the revoking transaction `trx`: Postgres delivers it
 * at commit, before the notification of any event committed after it, so a connection of that key
 * is closed before such an event can reach it. A revocation is rare; holding the notification lock
 * through its commit costs nothing that matters.
 */
export async function publishKeyRevocation(trx: DbOrTrx, keyId: string): Promise<void> {
  await trx.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, `${REVOKED_KEY_PREFIX}${keyId}`]);
}

/**
 * Deliveries of a partner due now that no event announces (a redelivery brought forward, a test
 * delivery: decisions.md 36), on the same channel: "deliveries-due:<partner_id>". Every instance's
 * delivery worker looks at its queue at once; the subscriptions' feed passes it over (not an event's).
 */
export const DELIVERIES_DUE_PREFIX = 'deliveries-due:';

/** NOTIFYs inside `trx` that partner `partnerId` has deliveries due: delivered at its commit, or never. */
export async function publishDeliveriesDue(trx: DbOrTrx, partnerId: string): Promise<void> {
  await trx.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, `${DELIVERIES_DUE_PREFIX}${partnerId}`]);
}

/** The messages of one turn of the event loop, sent together (publishEvents). */
interface NotifyBatch {
  messages: string[];
  loggers: Set<Pick<Logger, 'warn'>>;
  sent: Promise<void>;
}

/** Per database handle: the batch still gathering this turn's messages. */
const gathering = new WeakMap<DbOrTrx, NotifyBatch>();

async function notifyAll(db: DbOrTrx, batch: NotifyBatch): Promise<void> {
  try {
    await runSql(db, 'select pg_notify(?, message) from unnest(?::text[]) as message', [
      EVENTS_CHANNEL,
      batch.messages,
    ]);
  } catch (error) {
    for (const logger of batch.loggers)
      logger.warn({ err: error, events: batch.messages.length }, 'could not tell listeners of committed events');
  }
}

/**
 * NOTIFYs the committed `events` on EVENTS_CHANNEL; a failure is logged, never thrown (the change is
 * done). The events of every change committed in the same turn of this process's event loop go in
 * one statement, in the order they were published (decisions.md 23): under load several payments'
 * writes answer in one turn, and each notify is a transaction of its own with its commit.
 */
export function publishEvents(
  db: DbOrTrx,
  events: ReadonlyArray<Pick<EventRow, 'partner_id' | 'id'>>,
  logger?: Pick<Logger, 'warn'>,
): Promise<void> {
  if (events.length === 0) return Promise.resolve();
  let batch = gathering.get(db);
  if (!batch) {
    const created: NotifyBatch = { messages: [], loggers: new Set(), sent: Promise.resolve() };
    created.sent = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      gathering.delete(db);
      return notifyAll(db, created);
    });
    gathering.set(db, created);
    batch = created;
  }
  batch.messages.push(...events.map(notification));
  if (logger) batch.loggers.add(logger);
  return batch.sent;
}
