// LISTEN on a Postgres channel: one dedicated connection outside the pool (a pooled connection goes
// back to the pool and would stop hearing), on the direct URL when the pool goes through a pooler (a
// transaction pooler would lend the LISTEN's server connection to others and forget it: decisions.md
// 30), or the embedded PGlite instance's own listen API, where notifications reach this process only,
// which is all there is.
import pg from 'pg';
import type { Db } from './knex.js';
import { directSessionConnection, isEmbedded } from './knex.js';

export interface ChannelListener {
  /** Stops listening and closes the dedicated connection. */
  close: () => Promise<void>;
}

interface ListenOptions {
  /** Each notification's payload, in the order the server sent them. */
  onPayload: (payload: string) => void;
  /** The connection was lost: notifications sent meanwhile are not heard. Not called after close(). */
  onLost: (error: Error) => void;
}

interface PgLiteHandle {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/** The PGlite instance behind an embedded Db (knex-pglite takes it through a connection function). */
function pgliteOf(db: Db): PgLiteHandle {
  const connection = db.client.config.connection as () => { pglite: PgLiteHandle };
  return connection().pglite;
}

/**
 * One more connection, never handed to the pool: on the direct URL when the pool goes through a pooler;
 * otherwise opened as the pool opens its own (with a failover list, on the host that takes writes, where
 * NOTIFY is sent).
 */
async function openDedicatedConnection(db: Db): Promise<pg.Client> {
  const direct = directSessionConnection(db);
  if (direct === undefined) {
    return (db.client as { acquireRawConnection(): Promise<pg.Client> }).acquireRawConnection();
  }
  const client = new pg.Client(direct);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  return client;
}

/** Starts listening on `channel`; resolves once LISTEN has taken effect, so nothing committed after is missed. */
export async function listenToChannel(db: Db, channel: string, options: ListenOptions): Promise<ChannelListener> {
  if (isEmbedded(db)) {
    const unlisten = await pgliteOf(db).listen(channel, options.onPayload);
    return { close: () => unlisten() };
  }
  const client = await openDedicatedConnection(db);
  let listening = false;
  let closing = false;
  const lost = (error: Error) => {
    if (closing || !listening) return;
    closing = true;
    client.end().catch(() => undefined);
    options.onLost(error);
  };
  client.on('notification', (message) => {
    if (message.channel === channel && message.payload !== undefined) options.onPayload(message.payload);
  });
  client.on('error', lost);
  client.on('end', () => lost(new Error('the listening connection ended')));
  try {
    await client.query(`listen ${client.escapeIdentifier(channel)}`);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  listening = true;
  return {
    close: async () => {
      if (closing) return;
      closing = true;
      await client.end();
    },
  };
}
