// One subscription's events as the async iterator graphql-ws pulls from: a bounded queue between the
// feed (which pushes as events commit) and the socket (which takes the next one once the last was
// written). A subscriber that falls behind is disconnected, never buffered without bound.
import type { EventFeed, EventFilter } from './feed.js';
import type { EventRow } from './rows.js';

/** What a subscription may do to its WebSocket connection (the door gives it; the domain never sees ws). */
interface SubscriberConnection {
  /** Bytes accepted for sending and not yet written to the network. */
  bufferedAmount: () => number;
  close: (code: number, reason: string) => void;
}

interface SubscriberBounds {
  /** Events waiting for the socket, at most. */
  maxQueuedEvents: number;
  /** Bytes waiting in the socket's send buffer, at most. */
  maxBufferedBytes: number;
}

// RFC 6455 7.4.1: 1008 policy violation (the subscriber did not keep up), 1012 service restart (the
// feed was interrupted or the service stops: reconnect, read what was missed with Query.events).
const CLOSE_SUBSCRIBER_TOO_SLOW = 1008;
const CLOSE_FEED_INTERRUPTED = 1012;

/** Starts listening for `filter`'s events; the iterator ends when the client completes or the connection closes. */
export async function eventStream(
  feed: EventFeed,
  filter: EventFilter,
  connection: SubscriberConnection,
  bounds: SubscriberBounds,
): Promise<AsyncIterableIterator<EventRow>> {
  const queue: EventRow[] = [];
  let waiting: ((result: IteratorResult<EventRow>) => void) | null = null;
  let done = false;

  const finish = () => {
    if (done) return;
    done = true;
    unsubscribe();
    queue.length = 0;
    waiting?.({ value: undefined, done: true });
    waiting = null;
  };

  const unsubscribe = await feed.subscribe({
    filter,
    deliver: (event) => {
      if (done) return;
      if (waiting) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: event, done: false });
        return;
      }
      queue.push(event);
      const buffered = connection.bufferedAmount();
      if (queue.length > bounds.maxQueuedEvents || buffered > bounds.maxBufferedBytes) {
        finish();
        connection.close(
          CLOSE_SUBSCRIBER_TOO_SLOW,
          `subscriber too slow: more than ${bounds.maxQueuedEvents} events or ${bounds.maxBufferedBytes} bytes waiting`,
        );
      }
    },
    interrupted: (reason) => {
      finish();
      connection.close(CLOSE_FEED_INTERRUPTED, `${reason}; read missed events with Query.events`);
    },
  });

  const stream: AsyncIterableIterator<EventRow> = {
    next: () => {
      const event = queue.shift();
      if (event) return Promise.resolve({ value: event, done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: () => {
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw: (error: unknown) => {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]: () => stream,
  };
  return stream;
}

/** A WebSocket connection's means to subscribe, in its contexts (absent over HTTP, where nothing can stream). */
export interface LiveConnection {
  feed: EventFeed;
  connection: SubscriberConnection;
  bounds: SubscriberBounds;
}
