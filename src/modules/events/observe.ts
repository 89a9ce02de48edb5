// How many events the service writes, told through the context's observe port after the change's
// transaction committed (so a rolled-back change counts nothing); ops/metrics.ts counts them by type.
import type { EventTypeName } from './rows.js';

export interface EventObserver {
  eventsWritten(types: readonly EventTypeName[]): void;
}

export const UNOBSERVED_EVENTS: EventObserver = { eventsWritten: () => {} };

/** Tells `observer` the types of `events` once they are committed (an empty list tells nothing). */
export function observeEvents(observer: EventObserver, events: ReadonlyArray<{ type: EventTypeName }> | undefined) {
  if (events?.length) observer.eventsWritten(events.map((event) => event.type));
}
