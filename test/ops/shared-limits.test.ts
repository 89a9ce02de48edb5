// Request limits shared by every instance (docs/operating.md#limits): several apps over one database
// count one key's requests and one address's failed authentications together, in Postgres or in
// Redis (REDIS_URL); when the store fails each keeps serving on its in-memory insurance limiter
// (logged once, counted in the metrics, said by /readyz) and goes back to the store when it answers.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis, type RedisOptions } from 'ioredis';
import { type Logger, pino } from 'pino';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type LimitSettings, REDIS_RESERVE } from '../../src/kernel/limitSettings.js';
import {
  type CounterOptions,
  libraryCounter,
  libraryOptions,
  type RateLimitStore,
  storeOfCounters,
} from '../../src/pipeline/rateLimits/rateLimitStore.js';
import { openRedisRateLimitStore } from '../../src/pipeline/rateLimits/redisStore.js';
import type { RateLimitStoreSettings } from '../../src/serviceLayers.js';
import { createTestDatabase, onPostgres, type TestDatabase } from '../support/db.js';
import { inParallel } from '../support/parallel.js';
import { startTestService, TEST_LIMITS, type TestService } from '../support/service.js';

// The service's Redis client gives up on a command after 500 ms and counts alone (insurance) until
// Redis answers again: right in production, but this process answers dozens of requests at once for
// three instances, and on a busy machine it can take longer than that to read an answer Redis gave in
// time; an instance that failed over then counts past the shared limit (125 of 1,000 where 100 pass).
// Here the client waits as long as a test may: the count is Redis's, and the failure test below stops
// Redis itself (a closed connection fails a command at once, however patient the client).
// Each client made is kept (redisClients), so a test can watch the store's own connection.
const redisClients = vi.hoisted(() => [] as Array<import('ioredis').Redis>);
vi.mock('ioredis', async (importOriginal) => {
  const ioredis = await importOriginal<typeof import('ioredis')>();
  /** Called with `new` as the service does: a constructor that returns an object gives that object. */
  function PatientRedis(url: string, options: RedisOptions = {}) {
    const patient = options.commandTimeout ? { ...options, commandTimeout: 60_000, connectTimeout: 60_000 } : options;
    const client = new ioredis.Redis(url, patient);
    redisClients.push(client);
    return client;
  }
  return { ...ioredis, Redis: PatientRedis, default: PatientRedis };
});

const REDIS_URL = 'redis://127.0.0.1:6379';
/** This run's Redis keys: runs (and describes) never count into each other's. */
const RUN_PREFIX = `dfs-test-${process.pid}-${randomBytes(4).toString('hex')}`;

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 10_000, // a refused connection answers at once; this only bounds a Redis that hangs
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

const redisUp = await redisAnswers(REDIS_URL);
if (!redisUp) console.warn(`[shared limits] Redis does not answer at ${REDIS_URL}: the Redis tests are skipped`);
const redisServerInstalled = spawnSync('redis-server', ['--version']).status === 0;
if (!redisServerInstalled) console.warn('[shared limits] no redis-server binary: the Redis failure test is skipped');
if (!onPostgres)
  console.warn('[shared limits] PGlite: the Postgres-store tests need TEST_DATABASE_URL and are skipped');

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.destroy();
});

const readClerks = async (service: TestService, key: string, headers: Record<string, string> = {}) => {
  const response = await service.request(`/v1/list-clerks.php?key=${encodeURIComponent(key)}`, { headers });
  await response.arrayBuffer();
  return response.status;
};

const readiness = async (service: TestService) => {
  const response = await service.request('/readyz');
  return { status: response.status, body: (await response.json()) as { rateLimitStore?: string } };
};

/** A metric's value summed over the label sets whose text contains `labels`. */
async function metric(service: TestService, name: string, labels: string): Promise<number> {
  const text = await (await service.request('/metrics')).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

interface Captured {
  lines: Array<Record<string, unknown>>;
  messages: (msg: string) => Array<Record<string, unknown>>;
}

function captureLogs(): Captured & { logger: Logger } {
  const lines: Array<Record<string, unknown>> = [];
  const logger: Logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { lines, logger, messages: (msg) => lines.filter((line) => line.msg === msg) };
}

const FAILED_OVER =
  'rate-limit store failed: request limits are counted by this instance alone (insurance) until it answers';
const RECOVERED = 'rate-limit store answers again: request limits are shared again';
const BLOCKED = 'client address blocked after too many failed authentications';

const sharedLimits = (requests: number, failures: number): LimitSettings => ({
  ...TEST_LIMITS,
  // A long window: the whole test runs inside one.
  requestsPerKey: { limit: requests, windowSeconds: 3600 },
  authFailuresPerAddress: { limit: failures, windowSeconds: 300 },
});

async function startInstances(
  count: number,
  options: { limits: LimitSettings; store?: RateLimitStoreSettings; logger?: Logger },
): Promise<TestService[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      startTestService(database.db, {
        limits: options.limits,
        rateLimitStore: options.store,
        logger: options.logger,
        // TRUST_PROXY=loopback: the test client plays a proxy reporting client addresses.
        trustProxy: ['loopback'],
      }),
    ),
  );
}

