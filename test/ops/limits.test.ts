// Request limits through both doors: requests per API key (an access token counting against its
// key) and failed authentications per client address, with 429 RATE_LIMITED and Retry-After.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LIMITS, type LimitSettings } from '../../src/kernel/limitSettings.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { inParallel } from '../support/parallel.js';
import { startTestService, TEST_LIMITS, type TestService } from '../support/service.js';

/**
 * Each window counted here is longer than any test's time limit (decisions.md 38), so none can end
 * while a test counts in it, however slowly a busy machine runs the test: the memory store drops a
 * key after its window by a timer of real time, which a frozen Date does not hold back.
 */
const WINDOW = 3600;

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
  // The limiter (rate-limiter-flexible) reads Date.now(), in its memory store and in the expiry it
  // writes to Postgres: Date stands still unless the test moves it, so a window ends only where a
  // test says (clock.skip), never between two of its requests.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(async () => {
  vi.useRealTimers();
  await database?.destroy();
});

/** A clock the test moves forward: Date jumps `seconds` ahead, for the service and its limiter alike. */
function movableClock() {
  return {
    now: () => new Date(),
    skip: (seconds: number) => {
      vi.setSystemTime(Date.now() + seconds * 1000);
    },
  };
}

interface Answer {
  door: 'rest' | 'graphql';
  status: number;
  retryAfter: string | null;
  body: any;
}

/** One authenticated read through either door: list-clerks, or { clerks { id } } on /graphql. */
async function readClerks(
  service: TestService,
  door: 'rest' | 'graphql',
  key: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response =
    door === 'rest'
      ? await service.request(`/v1/list-clerks.php?key=${encodeURIComponent(key)}`, { headers })
      : await service.request('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': key, ...headers },
          body: JSON.stringify({ query: '{ clerks { id } }' }),
        });
  return {
    door,
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: await response.json(),
  };
}

const withRequestLimit = (limit: number, windowSeconds: number): LimitSettings => ({
  ...TEST_LIMITS,
  requestsPerKey: { limit, windowSeconds },
});

describe('requests per API key', () => {
  const LIMIT = 100;
  const clock = movableClock();
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(database.db, { now: clock.now, limits: withRequestLimit(LIMIT, WINDOW) });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers a burst of 1,000 requests with one key 429 past its limit, while another key keeps working', async () => {
    // Both doors count against one limit: even requests through REST, odd ones through /graphql.
    // Every 50th also sends one with another key, in the middle of the burst.
    let refusedSoFar = 0;
    const otherKey: Array<Answer & { refusedBefore: number }> = [];
    const burst = await inParallel(1000, 20, async (i) => {
      if (i % 50 === 25) {
        const refusedBefore = refusedSoFar;
        otherKey.push({
          ...(await readClerks(service, i % 100 === 25 ? 'rest' : 'graphql', 'other-partner-key')),
          refusedBefore,
        });
      }
      const answer = await readClerks(service, i % 2 ? 'graphql' : 'rest', 'demo-partner-key');
      if (answer.status === 429) refusedSoFar += 1;
      return answer;
    });

    const accepted = burst.filter((answer) => answer.status === 200);
    const refused = burst.filter((answer) => answer.status === 429);
    expect(accepted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(1000 - LIMIT);
    for (const answer of refused) {
      const seconds = Number(answer.retryAfter);
      expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= WINDOW, `Retry-After ${answer.retryAfter}`).toBe(
        true,
      );
      const message = `this API key has used its ${LIMIT} requests per ${WINDOW} s; retry after ${seconds} s`;
      if (answer.door === 'rest') {
        expect(answer.body).toEqual({ valid: false, message, error: { code: 'RATE_LIMITED', message } });
      } else {
        expect(answer.body).toEqual({
          errors: [{ message, extensions: { code: 'RATE_LIMITED', retryAfter: seconds } }],
        });
      }
    }
    expect(otherKey).toHaveLength(20);
    expect(otherKey.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(otherKey.filter((answer) => answer.refusedBefore > 0).length).toBeGreaterThan(10); // sent while the first key was refused
  });

  it('accepts the key again once its window has passed', async () => {
    expect((await readClerks(service, 'rest', 'demo-partner-key')).status).toBe(429);
    clock.skip(WINDOW);
    expect((await readClerks(service, 'rest', 'demo-partner-key')).status).toBe(200);
    expect((await readClerks(service, 'graphql', 'demo-partner-key')).status).toBe(200);
  });
});

