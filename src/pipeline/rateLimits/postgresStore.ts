// The counts in the service's Postgres database (the rate_limits table, in our own SQL:
// postgresCounts.ts), shared by every instance on it. An API key's accounting rides on the key's own
// lookup (lookUpAdmitting): one statement finds the key, reads its address's block and counts it.
import type { Knex } from 'knex';
import type { Db } from '../../db/knex.js';
import { runShaped, type ShapedStatement } from '../../db/prepared.js';
import { PostgresCounts, type PostgresLimit } from './postgresCounts.js';
import {
  type CounterOptions,
  type LookupAnswer,
  memoryCounter,
  oncePerLimit,
  type RateLimitStore,
} from './rateLimitStore.js';
import { type GuardedCounter, guardedCounter, insuranceAdmission, StoreGuard, type StoreWatch } from './storeGuard.js';

/** A limit as the Postgres store counts it. */
const postgresLimit = (options: CounterOptions): PostgresLimit => ({
  name: options.name,
  limit: options.limit.limit,
  windowMs: options.limit.windowSeconds * 1000,
  blockMs: options.blockOnRefusal ? options.limit.windowSeconds * 1000 : 0,
});

/** The store in `db`'s rate_limits table; its sweep of ended windows stops with the store. */
export function postgresRateLimitStore(db: Db, watch: StoreWatch): RateLimitStore {
  const counts = new PostgresCounts(db);
  const guard = new StoreGuard('postgres', watch.logger, watch.observer);
  // Each limit's settings as this store counts them, made once: a key's admission asks for two per request.
  const limitOf = oncePerLimit(postgresLimit);
  const counter = oncePerLimit(
    (options): GuardedCounter => guardedCounter(guard, counts.counter(limitOf(options)), memoryCounter(options)),
  );
  // While the store fails: the insurance counters', a look then a count.
  const admitByInsurance = insuranceAdmission(counter);
  const stopSweeping = counts.startSweeping();

  return {
    counter,
    admitKey: (failures, addressKey, requests, keyId) =>
      guard.run(
        () => counts.admitKey(limitOf(failures), addressKey, limitOf(requests), keyId),
        () => admitByInsurance(failures, addressKey, requests, keyId),
      ),
    async lookUpAdmitting<Row extends { id: string }>(
      lookupDb: Knex,
      lookup: ShapedStatement,
      failures: CounterOptions,
      addressKey: string | null,
      requests: CounterOptions,
    ): Promise<LookupAnswer<Row>> {
      const started = performance.now();
      let found: LookupAnswer<Row>;
      try {
        found = await counts.lookUpAdmitting<Row>(lookupDb, lookup, limitOf(failures), addressKey, limitOf(requests));
      } catch (error) {
        // The lookup alone tells which part failed: if it fails too, the database (or the keys'
        // table) did, and its error is the request's; if not, the store did: insurance decides.
        const [row] = await runShaped<Row>(lookupDb, lookup);
        guard.fellBack(error);
        const admission = row ? await admitByInsurance(failures, addressKey, requests, row.id) : null;
        return { row, admission };
      }
      guard.answered(started);
      return found;
    },
    status: () => guard.status(),
    close: stopSweeping,
  };
}
