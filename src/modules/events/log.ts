// The event log's life after an append: whatever appends events (queries.ts) hands them here in the
// same breath, and the log tells of them once, after the outermost transaction commits (at once for a
// statement of its own; never when it rolls back): to every instance's subscription listeners (a NOTIFY,
// publish.ts; it also wakes the webhook fan-out, fanOut.ts) and to this process's listeners of that
// database (metrics count them). No writer publishes, so none can forget to (decisions.md 40).
import type { Logger } from 'pino';
import { commitOf, type Db, type DbOrTrx, rootOf } from '../../db/knex.js';
import { publishEvents } from './publish.js';
import type { EventRow } from './rows.js';

export type CommittedEvent = Pick<EventRow, 'partner_id' | 'id' | 'type'>;

/** A listener of a database's committed events, in this process. */
export interface CommittedEventsListener {
  eventsCommitted(events: readonly CommittedEvent[]): void;
}

/** The listeners of each database pool, and where a failed publication is logged. */
const listenersOf = new WeakMap<Db, Set<CommittedEventsListener>>();
const loggerOf = new WeakMap<Db, Pick<Logger, 'warn'>>();

/** Adds `listener` to `db`'s committed events; answers its removal. */
export function listenToCommittedEvents(db: Db, listener: CommittedEventsListener): () => void {
  const listeners = listenersOf.get(db) ?? new Set<CommittedEventsListener>();
  listenersOf.set(db, listeners);
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where a failed publication of `db`'s events is logged (the NOTIFY only: the events are committed). */
export function logPublicationFailures(db: Db, logger: Pick<Logger, 'warn'>): void {
  loggerOf.set(db, logger);
}

/**
 * A test message is its one endpoint's (webhooks/test.ts): no subscription hears it, no metric counts it,
 * and the fan-out passes it over.
 */
export const UNPUBLISHED_TYPES: ReadonlySet<string> = new Set(['webhook.test']);

function publish(db: Db, events: readonly CommittedEvent[]): void {
  const told = events.filter((event) => !UNPUBLISHED_TYPES.has(event.type));
  if (told.length === 0) return;
  void publishEvents(db, told, loggerOf.get(db));
  for (const listener of listenersOf.get(db) ?? []) listener.eventsCommitted(told);
}

/**
 * Called by the log's own appends with what they wrote on `handle`: published once committed. A
 * handle of a pool that createDb did not open cannot be published from after its commit: refused
 * before the commit, so the write fails rather than its events going untold.
 */
export function publishOnCommit(handle: DbOrTrx, events: readonly CommittedEvent[]): void {
  if (events.length === 0) return;
  const db = rootOf(handle);
  if (!db) throw new Error('events appended in a transaction of a database the service did not open (createDb)');
  const commit = commitOf(handle);
  if (commit === null) {
    publish(db, events);
    return;
  }
  void commit.then((committed) => {
    if (committed) publish(db, events);
  });
}