describe('requests with an access token', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(database.db, { limits: withRequestLimit(5, WINDOW) });
  });
  afterAll(async () => {
    await service?.close();
  });

  const partners = (credential: string) =>
    service.graphql('{ partners { id } }', { authorization: `Bearer ${credential}` });

  it('count against the key that bought the token', async () => {
    // Buying the token is the key's first request (its key is the mutation's argument).
    const bought = await service.graphql('mutation { createAccessToken(apiKey: "demo-operator-key") { accessToken } }');
    const token: string = bought.body.data.createAccessToken.accessToken;
    for (let i = 0; i < 4; i++) expect((await partners(token)).status).toBe(200);
    const refused = await partners(token);
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    // The key itself is past its limit too, on both doors, and the token route says so in its own body.
    expect((await partners('demo-operator-key')).status).toBe(429);
    const again = await service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-operator-key' }),
    });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await again.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(
          new RegExp(`^this API key has used its 5 requests per ${WINDOW} s; retry after \\d+ s$`),
        ),
      },
    });
  });
});

describe('failed authentications per client address', () => {
  const FAILURES = DEFAULT_LIMITS.authFailuresPerAddress.limit;
  const clock = movableClock();
  const warnings: Array<Record<string, unknown>> = [];
  let service: TestService;
  beforeAll(async () => {
    // TRUST_PROXY=loopback: the test client (on loopback) plays a proxy reporting client addresses.
    service = await startTestService(database.db, {
      now: clock.now,
      logger: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line)) }),
      limits: { ...TEST_LIMITS, authFailuresPerAddress: DEFAULT_LIMITS.authFailuresPerAddress },
      trustProxy: ['loopback'],
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  const from = (address: string) => ({ 'x-forwarded-for': address });
  const notification = (address: string, token: string) =>
    service.request('/payments/v1/notification', {
      method: 'POST',
      headers: { ...from(address), authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
  const buyToken = (address: string, apiKey: string) =>
    service.request('/payments/v1/token', {
      method: 'POST',
      headers: { ...from(address), 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey }),
    });

  it(`refuses every credential from an address after ${FAILURES} failures, until the window passes`, async () => {
    const attacker = '203.0.113.7';
    // Failures through every door count alike: bad keys on REST and /graphql, bad access tokens.
    const failures = await inParallel(FAILURES, 5, async (i) => {
      if (i % 4 === 0)
        return (await readClerks(service, 'graphql', `guess-${i}`, from(attacker))).body.errors[0].extensions.code;
      if (i % 4 === 1)
        return (await notification(attacker, `dfs1.forged-${i}.signature`)).status === 401
          ? 'INVALID_ACCESS_TOKEN'
          : 'unexpected';
      return (await readClerks(service, 'rest', `guess-${i}`, from(attacker))).body.error.code;
    });
    expect(failures).toEqual(
      Array.from({ length: FAILURES }, (_, i) => (i % 4 === 1 ? 'INVALID_ACCESS_TOKEN' : 'INVALID_API_KEY')),
    );

    const next = await readClerks(service, 'rest', 'guess-next', from(attacker));
    expect(next.status).toBe(429);
    expect(next.body.error.code).toBe('RATE_LIMITED');
    expect(next.body.message).toMatch(
      new RegExp(
        `^too many failed authentications from this address \\(the limit is ${FAILURES} per 300 s\\); retry after \\d+ s$`,
      ),
    );
    const retryAfter = Number(next.retryAfter);
    expect(retryAfter).toBeGreaterThan(290);
    expect(retryAfter).toBeLessThanOrEqual(300);

    // A valid credential from that address is refused too, through every door (its lookup, asked at the
    // same time as the address's failures, is not used).
    expect((await readClerks(service, 'rest', 'demo-partner-key', from(attacker))).status).toBe(429);
    const graph = await readClerks(service, 'graphql', 'demo-partner-key', from(attacker));
    expect(graph.status).toBe(429);
    expect(graph.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: Number(graph.retryAfter) });
    const token = await buyToken(attacker, 'demo-vendor-key');
    expect(token.status).toBe(429);
    expect(token.headers.get('retry-after')).not.toBeNull();
    // A request with no credential at all is still told what is missing.
    expect((await service.request('/v1/list-clerks.php', { headers: from(attacker) })).status).toBe(401);

    // Another address, and the proxy itself, are unaffected.
    expect((await readClerks(service, 'rest', 'demo-partner-key', from('203.0.113.8'))).status).toBe(200);
    expect((await readClerks(service, 'rest', 'guess-other', from('203.0.113.8'))).status).toBe(401);
    expect((await readClerks(service, 'rest', 'demo-partner-key')).status).toBe(200);

    clock.skip(300);
    expect((await readClerks(service, 'rest', 'demo-partner-key', from(attacker))).status).toBe(200);

    // The block is logged once, with the address and for how long.
    const blocked = warnings.filter(
      (line) => line.msg === 'client address blocked after too many failed authentications',
    );
    expect(blocked).toEqual([
      expect.objectContaining({ clientAddress: attacker, failures: FAILURES, blockedSeconds: expect.any(Number) }),
    ]);
  });

  it('counts each key guessed through the token route and createAccessToken, whose argument is a credential', async () => {
    const guesser = '198.51.100.9';
    const createAccessToken = (query: string) =>
      service.request('/graphql', {
        method: 'POST',
        headers: { ...from(guesser), 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      });
    // An alias batch of guesses stops at the first refused one: the mutation's field is non-null.
    const guesses = Array.from(
      { length: 5 },
      (_, i) => `g${i}: createAccessToken(apiKey: "guess-${i}") { accessToken }`,
    ).join(' ');
    const batch = (await (await createAccessToken(`mutation { ${guesses} }`)).json()) as {
      errors: Array<{ extensions: { code: string } }>;
    };
    expect(batch.errors.map((error) => error.extensions.code)).toEqual(['INVALID_API_KEY']);
    for (let i = 1; i < FAILURES; i++) {
      const response =
        i % 2
          ? await buyToken(guesser, `guess-${i}`)
          : await createAccessToken(`mutation { createAccessToken(apiKey: "guess-${i}") { accessToken } }`);
      expect(response.status, `guess ${i}`).toBe(i % 2 ? 401 : 200);
    }
    const refused = await buyToken(guesser, 'demo-vendor-key');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({
      error: {
        code: 'RATE_LIMITED',
        message: expect.stringMatching(/^too many failed authentications from this address/),
      },
    });
    expect(
      (await createAccessToken('mutation { createAccessToken(apiKey: "demo-vendor-key") { accessToken } }')).status,
    ).toBe(429);
    expect((await readClerks(service, 'graphql', 'demo-partner-key', from(guesser))).status).toBe(429);
  });

  it('counts IPv6 clients by their /64 network', async () => {
    for (let i = 0; i < FAILURES; i++)
      expect((await readClerks(service, 'rest', 'guess', from(`2001:db8:7:7::${i.toString(16)}`))).status).toBe(401);
    expect((await readClerks(service, 'rest', 'demo-partner-key', from('2001:db8:7:7:ffff::1'))).status).toBe(429);
    expect((await readClerks(service, 'rest', 'demo-partner-key', from('2001:db8:7:8::1'))).status).toBe(200);
  });
});

describe('without TRUST_PROXY (the default)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(database.db, {
      limits: { ...TEST_LIMITS, authFailuresPerAddress: { limit: 2, windowSeconds: 300 } },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('ignores X-Forwarded-For: a client cannot pick the address it is counted under', async () => {
    expect((await readClerks(service, 'rest', 'guess-1', { 'x-forwarded-for': '203.0.113.1' })).status).toBe(401);
    expect((await readClerks(service, 'rest', 'guess-2', { 'x-forwarded-for': '203.0.113.2' })).status).toBe(401);
    expect((await readClerks(service, 'rest', 'demo-partner-key', { 'x-forwarded-for': '203.0.113.3' })).status).toBe(
      429,
    );
  });
});

describe('requests without a credential per client address', () => {
  const LIMIT = 5;
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService(database.db, {
      limits: { ...TEST_LIMITS, anonymousPerAddress: { limit: LIMIT, windowSeconds: WINDOW } },
    });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('parses at most the limit of key-less documents from one address, then answers 429 before reading them', async () => {
    // Parsed, then refused for want of a key (only buying a token is served without one).
    const document = `{ ${'__typename '.repeat(100)}}`;
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await service.graphql(document)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    const refused = await service.request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: document }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { errors: unknown[] }).errors[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED' },
    });
    // The same address with a key is not anonymous: it is served.
    expect((await readClerks(service, 'graphql', 'demo-partner-key')).status).toBe(200);
    // A legacy request without its key counts too.
    expect((await service.request('/v1/list-clerks.php')).status).toBe(429);
  });
});
