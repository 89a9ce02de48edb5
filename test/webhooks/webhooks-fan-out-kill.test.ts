// The webhook fan-out survives a SIGKILLed worker (Postgres only: the worker runs as its own process).
// A worker is caught in the middle of a fan-out batch (its transaction open, the relay's advisory lock
// held, its statement waiting on a lock this test holds on the deliveries), killed, and another started:
// every event reaches every subscribed endpoint exactly once (by webhook-id), in event order per
// endpoint, at a real HTTP receiver; an endpoint of another format hears nothing of these events.
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { appendEvents } from '../../src/modules/events/queries.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startServiceProcess } from '../support/serviceProcess.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

/** A worker: one post at a time per endpoint (so arrival order is the queue's), small fan-out batches. */
const WORKER = {
  LOG_LEVEL: 'warn',
  WEBHOOK_RETRY_SCHEDULE_MS: '50',
  WEBHOOK_POLL_MS: '50',
  WEBHOOK_LEASE_MS: '1000',
  WEBHOOK_MAX_PER_ENDPOINT: '1',
  WEBHOOK_FAN_OUT_BATCH: '100',
};
const EVENTS = 300;
const PATHS = ['/a', '/b', '/c'];

const until = async (condition: () => Promise<boolean> | boolean) => {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
};
const count = async (db: Db, sql: string) => Number(((await db.raw(sql)) as { rows: [{ n: string }] }).rows[0].n);

describe.skipIf(!onPostgres)('the webhook fan-out through a killed worker (Postgres)', () => {
  it('a worker SIGKILLed mid-batch loses and doubles nothing: every event reaches every endpoint once, in order', async () => {
    const database: TestDatabase = await createTestDatabase();
    cleanups.push(() => database.destroy());
    const db = database.db;
    const receiver: Receiver = await startReceiver({ payloads: 'stand-ins' });
    cleanups.push(() => receiver.close());
    const partnerId = String((await db('partners').where({ name: 'Demo Retail' }).first()).id);
    const endpoint = (path: string, format: string) => ({
      partner_id: partnerId,
      url: receiver.url(path),
      event_types: ['payment.recorded'],
      format,
      secret: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ=',
    });
    await db('webhook_endpoints').insert([
      ...PATHS.map((path) => endpoint(path, 'standard')),
      endpoint('/payjoy', 'payjoy_v1'),
    ]);
    // Committed before any worker runs, in three transactions.
    const written: string[] = [];
    for (let part = 0; part < 3; part++) {
      const rows = await db.transaction((trx) =>
        appendEvents(
          trx,
          partnerId,
          Array.from({ length: EVENTS / 3 }, (_, n) => ({
            type: 'payment.recorded' as const,
            occurredAt: new Date(),
            data: { n: part * (EVENTS / 3) + n },
          })),
        ),
      );
      written.push(...rows.map((row) => row.id));
    }

    // The test holds the deliveries: the worker's fan-out statement waits inside its open batch.
    const holder = await db.transaction();
    await holder.raw('lock table webhook_deliveries in share mode');
    const first = await startServiceProcess(database.url!, cleanups, WORKER, ['--role', 'worker']);
    await until(
      async () =>
        (await count(
          db,
          `select count(*) as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where a.datname = current_database() and l.locktype = 'advisory' and l.granted`,
        )) === 1 &&
        (await count(
          db,
          `select count(*) as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where a.datname = current_database() and l.relation = 'webhook_deliveries'::regclass and not l.granted
              and a.query like 'with batch as%'`,
        )) >= 1,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await holder.rollback();
    // Its batch died with it: the relay's lock let go, nothing fanned out, nothing delivered.
    await until(
      async () =>
        (await count(
          db,
          `select count(*) as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
            where a.datname = current_database() and l.locktype = 'advisory'`,
        )) === 0,
    );
    expect(await count(db, 'select count(*) as n from events where fanned_out')).toBe(0);
    expect(await count(db, 'select count(*) as n from webhook_deliveries')).toBe(0);
    expect(receiver.received).toHaveLength(0);

    await startServiceProcess(database.url!, cleanups, WORKER, ['--role', 'worker']);
    await until(
      async () =>
        (await count(db, "select count(*) as n from webhook_deliveries where status = 'delivered'")) ===
        EVENTS * PATHS.length,
    );
    expect(await count(db, 'select count(*) as n from events where not fanned_out')).toBe(0);
    for (const path of PATHS) {
      const ids = receiver.received
        .filter((request) => request.path === path)
        .map((request) => request.headers['webhook-id']);
      // Once each (a second post would repeat its webhook-id), in the order the events were written.
      expect(ids).toEqual(written);
    }
    expect(receiver.received.filter((request) => request.path === '/payjoy')).toHaveLength(0);
    expect(await count(db, 'select count(*) as n from webhook_deliveries')).toBe(EVENTS * PATHS.length);
  });
});
