// The partner's events as they happen: one graphql-ws subscription for the signed-in session, kept
// while the person moves between views, so the live view already holds what happened elsewhere. The
// client reconnects by itself (at once, then waiting longer, up to 10 s); each time it is connected
// again it reads the latest events from Query.events, so what committed while it was offline shows.
import { createClient } from 'graphql-ws/client';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
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
/** What is read on each (re)connection: the newest this many. */
const CATCH_UP_EVENTS = 50;
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

  useEffect(() => {
    if (!hasPartner) return;
    let stopped = false;
    setLive({ status: 'connecting', events: [] });
    const catchUp = async () => {
      try {
        const variables: ConsoleRecentEventsQueryVariables = { partnerId, first: CATCH_UP_EVENTS };
        const { events } = await ask<ConsoleRecentEventsQuery, ConsoleRecentEventsQueryVariables>(
          key,
          recentEventsDocument,
          variables,
        );
        if (!stopped) setLive((held) => ({ ...held, events: merged(held.events, events.nodes) }));
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
