// The bench's measure of the design itself (bench/core-server.ts, with its own layers: bench/core.ts): the same doors
// answering the same bodies and keeping the same rules, without the layers operations add to every
// request, and counting the request limits in memory. If it answered differently, its rate would not
// say what the design costs; if it kept a layer, the layer's cost would be charged to the design.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/app.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { serviceLayers } from '../../src/serviceLayers.js';
import { createTestDatabase, type TestDatabase } from '../../test/support/db.js';
import { startTestService, type TestService } from '../../test/support/service.js';
import { benchLayers, CORE_LAYERS, SERVICE_LAYER_NAMES } from '../core.js';

const T = new Date('2026-03-01T12:00:00Z');

describe("the design's core (the bench's own layers)", () => {
  let database: TestDatabase;
  let full: TestService;
  let core: TestService;
  beforeAll(async () => {
    database = await createTestDatabase({ now: T });
    full = await startTestService(database.db, { now: () => T });
    core = await startTestService(database.db, { now: () => T, layers: CORE_LAYERS });
  });
  afterAll(async () => {
    await core?.close();
    await full?.close();
    await database?.destroy();
  });

  it('answers a lookup, a refusal and a GraphQL query with the same status and body as the service', async () => {
    const asked = [
      ['/v1/lookup-customer.php?key=demo-retail-key&customerLocator=4000007', undefined],
      ['/v1/lookup-customer.php?key=demo-retail-key&customerLocator=4000007&fields=nonsense', undefined],
      ['/v1/lookup-customer.php?key=no-such-key&customerLocator=4000007', undefined],
      [
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
          body: JSON.stringify({ query: '{ customer(locator: "4000007") { id } }' }),
        },
      ],
    ] as const;
    for (const [path, init] of asked) {
      const [fromFull, fromCore] = await Promise.all([full.request(path, init), core.request(path, init)]);
      expect({ path, status: fromCore.status }).toEqual({ path, status: fromFull.status });
      const [fullBody, coreBody] = await Promise.all([fromFull.json(), fromCore.json()]);
      // Error ids and request ids differ by request; everything else is the same.
      const stable = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/"requestId":"[^"]*"/g, ''));
      expect(stable(coreBody)).toEqual(stable(fullBody));
    }
  });

  it('records a payment by the same rules: written once, replayed for its Idempotency-Key', async () => {
    const path = `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=1.00&currency=USD`;
    const init = { headers: { 'idempotency-key': 'bench-core-1' } };
    const first = await core.request(path, init);
    const firstBody = await first.json();
    const again = await core.request(path, init);
    expect({ status: again.status, body: await again.json() }).toEqual({ status: first.status, body: firstBody });
    expect(first.status).toBe(200);
    const payments = await database.db('payments').where({ finance_order_id: DEMO_ORDER_ID, amount_minor: '100' });
    expect(payments).toHaveLength(1);
  });

  it('leaves out the layers operations add: no security headers, no health or metrics endpoints', async () => {
    const path = '/v1/lookup-customer.php?key=demo-retail-key&customerLocator=4000007';
    const [fromFull, fromCore] = await Promise.all([full.request(path), core.request(path)]);
    expect(fromFull.headers.get('content-security-policy')).not.toBeNull();
    expect(fromCore.headers.get('content-security-policy')).toBeNull();
    // Both still carry the request id and the key's quota: the doors themselves set those.
    for (const response of [fromFull, fromCore]) {
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    }
    for (const endpoint of ['/healthz', '/metrics']) {
      expect((await full.request(endpoint)).status).toBe(200);
      expect((await core.request(endpoint)).status).toBe(404);
    }
  });

  it.runIf(process.env.TEST_DATABASE_URL)('counts its request limits in memory, not in Postgres', async () => {
    const points = async () => Number((await database.db('rate_limits').sum({ n: 'points' }).first())?.n ?? 0);
    const lookup = '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=4000007';
    const before = await points();
    expect((await core.request(lookup)).status).toBe(200);
    expect(await points()).toBe(before);
    expect((await full.request(lookup)).status).toBe(200);
    expect(await points()).toBeGreaterThan(before);
  });

  it('is built by the bench alone: no switch in the service chooses it', () => {
    const sources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? sources(join(dir, entry.name)) : [join(dir, entry.name)],
      );
    const naming = sources('src').filter((file) =>
      /\bcoreOnly\b|from '(\.\.\/)+bench\//.test(readFileSync(file, 'utf8')),
    );
    expect(naming).toEqual([]);
    expect(readFileSync('bench/core-server.ts', 'utf8')).toMatch(/benchLayers\(process\.env\.BENCH_LAYERS,/);
  });
});

describe("the profile's lists of the service's layers (BENCH_LAYERS)", () => {
  // The lists are built, not run: a layer's hooks read its deps only when the app composes it.
  const deps = { db: null, logger: null } as unknown as AppDeps;
  const namesOf = (spec: string | undefined) => benchLayers(spec, deps, {}).map((layer) => layer.name);

  it("names the service's layers as src/serviceLayers.ts does, in its order", () => {
    expect(serviceLayers(deps).map((layer) => layer.name)).toEqual([...SERVICE_LAYER_NAMES]);
    expect(namesOf('service')).toEqual([...SERVICE_LAYER_NAMES]);
  });

  it('leaves out exactly the one layer named, and keeps the core by default', () => {
    for (const name of SERVICE_LAYER_NAMES)
      expect(namesOf(`service-without:${name}`)).toEqual(SERVICE_LAYER_NAMES.filter((other) => other !== name));
    expect(benchLayers(undefined, deps, {})).toBe(CORE_LAYERS);
    expect(benchLayers('core', deps, {})).toBe(CORE_LAYERS);
  });

  it('refuses a layer it does not know, naming the ones it does', () => {
    expect(() => namesOf('service-without:metrics')).toThrow(/request-log, operations, shared-limits/);
    expect(() => namesOf('everything')).toThrow(/got "everything"/);
  });
});
