// The live feed of the event log: one LISTEN on `dfs_events` per service instance (the instance that
// committed an event sends "partner_id:id" after the commit: publish.ts), each event read once by its
// key and fanned out to the subscribers it matches. Started by the first subscriber; a lost listening
// connection interrupts every subscriber (they reconnect and catch up with Query.events) and the next
// subscriber listens again. The same channel carries keys' revocations (publish.ts), handled in the
// order they came among the events: the WebSocket door closes a revoked key's connections before
// any event committed after the revocation is fanned out.
import type { Logger } from 'pino';
import type { Db } from '../../db/knex.js';
import { type ChannelListener, listenToChannel } from '../../db/notifications.js';
import { EVENTS_CHANNEL, REVOKED_KEY_PREFIX } from './publish.js';
import type { EventRow, EventTypeName } from './rows.js';

/** Which events a subscriber hears: one partner's (or every partner's: null), of some types (or all: null). */
export interface EventFilter {
  partnerId: string | null;
  types: ReadonlySet<EventTypeName> | null;
}

interface FeedSubscriber {
  filter: EventFilter;
  /** An event it matches, in the order this instance heard them. */
  deliver: (event: EventRow) => void;
  /** The feed stopped: events may have been missed. */
  interrupted: (reason: string) => void;
}

export interface EventFeed {
  /** Resolves once the feed is listening: a revocation committed after this is heard (FeedHooks.keyRevoked). */
  listen: () => Promise<void>;
  /** Adds a subscriber once the feed is listening (so no event committed after this resolves is missed); returns its removal. */
  subscribe: (subscriber: FeedSubscriber) => Promise<() => void>;
  /** Subscribers of this instance. */
  size: () => number;
  /** Stops listening; every subscriber is interrupted. */
  close: () => Promise<void>;
}

/** What the feed tells beside events (the WebSocket door listens). */
interface FeedHooks {
  /** Key `keyId` was revoked: called in order among the events, before any notified after it is fanned out. */
  keyRevoked?: (keyId: string) => void;
  /** The listening connection was lost: revocations sent meanwhile are not heard. */
  lost?: (reason: string) => void;
}

const matchesPartner = (filter: EventFilter, partnerId: string) =>
  filter.partnerId === null || filter.partnerId === partnerId;

/**
 * "partner_id:id" as publish.ts sends it; null for anything else: a partner id is digits, so the
 * channel's other messages ("deliveries-due:<partner>", for the delivery worker) are passed over.
 */
function parseNotification(payload: string): { partnerId: string; id: string } | null {
  const colon = payload.indexOf(':');
  if (colon <= 0 || colon === payload.length - 1) return null;
  const partnerId = payload.slice(0, colon);
  if (!/^\d+$/.test(partnerId)) return null;
  return { partnerId, id: payload.slice(colon + 1) };
}

async function readEvent(db: Db, partnerId: string, id: string): Promise<EventRow | undefined> {
  return db('events')
    .where({ partner_id: partnerId, id })
    .first('partner_id', 'id', 'sequence', 'type', 'occurred_at', 'data') as Promise<EventRow | undefined>;
}

export function createEventFeed(db: Db, logger: Logger, hooks: FeedHooks = {}): EventFeed {
  const subscribers = new Set<FeedSubscriber>();
  let listening: Promise<ChannelListener> | null = null;
  let closed = false;
  // Reads run one after another, so subscribers get events in the order the notifications came.
  let delivering: Promise<void> = Promise.resolve();

  const interruptAll = (reason: string) => {
    for (const subscriber of [...subscribers]) subscriber.interrupted(reason);
    subscribers.clear();
  };

  const fanOut = async (payload: string) => {
    if (payload.startsWith(REVOKED_KEY_PREFIX)) {
      hooks.keyRevoked?.(payload.slice(REVOKED_KEY_PREFIX.length));
      return;
    }
    const key = parseNotification(payload);
    if (!key) return;
    // Nobody here hears this partner: no read at all (the cost of an event with no live subscriber).
    if (![...subscribers].some((subscriber) => matchesPartner(subscriber.filter, key.partnerId))) return;
    const event = await readEvent(db, key.partnerId, key.id);
    if (!event) return;
    for (const subscriber of subscribers) {
      const { filter } = subscriber;
      if (matchesPartner(filter, event.partner_id) && (filter.types === null || filter.types.has(event.type))) {
        subscriber.deliver(event);
      }
    }
  };

  const onPayload = (payload: string) => {
    delivering = delivering
      .then(() => fanOut(payload))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'reading a notified event failed: subscribers interrupted');
        interruptAll('an event could not be read');
      });
  };

  const onLost = (error: Error) => {
    logger.warn({ err: error }, 'the event feed lost its listening connection: subscribers interrupted');
    listening = null;
    interruptAll('the live event feed was interrupted');
    hooks.lost?.('the live event feed was interrupted');
  };

  const listen = (): Promise<ChannelListener> => {
    if (!listening) {
      listening = listenToChannel(db, EVENTS_CHANNEL, { onPayload, onLost });
      listening.catch(() => {
        listening = null;
      });
    }
    return listening;
  };

  return {
    listen: async () => {
      if (closed) throw new Error('the event feed is closed');
      await listen();
    },
    subscribe: async (subscriber) => {
      if (closed) throw new Error('the event feed is closed');
      await listen();
      subscribers.add(subscriber);
      return () => {
        subscribers.delete(subscriber);
      };
    },
    size: () => subscribers.size,
    close: async () => {
      closed = true;
      interruptAll('the service is shutting down');
      const listener = listening;
      listening = null;
      if (listener) await (await listener.catch(() => null))?.close();
    },
  };
}
