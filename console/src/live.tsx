// The partner's events as they happen: one graphql-ws subscription for the signed-in session, kept
// while the person moves between views, so the live view already holds what happened elsewhere. The
// client reconnects by itself (at once, then waiting longer, up to 10 s); each time it is connected
// again it reads Query.events, newest first, down to the newest event it held, so what committed while
// it was offline shows, however many there were (up to the events it keeps).
import { createClient } from 'graphql-ws/client';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import liveEventsDocument from '../operations/liveEvents.graphql';
import recentEventsDocument from '../operations/recentEvents.graphql';
import type {
  ConsoleLiveEventsSubscription,
  ConsoleRecentEventsQuery,
  ConsoleRecentEventsQueryVariables,
} from './__generated__/operations.js';
import { ask } from './graph.js';
import { useSession } from './session.js';

export type LiveEvent = ConsoleLiveEventsSubscription['events'];
export type LiveStatus = 'connecting' | 'online' | 'offline';

/** The most events the console holds; older ones are read with Query.events. */
const KEPT_EVENTS = 200;
/** What is read on each (re)connection a page at a time, until a page reaches the newest event held. */
const CATCH_UP_PAGE = 50;
const MAX_RETRY_WAIT_MS = 10_000;

interface Live {
  status: LiveStatus;
  /** Newest first. */
  events: readonly LiveEvent[];
}

const LiveContext = createContext<Live>({ status: 'connecting', events: [] });

export const useLive = (): Live => useContext(LiveContext);

/** Events merged by id, newest (highest sequence) first, at most KEPT_EVENTS. */
function merged(held: readonly LiveEvent[], arriving: readonly LiveEvent[]): LiveEvent[] {
  const byId = new Map(held.map((event) => [event.id, event]));
  for (const event of arriving) byId.set(event.id, event);
  return [...byId.values()]
    .sort((a, b) => {
      const difference = BigInt(b.sequence) - BigInt(a.sequence);
      return difference > 0n ? 1 : difference < 0n ? -1 : 0;
    })
    .slice(0, KEPT_EVENTS);
}

const socketUrl = (): string =>
  `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/graphql`;

export function LiveProvider(props: { children: ReactNode }) {
  const { key, kind, partner } = useSession();
  const [live, setLive] = useState<Live>({ status: 'connecting', events: [] });
  // An operator names the partner; a partner key's own partner is implied by the key.
  const partnerId = kind === 'OPERATOR' ? (partner?.id ?? null) : null;
  const hasPartner = partner !== null;
  // The newest sequence held, read by a catch-up to know where to stop (the state's updater is no place to read it).
  const newestHeld = useRef<bigint | null>(null);
  const newest = live.events[0]?.sequence;
  useEffect(() => {
    newestHeld.current = newest === undefined ? null : BigInt(newest);
  }, [newest]);

  useEffect(() => {
    if (!hasPartner) return;
    let stopped = false;
    setLive({ status: 'connecting', events: [] });
    const catchUp = async () => {
      const held = newestHeld.current;
      let after: string | null = null;
      try {
        for (let read = 0; !stopped && read < KEPT_EVENTS; read += CATCH_UP_PAGE) {
          const variables: ConsoleRecentEventsQueryVariables = { partnerId, first: CATCH_UP_PAGE, after };
          const { events } = await ask<ConsoleRecentEventsQuery, ConsoleRecentEventsQueryVariables>(
            key,
            recentEventsDocument,
            variables,
          );
          if (stopped) return;
          setLive((current) => ({ ...current, events: merged(current.events, events.nodes) }));
          // The first connection starts from one page; a reconnection reads on until it meets what it held.
          const reachedHeld = held === null || events.nodes.some((event) => BigInt(event.sequence) <= held);
          if (reachedHeld || !events.pageInfo.hasNextPage || !events.pageInfo.endCursor) return;
          after = events.pageInfo.endCursor;
        }
      } catch {
        // Offline again, or refused: the next connection reads them.
      }
    };
    const client = createClient({
      url: socketUrl(),
      connectionParams: { 'X-Api-Key': key },
      lazy: false,
      keepAlive: 10_000,
      retryAttempts: Number.POSITIVE_INFINITY,
      shouldRetry: () => true,
      retryWait: (retries) =>
        new Promise((resolve) => setTimeout(resolve, Math.min(MAX_RETRY_WAIT_MS, 250 * 2 ** retries))),
      on: {
        connected: () => {
          if (stopped) return;
          setLive((held) => ({ ...held, status: 'online' }));
          void catchUp();
        },
        closed: () => {
          if (!stopped) setLive((held) => ({ ...held, status: 'offline' }));
        },
      },
    });
    const unsubscribe = client.subscribe<ConsoleLiveEventsSubscription>(
      { query: liveEventsDocument, variables: { partnerId } },
      {
        next: ({ data }) => {
          if (data && !stopped) setLive((held) => ({ ...held, events: merged(held.events, [data.events]) }));
        },
        error: () => {
          if (!stopped) setLive((held) => ({ ...held, status: 'offline' }));
        },
        complete: () => {},
      },
    );
    return () => {
      stopped = true;
      unsubscribe();
      void client.dispose();
    };
  }, [key, partnerId, hasPartner]);

  return <LiveContext.Provider value={live}>{props.children}</LiveContext.Provider>;
}

/** The order an event's data names, if any (its shapes: the OpenAPI document's webhooks). */
export function orderIdOf(event: LiveEvent): string | null {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const nested = (name: string): Record<string, unknown> | null => {
    const value = data[name];
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  };
  const candidate =
    nested('financeOrder')?.id ??
    data.financeOrderId ??
    nested('payment')?.financeOrderId ??
    (event.type.startsWith('FINANCE_ORDER_') ? data.id : undefined);
  return typeof candidate === 'string' || typeof candidate === 'number' ? String(candidate) : null;
}
