// A database on which an in-store payment loses its unlocked rounds, as it does under contention: the
// first `lost` conditional writes sent on it (outside a transaction) find the order's total moved, so
// they write nothing and the payment reads and decides again, and past src/modules/payments/inStore.ts's
// OPTIMISTIC_ROUNDS it locks the order. Such a write is not sent: it answers no row, exactly what
// Postgres answers when the total has moved. `meanwhile` runs right after each lost write, for what
// another request did between the payment's read and its write (another payment with its key). Every
// other statement, and everything in a transaction (the locked round), runs on `db` itself.
import type { Db } from '../../src/db/knex.js';

/** The statement that loses: the conditional write of a payment (queries.ts creditSql). */
const CONDITIONAL_WRITE = /^with credited/;

interface ClientInternals {
  query(connection: unknown, query: { sql: string }): Promise<unknown>;
}

export function contendedDb(db: Db, options: { lost: number; meanwhile?: () => Promise<unknown> }): Db {
  let lost = options.lost;
  let meanwhile: (() => Promise<unknown>) | undefined;
  const real = db.client as unknown as ClientInternals & Record<string, (...args: unknown[]) => unknown>;
  const client = Object.create(real) as ClientInternals & Record<string, unknown>;
  for (const method of ['acquireConnection', 'emit']) client[method] = (...args: unknown[]) => real[method]!(...args);
  client.query = async (connection, query) => {
    if (lost > 0 && CONDITIONAL_WRITE.test(query.sql)) {
      lost--;
      meanwhile = options.meanwhile;
      return { response: { rows: [] } };
    }
    return real.query(connection, query);
  };
  // Once the lost write's connection is back (PGlite has one), before the payment goes on.
  client.releaseConnection = async (connection: unknown) => {
    await real.releaseConnection!(connection);
    const next = meanwhile;
    meanwhile = undefined;
    await next?.();
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'client') return client;
      // A transaction (the locked round) runs on the database's own client: nothing of it is lost.
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
