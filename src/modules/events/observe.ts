// The events the service writes, told through the context's observe port after the change's
// transaction committed (so a rolled-back change tells nothing): ops/metrics.ts counts them by type,
// and app.ts tells the listeners of every instance (publish.ts).
import type { EventRow } from './rows.js';

export type WrittenEvent = Pick<EventRow, 'partner_id' | 'id' | 'type'>;

export interface EventObserver {
  eventsWritten(events: readonly WrittenEvent[]): void;
}

export const UNOBSERVED_EVENTS: EventObserver = { eventsWritten: () => {} };

/** Tells `observer` the types of `events` once they are committed (an empty list tells nothing). */
export function observeEvents(observer: EventObserver, events: readonly WrittenEvent[] | undefined) {
  if (events?.length) observer.eventsWritten(events);
}
