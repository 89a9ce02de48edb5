// The live view (docs/decisions.md 46): the events the live feed holds, newest first, shown or hidden
// by kind, each in one line with its order's link; the feed's state in words, and each new arrival
// announced in a polite live region (the newest one, never the whole list).
import { useEffect, useRef, useState } from 'react';
import { time, words } from '../format.js';
import { type LiveEvent, type LiveStatus, orderIdOf, useLive } from '../live.js';
import { hrefOf } from '../route.js';
import { View } from '../ui.js';
import { EVENT_GROUPS, type EventGroup, groupOf, summaryOf } from './eventSummary.js';

const STATUS_WORDS: Record<LiveStatus, string> = {
  online: 'Live',
  connecting: 'Connecting…',
  offline: 'Offline: reconnecting — events that happen meanwhile will show when it is back',
};

const ALL_GROUPS: ReadonlySet<EventGroup> = new Set(EVENT_GROUPS.map((group) => group.name));

export function LiveView() {
  const { status, events } = useLive();
  const [shown, setShown] = useState<ReadonlySet<EventGroup>>(ALL_GROUPS);
  const arrival = useArrival(events, shown);
  const visible = events.filter((event) => shown.has(groupOf(event.type)));

  const toggle = (group: EventGroup) =>
    setShown((held) => {
      const next = new Set(held);
      if (!next.delete(group)) next.add(group);
      return next;
    });

  return (
    <View title="Live">
      <p className={`live-status live-${status}`}>
        <span aria-hidden="true">{status === 'online' ? '●' : '○'}</span> {STATUS_WORDS[status]}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {arrival ? <span key={arrival.id}>New event: {words(arrival.type)}</span> : null}
      </p>
      <fieldset className="event-filter">
        <legend>Show</legend>
        {EVENT_GROUPS.map((group) => (
          <label key={group.name}>
            <input type="checkbox" checked={shown.has(group.name)} onChange={() => toggle(group.name)} /> {group.label}
          </label>
        ))}
      </fieldset>
      <p className="muted">
        {events.length === 0
          ? status === 'online'
            ? 'No events yet: they show here as they happen.'
            : 'No events held yet.'
          : `Showing ${visible.length} of the ${events.length} latest events (newest first).`}
      </p>
      {visible.length > 0 ? (
        <ol className="events" aria-label="Events">
          {visible.map((event) => (
            <EventItem key={event.id} event={event} />
          ))}
        </ol>
      ) : null}
    </View>
  );
}

function EventItem(props: { event: LiveEvent }) {
  const { event } = props;
  const orderId = orderIdOf(event);
  return (
    <li data-event-type={event.type} data-event-id={event.id}>
      <span className="event-type">{words(event.type)}</span>{' '}
      <time className="event-time" dateTime={new Date(event.occurredAt * 1000).toISOString()}>
        {time(event.occurredAt)}
      </time>
      <span className="event-summary">{summaryOf(event)}</span>
      {orderId ? (
        <a className="event-order" href={hrefOf.order(orderId)}>
          Order {orderId}
        </a>
      ) : null}
    </li>
  );
}

/**
 * The newest event that arrived while the view was open and is of a kind shown; null before any. What
 * the view held when it opened (or the first events read) is the baseline, never announced.
 */
function useArrival(events: readonly LiveEvent[], shown: ReadonlySet<EventGroup>): LiveEvent | null {
  const [arrival, setArrival] = useState<LiveEvent | null>(null);
  const newestSeen = useRef<bigint | null>(null);
  const newest = events[0];
  useEffect(() => {
    if (!newest) return;
    const sequence = BigInt(newest.sequence);
    const baseline = newestSeen.current === null;
    if (newestSeen.current !== null && sequence <= newestSeen.current) return;
    newestSeen.current = sequence;
    if (!baseline && shown.has(groupOf(newest.type))) setArrival(newest);
  }, [newest, shown]);
  return arrival;
}