/**
 * The checks every shared store must pass, through three instances. `reserve`: the places of a key's
 * count an instance's admission reserves (decisions.md 53: Redis's default; 1 where nothing is reserved).
 */
function sharedStoreSuite(
  store: () => RateLimitStoreSettings | undefined,
  storeName: 'postgres' | 'redis',
  reserve: number,
) {
  const LIMIT = 100;
  const FAILURES = 6;
  const logs = captureLogs();
  let instances: TestService[];
  beforeAll(async () => {
    instances = await startInstances(3, { limits: sharedLimits(LIMIT, FAILURES), store: store(), logger: logs.logger });
    // An instance waits 2 s for Redis at start and connects in the background after: the counting
    // starts once every instance counts in the shared store.
    for (const instance of instances) {
      await vi.waitFor(async () => expect((await readiness(instance)).body.rateLimitStore).toMatch(/^shared /), {
        timeout: 60_000,
        interval: 100,
      });
    }
  });
  afterAll(async () => {
    await Promise.all(instances?.map((instance) => instance.close()) ?? []);
  });

  it(`says so on /readyz: shared (${storeName})`, async () => {
    for (const instance of instances) {
      expect(await readiness(instance)).toMatchObject({
        status: 200,
        body: { rateLimitStore: `shared (${storeName})` },
      });
    }
  });

  it(`lets exactly ${LIMIT} of 1,000 requests of one key through three instances: over the limit by 0`, async () => {
    const statuses = await inParallel(1000, 30, (i) => readClerks(instances[i % 3]!, 'demo-partner-key'));
    expect(statuses.filter((status) => status === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(1000 - LIMIT);
    // Every instance refuses the key now, and serves another.
    for (const instance of instances) {
      expect(await readClerks(instance, 'demo-partner-key')).toBe(429);
      expect(await readClerks(instance, 'other-partner-key')).toBe(200);
    }
  });

  it("writes the RateLimit headers from the shared count: each request's own place in it", async () => {
    const started = performance.now();
    const first = await instances[0]!.request('/v1/list-clerks.php?key=demo-retail-key');
    const second = await instances[1]!.request('/v1/list-clerks.php?key=demo-retail-key');
    const third = await instances[0]!.request('/v1/list-clerks.php?key=demo-retail-key');
    // The window's seconds left run in real time (Redis's expiry): by as many as the requests took.
    const took = Math.ceil((performance.now() - started) / 1000);
    const secondsLeft = (header: string | null) => Number(/;t=(\d+)$/.exec(header ?? '')?.[1]);
    // The first instance's admission counted places 1 to `reserve`, and the request took the first;
    // the second instance's came after them; the third request took the first instance's next
    // place, or, with nothing reserved, the next in the count.
    const places = [1, reserve + 1, reserve > 1 ? 2 : 3];
    for (const [i, answer] of [first, second, third].entries()) {
      expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"default";r=${LIMIT - places[i]!};t=\\d+$`));
    }
    for (const answer of [first, second, third]) {
      expect(secondsLeft(answer.headers.get('ratelimit'))).toBeGreaterThanOrEqual(3600 - took - 1);
      expect(secondsLeft(answer.headers.get('ratelimit'))).toBeLessThanOrEqual(3600);
    }
  });

  it(`counts failed authentications from one address on every instance: blocked everywhere after ${FAILURES}`, async () => {
    const from = { 'x-forwarded-for': '203.0.113.50' };
    for (let i = 0; i < FAILURES; i++) expect(await readClerks(instances[i % 3]!, `guess-${i}`, from)).toBe(401);
    for (const instance of instances) expect(await readClerks(instance, 'demo-operator-key', from)).toBe(429);
    // Logged once, by the instance whose failure reached the limit.
    expect(logs.messages(BLOCKED)).toEqual([expect.objectContaining({ clientAddress: '203.0.113.50' })]);
    expect(await readClerks(instances[0]!, 'other-retail-key', { 'x-forwarded-for': '203.0.113.51' })).toBe(200);
  });

  it("refuses a valid key from a blocked address without counting it against the key's limit", async () => {
    const blocked = { 'x-forwarded-for': '203.0.113.50' };
    const elsewhere = { 'x-forwarded-for': '203.0.113.51' };
    const remaining = async (headers: Record<string, string>) => {
      const response = await instances[1]!.request('/v1/list-clerks.php?key=demo-retail-key', { headers });
      return { status: response.status, header: response.headers.get('ratelimit') };
    };
    const before = await remaining(elsewhere);
    for (let i = 0; i < 3; i++) expect((await remaining(blocked)).status).toBe(429);
    const after = await remaining(elsewhere);
    const left = (header: string | null) => Number(/;r=(\d+);/.exec(header ?? '')?.[1]);
    expect(before.status).toBe(200);
    expect(after.status).toBe(200);
    expect(left(after.header)).toBe(left(before.header) - 1);
  });
}

describe.skipIf(!onPostgres)('limits shared through Postgres (the rate_limits table)', () => {
  beforeAll(async () => {
    await database.db('rate_limits').delete();
  });
  sharedStoreSuite(() => undefined, 'postgres', 1);

  it('keeps its counts in the rate_limits table, an unlogged one (no WAL flush per count)', async () => {
    const rows: Array<{ key: string }> = await database.db('rate_limits').select('key');
    expect(rows.map((row) => row.key.split(':')[0])).toEqual(expect.arrayContaining(['key', 'authfail']));
    const table = await database.db('pg_class').where({ relname: 'rate_limits' }).first('relpersistence');
    expect(table.relpersistence).toBe('u');
  });
});

describe.skipIf(!redisUp)('limits shared through Redis (REDIS_URL)', () => {
  const prefix = `${RUN_PREFIX}:shared`;
  afterAll(async () => {
    const client = new Redis(REDIS_URL);
    const keys = await client.keys(`${prefix}:*`);
    if (keys.length) await client.del(...keys);
    client.disconnect();
  });
  sharedStoreSuite(() => ({ redisUrl: REDIS_URL, redisKeyPrefix: prefix }), 'redis', REDIS_RESERVE);
});

/**
 * Redis stores a describe's tests open (`reserve` places an admission reserves), each closed after it,
 * and a client of the test's own on the same Redis; every key under `prefix` deleted at the end.
 */
function redisStoresUnder(prefix: string, reserve = 1) {
  const quiet = { logger: pino({ level: 'silent' }) };
  const stores: RateLimitStore[] = [];
  let client: Redis | undefined;
  beforeAll(() => {
    client = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    for (const store of stores) store.close();
    const keys = await client!.keys(`${prefix}:*`);
    if (keys.length) await client!.del(...keys);
    client!.disconnect();
  });
  return {
    client: () => client!,
    openStore: async (keyPrefix: string) => {
      const store = await openRedisRateLimitStore(REDIS_URL, keyPrefix, quiet, reserve);
      stores.push(store);
      return store;
    },
  };
}

describe.skipIf(!redisUp)("a key's admission in Redis: one script, the library's counts", () => {
  const prefix = `${RUN_PREFIX}:admission`;
  const WINDOW_MS = 3_600_000;
  const FAILURES_WINDOW_MS = 300_000;
  const requests: CounterOptions = {
    name: 'key',
    limit: { limit: 3, windowSeconds: WINDOW_MS / 1000 },
    blockOnRefusal: true,
  };
  const failures: CounterOptions = {
    name: 'authfail',
    limit: { limit: 2, windowSeconds: FAILURES_WINDOW_MS / 1000 },
    blockOnRefusal: false,
  };
  const redis = redisStoresUnder(prefix);
  const { openStore } = redis;
  /** The Redis store as it was: the library's look at the address, then its count of the key (two round trips). */
  const libraryStore = (keyPrefix: string) =>
    storeOfCounters(
      (options) =>
        libraryCounter(
          new RateLimiterRedis({
            ...libraryOptions(options),
            keyPrefix: `${keyPrefix}:${options.name}`,
            storeClient: redis.client(),
          }),
        ),
      () => 'library',
    );

  it("answers what the library's look and count answer, key for key, and leaves the library's values and expiries", async () => {
    const started = performance.now();
    const script = await openStore(`${prefix}:script`);
    const library = libraryStore(`${prefix}:library`);
    /** The ms an answer may have left of a `windowMs` begun since the test started: real time runs in Redis. */
    const withinWindow = (windowMs: number) => {
      const elapsed = Math.ceil(performance.now() - started) + 1;
      return expect.toSatisfy((ms: number) => ms > windowMs - elapsed && ms <= windowMs);
    };
    /** One admission through both, the same answer but for the ms run since (checked against `windowMs`). */
    const admitBoth = async (address: string | null, keyId: string, windowMs: number) => {
      const answers = [
        await library.admitKey(failures, address, requests, keyId),
        await script.admitKey(failures, address, requests, keyId),
      ];
      const [fromLibrary, fromScript] = answers.map((answer) =>
        answer.blocked
          ? { blocked: true }
          : { blocked: false, consumed: answer.count.consumed, allowed: answer.count.allowed },
      );
      expect(fromScript).toEqual(fromLibrary);
      for (const answer of answers) {
        expect(answer.blocked ? answer.msBeforeNext : answer.count.msBeforeNext).toEqual(withinWindow(windowMs));
      }
      return fromScript;
    };
    /** A key's value and expiry under both prefixes: the same value, each expiry within `windowMs`. */
    const expectStoredAlike = async (limit: string, key: string, windowMs: number | null) => {
      const stored = await Promise.all(
        ['library', 'script'].map(async (side) => {
          const redisKey = `${prefix}:${side}:${limit}:${key}`;
          return { value: await redis.client().get(redisKey), ms: await redis.client().pttl(redisKey) };
        }),
      );
      expect(stored[1]!.value).toBe(stored[0]!.value);
      for (const { ms } of stored) expect(ms).toEqual(windowMs === null ? -2 : withinWindow(windowMs));
      return stored[1]!.value;
    };
    /** Ends a key's window under both prefixes, as its expiry would. */
    const endWindow = async (limit: string, key: string) => {
      for (const side of ['library', 'script']) await redis.client().pexpire(`${prefix}:${side}:${limit}:${key}`, 1);
      await vi.waitFor(
        async () =>
          expect(
            await redis.client().exists(...['library', 'script'].map((side) => `${prefix}:${side}:${limit}:${key}`)),
          ).toBe(0),
        { timeout: 10_000, interval: 5 },
      );
    };

    // Below and at the limit, then past it in the window's last minute: the first refusal blocks the
    // key for a whole window from then (its value the limit + 1), the next are refused till it ends.
    for (let i = 1; i <= 3; i++) {
      expect(await admitBoth('198.51.100.1', 'k1', WINDOW_MS)).toEqual({ blocked: false, consumed: i, allowed: true });
    }
    for (const side of ['library', 'script']) await redis.client().pexpire(`${prefix}:${side}:key:k1`, 60_000);
    const firstRefusals = [
      await library.admitKey(failures, '198.51.100.1', requests, 'k1'),
      await script.admitKey(failures, '198.51.100.1', requests, 'k1'),
    ];
    for (const refusal of firstRefusals) {
      expect(refusal).toEqual({ blocked: false, count: { consumed: 4, msBeforeNext: WINDOW_MS, allowed: false } });
    }
    expect(await expectStoredAlike('key', 'k1', WINDOW_MS)).toBe('4');
    expect(await admitBoth('198.51.100.1', 'k1', WINDOW_MS)).toEqual({ blocked: false, consumed: 5, allowed: false });
    expect(await expectStoredAlike('key', 'k1', WINDOW_MS)).toBe('5');
    // A window that ended: a new one from the next request.
    await endWindow('key', 'k1');
    expect(await admitBoth(null, 'k1', WINDOW_MS)).toEqual({ blocked: false, consumed: 1, allowed: true });
    expect(await expectStoredAlike('key', 'k1', WINDOW_MS)).toBe('1');

    // An address at its failures limit (counted by the library, as recordAuthFailure counts them):
    // refused with the ms its window has left, and nothing of the key's counted.
    for (const side of [library, script]) {
      await side.counter(failures).add('198.51.100.9');
      expect((await side.admitKey(failures, '198.51.100.9', requests, 'k2')).blocked).toBe(false);
      await side.counter(failures).add('198.51.100.9');
    }
    for (let i = 0; i < 3; i++) {
      expect(await admitBoth('198.51.100.9', 'k1', FAILURES_WINDOW_MS)).toEqual({ blocked: true });
      expect(await admitBoth('198.51.100.9', 'k3', FAILURES_WINDOW_MS)).toEqual({ blocked: true });
    }
    expect(await expectStoredAlike('key', 'k1', WINDOW_MS)).toBe('1');
    expect(await expectStoredAlike('key', 'k3', null)).toBeNull();
    expect(await expectStoredAlike('authfail', '198.51.100.9', FAILURES_WINDOW_MS)).toBe('2');
    // Its failures' window ended: the address is counted again.
    await endWindow('authfail', '198.51.100.9');
    expect(await admitBoth('198.51.100.9', 'k3', WINDOW_MS)).toEqual({ blocked: false, consumed: 1, allowed: true });
  });

  it("agrees with the library's counters on the same keys: each counts on from the other's count", async () => {
    const store = await openStore(`${prefix}:shared`);
    const keyCount = store.counter(requests);
    await keyCount.consume('k1');
    const admitted = await store.admitKey(failures, '198.51.100.20', requests, 'k1');
    expect(admitted).toMatchObject({ blocked: false, count: { consumed: 2, allowed: true } });
    expect(await keyCount.peek('k1')).toMatchObject({ consumed: 2 });
    expect(await keyCount.consume('k1')).toMatchObject({ consumed: 3, allowed: true });
    expect(await store.admitKey(failures, null, requests, 'k1')).toMatchObject({
      count: { consumed: 4, allowed: false },
    });
    expect(await keyCount.consume('k1')).toMatchObject({ consumed: 5, allowed: false });
    // The address's failures, counted by the library (recordAuthFailure), block it in the script.
    await store.counter(failures).add('198.51.100.20');
    await store.counter(failures).add('198.51.100.20');
    expect(await store.admitKey(failures, '198.51.100.20', requests, 'k2')).toMatchObject({ blocked: true });
    expect(await keyCount.peek('k2')).toBeNull();
  });

  it('admits exactly 100 of 1,000 admissions of one key sent at once through three stores on one Redis: over the limit by 0', async () => {
    const hundred: CounterOptions = { ...requests, limit: { limit: 100, windowSeconds: 3600 } };
    const three = await Promise.all([1, 2, 3].map(() => openStore(`${prefix}:three`)));
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => three[i % 3]!.admitKey(failures, `198.51.100.${i % 50}`, hundred, 'k1')),
    );
    const allowed = answers.filter((answer) => !answer.blocked && answer.count.allowed).length;
    expect(allowed - 100).toBe(0);
    expect(answers.filter((answer) => !answer.blocked && !answer.count.allowed)).toHaveLength(900);
    // Every admission was counted in Redis, and none by insurance.
    expect(await redis.client().get(`${prefix}:three:key:k1`)).toBe('1000');
    expect(three.map((store) => store.status())).toEqual(Array(3).fill('shared (redis)'));
  });

  it("sends one turn's admissions to Redis in one pipeline: one write on the store's connection", async () => {
    const store = await openStore(`${prefix}:pipeline`);
    const connection = redisClients.at(-1)!;
    await store.admitKey(failures, '198.51.100.30', requests, 'warm-up'); // the script loaded on the connection
    const writes = vi.spyOn(connection.stream, 'write');
    const admissions = Array.from({ length: 50 }, (_, i) =>
      store.admitKey(failures, `198.51.100.${i}`, requests, `k${i % 10}`),
    );
    // All 50 wait in the turn's pipeline, nothing written yet; at the turn's end, one write.
    expect(connection.autoPipelineQueueSize).toBe(50);
    expect(writes).not.toHaveBeenCalled();
    const answers = await Promise.all(admissions);
    expect(writes).toHaveBeenCalledTimes(1);
    writes.mockRestore();
    // Each one Redis's answer: ten keys, five requests each, the limit 3.
    expect(answers.filter((answer) => !answer.blocked && answer.count.allowed)).toHaveLength(30);
    expect(store.status()).toBe('shared (redis)');
  });
});

describe.skipIf(!redisUp)("places of a key's count reserved in Redis for an instance (decisions.md 53)", () => {
  const prefix = `${RUN_PREFIX}:reserve`;
  const hundred: CounterOptions = { name: 'key', limit: { limit: 100, windowSeconds: 3600 }, blockOnRefusal: true };
  const failures: CounterOptions = { name: 'authfail', limit: { limit: 2, windowSeconds: 300 }, blockOnRefusal: false };
  const redis = redisStoresUnder(prefix, REDIS_RESERVE);
  const { openStore } = redis;
  /** One admission's place in the count, or 'refused' / 'blocked'. */
  const placeOf = async (store: RateLimitStore, address: string | null, keyId: string, options = hundred) => {
    const answer = await store.admitKey(failures, address, options, keyId);
    if (answer.blocked) return 'blocked';
    return answer.count.allowed ? answer.count.consumed : 'refused';
  };
  const countInRedis = async (keyPrefix: string, keyId: string) =>
    Number(await redis.client().get(`${keyPrefix}:key:${keyId}`));

  it("answers a key's next requests from one admission in Redis, each at its own place, then asks again", async () => {
    const keyPrefix = `${prefix}:places`;
    const store = await openStore(keyPrefix);
    const places = [];
    const counts = [];
    for (let i = 0; i < REDIS_RESERVE + 1; i++) {
      places.push(await placeOf(store, '198.51.100.1', 'k'));
      counts.push(await countInRedis(keyPrefix, 'k'));
    }
    expect(places).toEqual(Array.from({ length: REDIS_RESERVE + 1 }, (_, i) => i + 1));
    // Counted in Redis in two admissions: the first's reserve, then the next one's.
    expect(counts).toEqual([...Array(REDIS_RESERVE).fill(REDIS_RESERVE), 2 * REDIS_RESERVE]);
  });

  it('admits exactly 100 of 1,000 admissions of one key sent at once through three stores: over the limit by 0', async () => {
    const keyPrefix = `${prefix}:three`;
    const three = await Promise.all([1, 2, 3].map(() => openStore(keyPrefix)));
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => placeOf(three[i % 3]!, '198.51.100.2', 'k')),
    );
    expect(answers.filter((answer) => typeof answer === 'number')).toHaveLength(100);
    expect(new Set(answers.filter((answer) => typeof answer === 'number')).size).toBe(100);
    expect(answers.filter((answer) => answer === 'refused')).toHaveLength(900);
  });

  it('may refuse a key while other stores hold its reserved places: by at most the reserve less one each, which they use after', async () => {
    const keyPrefix = `${prefix}:under`;
    const [holder, second, third] = await Promise.all([1, 2, 3].map(() => openStore(keyPrefix)));
    // The holder's one request reserves places 1 to 10 and uses the first.
    expect(await placeOf(holder!, '198.51.100.3', 'k')).toBe(1);
    const others = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => placeOf(i % 2 ? second! : third!, '198.51.100.3', 'k')),
    );
    const passed = others.filter((answer) => typeof answer === 'number');
    expect(passed).toHaveLength(100 - REDIS_RESERVE);
    expect(Math.min(...(passed as number[]))).toBe(REDIS_RESERVE + 1);
    // The holder's 9 places are still its own: they pass, and then it is refused too. 100 in all.
    const held = [];
    for (let i = 0; i < REDIS_RESERVE; i++) held.push(await placeOf(holder!, '198.51.100.3', 'k'));
    expect(held).toEqual([...Array.from({ length: REDIS_RESERVE - 1 }, (_, i) => i + 2), 'refused']);
  });

  it('spends a reservation only on its own address, and not after the address fails authentication here', async () => {
    const keyPrefix = `${prefix}:address`;
    const store = await openStore(keyPrefix);
    expect(await placeOf(store, '198.51.100.4', 'k')).toBe(1);
    expect(await placeOf(store, '198.51.100.5', 'k')).toBe(REDIS_RESERVE + 1);
    expect(await placeOf(store, '198.51.100.4', 'k')).toBe(2);
    expect(await countInRedis(keyPrefix, 'k')).toBe(2 * REDIS_RESERVE);
    // A failure of .4 counted here ends its reservation; with a failure in its window, each of its
    // requests is counted in Redis alone.
    await store.counter(failures).add('198.51.100.4');
    expect(await placeOf(store, '198.51.100.4', 'k')).toBe(2 * REDIS_RESERVE + 1);
    expect(await placeOf(store, '198.51.100.4', 'k')).toBe(2 * REDIS_RESERVE + 2);
    expect(await countInRedis(keyPrefix, 'k')).toBe(2 * REDIS_RESERVE + 2);
    // The second failure blocks the address, reservation or not; the other address keeps its places.
    await store.counter(failures).add('198.51.100.4');
    expect(await placeOf(store, '198.51.100.4', 'k')).toBe('blocked');
    expect(await placeOf(store, '198.51.100.5', 'k')).toBe(REDIS_RESERVE + 2);
  });

  it('spends no reserved place after the window it was counted in', async () => {
    const keyPrefix = `${prefix}:window`;
    const store = await openStore(keyPrefix);
    const oneSecond: CounterOptions = { ...hundred, limit: { limit: 100, windowSeconds: 1 } };
    expect(await placeOf(store, '198.51.100.6', 'k', oneSecond)).toBe(1);
    // Once Redis has ended the window (however late this test gets to look), the places it held are gone too.
    await vi.waitFor(async () => expect(await redis.client().pttl(`${keyPrefix}:key:k`)).toBe(-2), {
      timeout: 60_000,
      interval: 50,
    });
    expect(await placeOf(store, '198.51.100.6', 'k', oneSecond)).toBe(1);
    expect(await countInRedis(keyPrefix, 'k')).toBe(REDIS_RESERVE);
  });
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (typeof address !== 'object' || !address) throw new Error('no port');
  return address.port;
}

/** A throwaway redis-server of this test's own, nothing kept on disk. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1'],
    {
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 60_000; // bounds a redis-server that never starts, however busy the machine
  while (!(await redisAnswers(`redis://127.0.0.1:${port}`))) {
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return child;
}

async function stopRedisServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** Polls `check` (each poll sends `poke` first) until it holds, or fails after `ms` (a bound for what never comes). */
async function eventually(poke: () => Promise<unknown>, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    await poke();
    if (await check()) return;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!redisServerInstalled)('when the Redis store fails mid-test', () => {
  const LIMIT = 20;
  const logs = captureLogs();
  let port: number;
  let redis: ChildProcess | undefined;
  let instances: TestService[];
  beforeAll(async () => {
    port = await freePort();
    redis = await startRedisServer(port);
    instances = await startInstances(2, {
      limits: sharedLimits(LIMIT, 1_000_000),
      store: { redisUrl: `redis://127.0.0.1:${port}`, redisKeyPrefix: `${RUN_PREFIX}:failing` },
      logger: logs.logger,
    });
  });
  afterAll(async () => {
    await Promise.all(instances?.map((instance) => instance.close()) ?? []);
    await stopRedisServer(redis);
  });

  it('keeps answering on the insurance limiter, refuses nothing the shared limit would have passed, logs once per instance, counts it and says so; shares again when Redis is back', async () => {
    const key = 'demo-partner-key';
    // The metrics are the test process's, every instance's together (those of the describes before too).
    const failoversBefore = await metric(instances[0]!, 'rate_limit_store_failovers_total', 'store="redis"');
    const onInsuranceBefore = await metric(instances[0]!, 'rate_limit_store_on_insurance', 'store="redis"');
    const decisionsBefore = await metric(instances[0]!, 'rate_limit_insurance_decisions_total', 'store="redis"');
    // Shared: 6 of the key's 20 requests, through both instances. Each instance's first admission
    // reserved half the limit for it (decisions.md 53: places 1 to 10, then 11 to 20), 3 used of each.
    expect(2 * REDIS_RESERVE).toBe(LIMIT);
    for (let i = 0; i < 6; i++) expect(await readClerks(instances[i % 2]!, key)).toBe(200);

    await stopRedisServer(redis);
    // The 14 the shared limit had left are the instances' reservations, counted in Redis before it
    // stopped: they pass first, with no store asked. Then each instance's insurance allows a whole
    // limit of its own (it never saw the shared count): 2 x 20 more pass before both refuse.
    const reservedLeft = LIMIT - 6;
    const started = performance.now();
    const afterFailure = await inParallel(60, 4, (i) => readClerks(instances[i % 2]!, key));
    const msPerRequest = (performance.now() - started) / 60;
    expect(afterFailure.slice(0, reservedLeft)).toEqual(Array(reservedLeft).fill(200));
    expect(afterFailure.filter((status) => status === 200)).toHaveLength(reservedLeft + 2 * LIMIT);
    expect(afterFailure.filter((status) => status === 429)).toHaveLength(60 - reservedLeft - 2 * LIMIT);
    console.info(`[shared limits] Redis down: ${msPerRequest.toFixed(1)} ms per request (4 in flight, 2 instances)`);

    expect(logs.messages(FAILED_OVER)).toHaveLength(2);
    expect(logs.messages(FAILED_OVER)[0]).toMatchObject({ rateLimitStore: 'redis', level: 40 });
    for (const instance of instances) {
      const ready = await readiness(instance);
      expect(ready.status).toBe(200);
      expect(ready.body.rateLimitStore).toMatch(/^insurance \(redis store failing since \S+: .+\)$/);
    }
    expect(await metric(instances[0]!, 'rate_limit_store_failovers_total', 'store="redis"')).toBe(failoversBefore + 2);
    expect(await metric(instances[0]!, 'rate_limit_insurance_decisions_total', 'store="redis"')).toBe(
      // One a request the reservations did not answer: the key's admission (the address's failures, then the key).
      decisionsBefore + 60 - reservedLeft,
    );
    expect(await metric(instances[0]!, 'rate_limit_store_on_insurance', 'store="redis"')).toBe(onInsuranceBefore + 2);

    // Redis comes back (empty, on the same port): the first request each instance sends after its
    // client reconnected is counted there again, and the switch back is logged once per instance.
    redis = await startRedisServer(port);
    for (const instance of instances) {
      await eventually(
        () => readClerks(instance, 'demo-operator-key'),
        async () => (await readiness(instance)).body.rateLimitStore === 'shared (redis)',
      );
    }
    expect(logs.messages(RECOVERED)).toHaveLength(2);
    expect(logs.messages(FAILED_OVER)).toHaveLength(2);
    expect(await metric(instances[0]!, 'rate_limit_store_on_insurance', 'store="redis"')).toBe(onInsuranceBefore);
    // Shared again: the key (its count lost with the old Redis) gets exactly one limit across both.
    const shared = await inParallel(2 * LIMIT, 4, (i) => readClerks(instances[i % 2]!, key));
    expect(shared.filter((status) => status === 200)).toHaveLength(LIMIT);
  });
});

describe.skipIf(!onPostgres)('when the Postgres store fails mid-test', () => {
  const LIMIT = 10;
  const logs = captureLogs();
  let instances: TestService[];
  beforeAll(async () => {
    await database.db('rate_limits').delete();
    instances = await startInstances(2, { limits: sharedLimits(LIMIT, 1_000_000), logger: logs.logger });
  });
  afterAll(async () => {
    await database.db.raw('alter table if exists rate_limits_away rename to rate_limits');
    await Promise.all(instances?.map((instance) => instance.close()) ?? []);
  });

  it('keeps answering on the insurance limiter while its table is gone, and shares again when it is back', async () => {
    const key = 'other-retail-key';
    for (let i = 0; i < 4; i++) expect(await readClerks(instances[i % 2]!, key)).toBe(200);
    await database.db.raw('alter table rate_limits rename to rate_limits_away');

    const afterFailure = await inParallel(30, 2, (i) => readClerks(instances[i % 2]!, key));
    expect(afterFailure.slice(0, LIMIT - 4)).toEqual(Array(LIMIT - 4).fill(200));
    expect(afterFailure.filter((status) => status === 200)).toHaveLength(2 * LIMIT);
    expect(logs.messages(FAILED_OVER)).toHaveLength(2);
    for (const instance of instances) {
      const ready = await readiness(instance);
      expect(ready.status).toBe(200);
      expect(ready.body.rateLimitStore).toMatch(/^insurance \(postgres store failing since \S+: .+\)$/);
    }

    await database.db.raw('alter table rate_limits_away rename to rate_limits');
    for (const instance of instances) {
      await eventually(
        () => readClerks(instance, 'demo-operator-key'),
        async () => (await readiness(instance)).body.rateLimitStore === 'shared (postgres)',
      );
    }
    expect(logs.messages(RECOVERED)).toHaveLength(2);
    // The shared count was kept in the table: the key has its 6 left, across both instances.
    const shared = await inParallel(20, 2, (i) => readClerks(instances[i % 2]!, key));
    expect(shared.filter((status) => status === 200)).toHaveLength(LIMIT - 4);
  });
});

describe('a burst across a window boundary', () => {
  // The library's windows are fixed: a key's starts at its first request and lasts the window. The
  // request past the limit blocks the key for a whole window from then (blockDuration).
  // Date stands still but where the test moves it (decisions.md 38): the boundary falls between the
  // two requests the test puts it between, however slowly a busy machine runs them; and the window is
  // longer than the test's time limit, so the memory store's timer of real time, which drops a key
  // once its window has passed, cannot fire in the middle.
  const LIMIT = 5;
  const WINDOW_MS = 600_000;
  let service: TestService;
  beforeAll(async () => {
    if (onPostgres) await database.db('rate_limits').delete();
    vi.useFakeTimers({ toFake: ['Date'] });
    service = await startTestService(database.db, {
      limits: { ...TEST_LIMITS, requestsPerKey: { limit: LIMIT, windowSeconds: WINDOW_MS / 1000 } },
    });
  });
  afterAll(async () => {
    await service?.close();
    vi.useRealTimers();
  });
  const skip = (ms: number) => vi.setSystemTime(Date.now() + ms);

  it('passes at most the limit when it runs past the limit: refused from its first refusal for a whole window', async () => {
    expect(await readClerks(service, 'demo-partner-key')).toBe(200); // the window starts
    skip(WINDOW_MS - 500);
    // Twenty requests, 50 ms apart, across the window's end: the 4 left pass, then none.
    const burst: number[] = [];
    for (let i = 0; i < 20; i++) {
      burst.push(await readClerks(service, 'demo-partner-key'));
      skip(50);
    }
    expect(burst).toEqual([...Array(LIMIT - 1).fill(200), ...Array(20 - (LIMIT - 1)).fill(429)]);
    // A whole window after the first refusal, the key is served again.
    skip(WINDOW_MS - 20 * 50 + (LIMIT - 1) * 50);
    expect(await readClerks(service, 'demo-partner-key')).toBe(200);
  });

  it('passes 2 x limit - 1 at worst, to a client that stops at the limit and resumes at the boundary', async () => {
    expect(await readClerks(service, 'other-partner-key')).toBe(200); // the window starts
    skip(WINDOW_MS - 100);
    for (let i = 1; i < LIMIT; i++) expect(await readClerks(service, 'other-partner-key')).toBe(200);
    skip(200); // past the boundary: a new window
    const next: number[] = [];
    for (let i = 0; i <= LIMIT; i++) next.push(await readClerks(service, 'other-partner-key'));
    expect(next).toEqual([...Array(LIMIT).fill(200), 429]);
  });
});
