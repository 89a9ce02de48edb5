// The order's story in one list, newest first (timelineEntries.ts merges it). The device's events come from
// a query of their own: when the log cannot be read, the rest of the story still shows, and says so.
import { time } from '../../format.js';
import { GraphError } from '../../graph.js';
import { type DeviceEventData, timelineOf } from './timelineEntries.js';
import type { OrderData } from './types.js';

const isoOf = (seconds: number): string => new Date(seconds * 1000).toISOString();

export function TimelineSection(props: { order: OrderData; events: readonly DeviceEventData[]; eventsError: unknown }) {
  const entries = timelineOf(props.order, props.events);
  const { eventsError } = props;
  return (
    <section aria-labelledby="order-timeline">
      <h2 id="order-timeline">Timeline</h2>
      {eventsError ? (
        <p className="note">
          The device's events are not shown: {eventsError instanceof Error ? eventsError.message : String(eventsError)}
          {eventsError instanceof GraphError ? <span className="code"> ({eventsError.code})</span> : null}
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p>Nothing has happened to this order yet.</p>
      ) : (
        <ol aria-label="Timeline" className="timeline">
          {entries.map((entry) => (
            <li key={entry.key}>
              <time dateTime={isoOf(entry.at)}>{time(entry.at)}</time> <strong>{entry.words}</strong>
              {entry.detail ? <span className="detail"> {entry.detail}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
