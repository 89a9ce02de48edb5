// The edges of the GraphQL door: only /graphql itself serves GraphQL, and a subscription sent over
// HTTP is told to use the WebSocket, with a code of its own, logged as an ordinary request (no error
// line, no stack). Production's introspection refusal is in test/production/production.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/kernel/logger.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';

let database: TestDatabase;
let service: TestService;
const logText: string[] = [];
const logLines = () => logText.map((line) => JSON.parse(line) as { level: string; msg: string; status?: number });

beforeAll(async () => {
  database = await createTestDatabase();
  service = await startTestService(database.db, {
    logger: createLogger('trace', { write: (line: string) => void logText.push(line) }),
  });
});
afterAll(async () => {
  await service?.close();
  await database?.destroy();
});

const KEY = { 'x-api-key': 'demo-partner-key' };

describe('only /graphql exactly is the GraphQL door', () => {
  for (const path of ['/graphql/', '/graphql/foo', '/GRAPHQL', '/Graphql', '/graphql/graphql']) {
    it(`${path} is 404 RESOURCE_NOT_FOUND for GET and POST`, async () => {
      for (const init of [
        { method: 'GET', headers: KEY },
        {
          method: 'POST',
          headers: { ...KEY, 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ __typename }' }),
        },
      ]) {
        const response = await service.request(`${path}?query=%7B__typename%7D`, init);
        const body = (await response.json()) as { error?: { code?: string }; data?: unknown };
        expect(response.status, `${init.method} ${path}`).toBe(404);
        expect(body.error?.code).toBe('RESOURCE_NOT_FOUND');
        expect(body.data).toBeUndefined();
      }
    });
  }

  it('/graphql itself still serves GET and POST, with its query string', async () => {
    const get = await service.request('/graphql?query=%7B__typename%7D', {
      headers: { ...KEY, 'apollo-require-preflight': 'true' },
    });
    expect(await get.json()).toEqual({ data: { __typename: 'Query' } });
    expect((await service.graphql('{ __typename }', KEY)).body).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('a subscription sent over HTTP', () => {
  const SUBSCRIPTION = 'subscription { events { id type } }';

  it('is 400 SUBSCRIPTION_NEEDS_WEBSOCKET over POST, naming the WebSocket door', async () => {
    const before = logText.length;
    const { status, body } = await service.graphql(SUBSCRIPTION, KEY);
    expect(status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].extensions.code).toBe('SUBSCRIPTION_NEEDS_WEBSOCKET');
    expect(body.errors[0].message).toMatch(/WebSocket at \/graphql/);
    // Logged as a request like any other, at info: no error or warning line, no stack.
    const lines = logLines().slice(before);
    expect(lines.filter((line) => ['warn', 'error', 'fatal'].includes(line.level))).toEqual([]);
    expect(lines.some((line) => line.msg === 'request' && line.status === 400 && line.level === 'info')).toBe(true);
    expect(logText.slice(before).join('\n')).not.toMatch(/"stack"|at .*\.ts:\d+/);
  });

  it('over GET is 405: GET carries queries only (GraphQL over HTTP), and nothing runs', async () => {
    const response = await service.request(`/graphql?query=${encodeURIComponent(SUBSCRIPTION)}`, {
      headers: { ...KEY, 'apollo-require-preflight': 'true' },
    });
    const body = (await response.json()) as { errors: Array<{ message: string }>; data?: unknown };
    expect(response.status).toBe(405);
    expect(body.data).toBeUndefined();
    expect(body.errors[0]!.message).toMatch(/GET/);
  });

  it('is refused before anything runs, also without a key', async () => {
    const { status, body } = await service.graphql(SUBSCRIPTION);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body.data).toBeUndefined();
  });
});
