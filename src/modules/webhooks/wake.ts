// What wakes the delivery worker: the event log's notifications (publish.ts sends "partner_id:id"
// after an event's commit, and its deliveries are written in the event's own transaction, so they are
// committed when it is heard), and "deliveries-due:<partner>" for deliveries no event announces (a
// redelivery, a test). A lost listening connection is listened again after a second, and the worker
// is woken once it is (what was sent meanwhile was not heard); the worker's poll covers the gap.
import type { Logger } from 'pino';
import type { Db } from '../../db/knex.js';
import { type ChannelListener, listenToChannel } from '../../db/notifications.js';
import { DELIVERIES_DUE_PREFIX, EVENTS_CHANNEL, REVOKED_KEY_PREFIX } from '../events/publish.js';

const RELISTEN_DELAY_MS = 1000;

interface EventWaker {
  close(): Promise<void>;
}

/**
 * Calls `woken(partnerId)` for each event notified and each partner's deliveries said due, and
 * `woken(null)` once listening (again): the worker looks for anything due, of any partner.
 */
export function wakeOnEvents(db: Db, logger: Logger, woken: (partnerId: string | null) => void): EventWaker {
  let closed = false;
  let listener: ChannelListener | null = null;
  let retry: NodeJS.Timeout | undefined;

  const onPayload = (payload: string) => {
    if (payload.startsWith(REVOKED_KEY_PREFIX)) return;
    if (payload.startsWith(DELIVERIES_DUE_PREFIX)) return woken(payload.slice(DELIVERIES_DUE_PREFIX.length));
    const colon = payload.indexOf(':');
    if (colon > 0) woken(payload.slice(0, colon));
  };
  const onLost = (error: Error) => {
    listener = null;
    if (closed) return;
    logger.warn({ err: error }, 'the webhook worker lost its listening connection: polling until it listens again');
    listenLater();
  };
  const listen = async () => {
    retry = undefined;
    if (closed) return;
    try {
      const opened = await listenToChannel(db, EVENTS_CHANNEL, { onPayload, onLost });
      if (closed) return void (await opened.close());
      listener = opened;
      woken(null);
    } catch (error) {
      if (closed) return;
      logger.warn({ err: error }, 'the webhook worker could not listen to the event log: polling, trying again');
      listenLater();
    }
  };
  function listenLater() {
    retry = setTimeout(() => void listen(), RELISTEN_DELAY_MS);
    retry.unref();
  }

  void listen();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = listener;
      listener = null;
      await open?.close().catch(() => undefined);
    },
  };
}
