// The fragment bomb over HTTP against the whole service: a 1 kB document whose eight levels of
// fragments spread each other ten times (10^7 spreads). Without a key it is refused once parsed, with
// no analysis at all; with a key it is measured in a few dozen steps and refused before it runs; and
// while eight clients send it in a loop, another client's lookups are all answered. Work is counted
// in analysis steps (every walk's meter steps through AnalysisMeter.step), never in time.
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { DEMO_DEVICE_IMEI } from '../../src/fixtures/demoIds.js';
import { AnalysisMeter, INLINED_REFUSAL } from '../../src/pipeline/documentLimits/analysisBudget.js';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();
const service = () => fixture.service;

/** F0 spreads F1 ten times, F1 spreads F2 ten times, ... eight fragments, the last `leaf`. */
function fragmentBomb(leaf: string, type = 'Query', operation = 'query { ...F0 }'): string {
  const fragments = Array.from({ length: 8 }, (_, i) =>
    i === 7
      ? `fragment Fragment${i} on ${type} { ${leaf} }`
      : `fragment Fragment${i} on ${type} { ${Array(10)
          .fill(`...Fragment${i + 1}`)
          .join(' ')} }`,
  );
  return `${operation.replace('F0', 'Fragment0')} ${fragments.join(' ')}`;
}

const BOMBS = [
  ['__typename at the root', fragmentBomb('__typename')],
  ['an object field at the root', fragmentBomb('viewer { kind }')],
  [
    'under a field (jit would compile 10^7 spreads)',
    fragmentBomb('kind __typename', 'Viewer', 'query { viewer { ...F0 } }'),
  ],
] as const;

const MISSING_API_KEY = {
  errors: [
    {
      message: 'an API key is required: send it as the X-Api-Key header (or Authorization: Bearer)',
      extensions: { code: 'MISSING_API_KEY' },
    },
  ],
};

let steps: MockInstance<AnalysisMeter['step']>;
beforeEach(() => {
  steps = vi.spyOn(AnalysisMeter.prototype, 'step');
});
afterEach(() => {
  steps.mockRestore();
});
/** Analysis steps taken since the test began (a call of step(n) counts n). */
const stepsTaken = () => steps.mock.calls.reduce((sum, [n]) => sum + (n ?? 1), 0);

describe('the fragment bomb of eight levels', () => {
  it('is about a kilobyte', () => {
    for (const [, bomb] of BOMBS) expect(bomb.length).toBeGreaterThan(1000);
  });

  it.each(BOMBS)(
    '%s, without a key: 401 MISSING_API_KEY, after no analysis step (POST and GET)',
    async (_name, bomb) => {
      const posted = await service().graphql(bomb);
      expect(posted.status).toBe(401);
      expect(posted.body).toEqual(MISSING_API_KEY);
      const got = await service().request(`/graphql?query=${encodeURIComponent(bomb)}`, {
        headers: { 'apollo-require-preflight': 'true' },
      });
      expect(got.status).toBe(401);
      expect(await got.json()).toEqual(MISSING_API_KEY);
      expect(stepsTaken()).toBe(0);
    },
  );

  it.each(BOMBS)('%s, with a key: 400, refused in validation after under 100 analysis steps', async (_name, bomb) => {
    const { status, body } = await service().graphql(bomb, { 'x-api-key': 'demo-partner-key' });
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      expect.objectContaining({ message: INLINED_REFUSAL, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
    ]);
    expect(stepsTaken()).toBeGreaterThan(0);
    expect(stepsTaken()).toBeLessThan(100);
  });

  it('a key-less token purchase is still served, and analysed like any document', async () => {
    const { status, body } = await service().graphql(
      'mutation { a: createAccessToken(apiKey: "demo-vendor-key") { tokenType } }',
    );
    expect(status).toBe(200);
    expect(body).toEqual({ data: { a: { tokenType: 'Bearer' } } });
    expect(stepsTaken()).toBeGreaterThan(0);
  });
});

describe('eight clients sending the key-less bomb in a loop', () => {
  const LOOKUP = `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`;
  const CLIENTS = 8;
  const BOMBS_EACH = 40;

  it("spend no analysis step on the bombs, and another client's lookups are all answered", async () => {
    // One lookup's steps: its first analyses its document; a document already seen takes none, its
    // cost plan kept with Apollo's cached document (decisions.md 47).
    const first = stepsTaken();
    expect((await service().request(LOOKUP)).status).toBe(200);
    expect(stepsTaken() - first).toBeGreaterThan(0);
    const before = stepsTaken();
    expect((await service().request(LOOKUP)).status).toBe(200);
    const perLookup = stepsTaken() - before;
    expect(perLookup).toBe(0);

    const bombStatuses: number[] = [];
    const bombMs: number[] = [];
    const lookupStatuses: number[] = [];
    const lookupMs: number[] = [];
    let bombing = true;
    const bomber = async () => {
      for (let i = 0; i < BOMBS_EACH; i++) {
        const started = performance.now();
        bombStatuses.push((await service().graphql(BOMBS[i % BOMBS.length]![1])).status);
        bombMs.push(performance.now() - started);
      }
    };
    const looker = async () => {
      while (bombing) {
        const started = performance.now();
        const response = await service().request(LOOKUP);
        await response.arrayBuffer();
        lookupStatuses.push(response.status);
        lookupMs.push(performance.now() - started);
      }
    };
    const stepsBefore = stepsTaken();
    const lookups = looker();
    await Promise.all(Array.from({ length: CLIENTS }, bomber));
    bombing = false;
    await lookups;

    expect(bombStatuses).toEqual(Array(CLIENTS * BOMBS_EACH).fill(401));
    expect(lookupStatuses.length).toBeGreaterThan(0);
    expect(lookupStatuses.every((status) => status === 200)).toBe(true);
    // Every step taken during the run was a lookup's: the bombs took none.
    expect(stepsTaken() - stepsBefore).toBe(lookupStatuses.length * perLookup);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    console.log(
      `${bombStatuses.length} key-less bombs: median ${median(bombMs).toFixed(1)} ms, max ${Math.max(...bombMs).toFixed(1)} ms; ` +
        `${lookupStatuses.length} lookups meanwhile: median ${median(lookupMs).toFixed(1)} ms, max ${Math.max(...lookupMs).toFixed(1)} ms`,
    );
  });
});
