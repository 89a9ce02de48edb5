// Hardening, the smaller points: the payments error body names its code, /graphql refuses a request
// before execution with the error's HTTP status, every known path answers another method with 405
// and Allow, a token issued in the future is refused, an unknown operationName is not echoed at full
// length, and every authenticated request carries the RateLimit headers of its key.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import { issueAccessToken } from '../../src/modules/auth/tokens.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { startTestService, TEST_LIMITS, TEST_TOKENS, type TestService } from '../support/service.js';

const fixture = useSeededService();
const service = () => fixture.service;

const VIEWER = '{ viewer { kind } }';
const json = { 'content-type': 'application/json' };

describe('payments interface error body', () => {
  it('carries the code beside the message', async () => {
    const token = await service().request('/payments/v1/token', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ apiKey: 'not-a-key' }),
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toEqual({
      error: { code: 'INVALID_API_KEY', message: expect.stringContaining('not authorized') },
    });

    const notification = await service().request('/payments/v1/notification', {
      method: 'POST',
      headers: json,
      body: '{}',
    });
    expect(notification.status).toBe(401);
    expect(await notification.json()).toEqual({
      error: { code: 'MISSING_API_KEY', message: expect.stringContaining('Authorization: Bearer') },
    });

    const wrongMethod = await service().request('/payments/v1/token');
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({
      error: { code: 'METHOD_NOT_ALLOWED', message: '/payments/v1/token accepts POST only, not GET' },
    });
  });
});

describe('/graphql: a request refused before execution has its HTTP status', () => {
  it('401 for an API key that is not valid, with no data', async () => {
    const answer = await service().graphql(VIEWER, { 'x-api-key': 'not-a-key' });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      errors: [
        { message: 'the API key is not valid (unknown, revoked or expired)', extensions: { code: 'INVALID_API_KEY' } },
      ],
    });
  });

  it('401 for an access token that is not valid, even for a field that needs no credential', async () => {
    const answer = await service().graphql('{ __typename }', { authorization: 'Bearer dfs1.forged.signature' });
    expect(answer.status).toBe(401);
    expect(answer.body.errors).toEqual([{ message: expect.any(String), extensions: { code: 'INVALID_ACCESS_TOKEN' } }]);
    expect(answer.body).not.toHaveProperty('data');
  });

  it('no credential: buying an access token is answered, any other document is 401 once parsed, with no data', async () => {
    const token = await service().graphql('mutation { createAccessToken(apiKey: "demo-vendor-key") { tokenType } }');
    expect(token.status).toBe(200);
    expect(token.body).toEqual({ data: { createAccessToken: { tokenType: 'Bearer' } } });
    const viewer = await service().graphql(VIEWER);
    expect(viewer.status).toBe(401);
    expect(viewer.body).toEqual({
      errors: [
        {
          message: 'an API key is required: send it as the X-Api-Key header (or Authorization: Bearer)',
          extensions: { code: 'MISSING_API_KEY' },
        },
      ],
    });
  });

  it('a field refused during execution stays 200 with the partial data', async () => {
    const answer = await service().graphql('{ viewer { kind } merchant(id: "1") { id } }', {
      'x-api-key': 'demo-vendor-key',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ viewer: { kind: 'VENDOR' }, merchant: null });
    expect(answer.body.errors.map((error: { extensions: { code: string } }) => error.extensions.code)).toEqual([
      'FORBIDDEN',
    ]);
  });
});

describe('405 with Allow on every known path', () => {
  for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
    it(`${path}: GET and HEAD answer, any other method is 405`, async () => {
      expect((await service().request(path)).status).toBe(200);
      expect((await service().request(path, { method: 'HEAD' })).status).toBe(200);
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const response = await service().request(path, { method });
        expect(response.status, `${method} ${path}`).toBe(405);
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        const message = `${path} accepts GET or HEAD only, not ${method}`;
        expect(await response.json()).toEqual({
          valid: false,
          message,
          error: { code: 'METHOD_NOT_ALLOWED', message },
        });
      }
    });
  }

  it('/graphql: PUT, DELETE and PATCH are 405 with Allow: GET, POST in the GraphQL error body', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const response = await service().request('/graphql', {
        method,
        headers: { ...json, 'x-api-key': 'demo-partner-key' },
        body: '{"query":"{ __typename }"}',
      });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, POST');
      expect(await response.json()).toEqual({
        errors: [
          { message: `/graphql accepts GET or POST only, not ${method}`, extensions: { code: 'METHOD_NOT_ALLOWED' } },
        ],
      });
    }
  });

  it('an unknown path is still 404', async () => {
    expect((await service().request('/healthz/deeper', { method: 'POST' })).status).toBe(404);
  });
});

describe('access tokens issued in the future', () => {
  it('are refused beyond 60 s of clock skew; within it they are accepted', async () => {
    const keyId = String(
      (
        await fixture.database
          .db('api_keys')
          .where({ key_hash: hashApiKey('demo-vendor-key') })
          .first('id')
      ).id,
    );
    const notify = (token: string) =>
      service().request('/payments/v1/notification', {
        method: 'POST',
        headers: { ...json, authorization: `Bearer ${token}` },
        body: '{}',
      });
    const future = issueAccessToken(TEST_TOKENS, keyId, new Date(Date.now() + 10 * 60_000)).token;
    const refused = await notify(future);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: { code: 'INVALID_ACCESS_TOKEN', message: 'the access token is not valid (it was issued in the future)' },
    });
    // A token from an instance whose clock runs 30 s ahead passes authentication (and fails on the empty body).
    const skewed = issueAccessToken(TEST_TOKENS, keyId, new Date(Date.now() + 30_000)).token;
    const accepted = await notify(skewed);
    expect(accepted.status).toBe(400);
    expect(((await accepted.json()) as { error: { code: string } }).error.code).toBe('INVALID_NOTIFICATION');
  });
});

describe('an unknown operationName', () => {
  it('is not echoed back at full length', async () => {
    const name = 'x'.repeat(10_000);
    const response = await service().request('/graphql', {
      method: 'POST',
      headers: { ...json, 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify({ query: 'query Known { __typename }', operationName: name }),
    });
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(400);
    expect(JSON.parse(text)).toEqual({
      errors: [
        {
          message: `Unknown operation named "${'x'.repeat(64)}…".`,
          extensions: { code: 'OPERATION_RESOLUTION_FAILURE' },
        },
      ],
    });
  });
});

describe('a long name in a GraphQL request error', () => {
  it('is cut to 64 characters, whichever name it is (here a field)', async () => {
    const field = 'y'.repeat(10_000);
    const answer = await service().graphql(`{ ${field} }`, { 'x-api-key': 'demo-partner-key' });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        message: `Cannot query field "${'y'.repeat(64)}…" on type "Query".`,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
    ]);
  });
});

describe('RateLimit headers', () => {
  const T = new Date('2026-06-10T12:00:00Z');
  const DASHBOARD = 'https://dashboard.example.com';
  // The limiter reads Date, which stands still here, and the window outlasts the test's time limit
  // (decisions.md 38): every answer says the whole window is left, however slowly the machine runs.
  const WINDOW = 3600;
  let database: TestDatabase;
  let limited: TestService;
  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    database = await createTestDatabase();
    limited = await startTestService(database.db, {
      now: () => T,
      limits: { ...TEST_LIMITS, requestsPerKey: { limit: 4, windowSeconds: WINDOW } },
      corsOrigins: [DASHBOARD],
    });
  });
  afterAll(async () => {
    await limited?.close();
    await database?.destroy();
    vi.useRealTimers();
  });

  const rateLimitOf = (response: Response) => ({
    policy: response.headers.get('ratelimit-policy'),
    limit: response.headers.get('ratelimit'),
  });
  const POLICY = `"default";q=4;w=${WINDOW}`;
  const graphql = (key: string, query = '{ clerks { id } }') =>
    limited.request('/graphql', {
      method: 'POST',
      headers: { ...json, 'x-api-key': key, origin: DASHBOARD },
      body: JSON.stringify({ query }),
    });

  it("say the key's quota on both doors, down to the 429, which carries them beside Retry-After", async () => {
    const rest = await limited.request('/v1/list-clerks.php?key=demo-partner-key');
    expect(rest.status).toBe(200);
    expect(rateLimitOf(rest)).toEqual({ policy: POLICY, limit: `"default";r=3;t=${WINDOW}` });

    const graph = await graphql('demo-partner-key');
    expect(graph.status).toBe(200);
    expect(rateLimitOf(graph)).toEqual({ policy: POLICY, limit: `"default";r=2;t=${WINDOW}` });
    // Dashboards on another origin can read them.
    expect(graph.headers.get('access-control-expose-headers')?.split(',')).toEqual(
      expect.arrayContaining(['RateLimit', 'RateLimit-Policy']),
    );

    // An answer refused after authentication still carries them.
    const forbidden = await limited.request(
      '/v1/record-customer-payment.php?key=demo-partner-key&merchantId=1&salesClerkId=1&financeOrderId=1&amount=1&currency=USD',
    );
    expect(forbidden.status).toBe(403);
    expect(rateLimitOf(forbidden)).toEqual({ policy: POLICY, limit: `"default";r=1;t=${WINDOW}` });

    expect(rateLimitOf(await graphql('demo-partner-key', '{ __typename }'))).toEqual({
      policy: POLICY,
      limit: `"default";r=0;t=${WINDOW}`,
    });

    for (const refused of [
      await limited.request('/v1/list-clerks.php?key=demo-partner-key'),
      await graphql('demo-partner-key'),
    ]) {
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(WINDOW));
      expect(rateLimitOf(refused)).toEqual({ policy: POLICY, limit: `"default";r=0;t=${WINDOW}` });
    }
  });

  it('count a token purchase against the key that buys it, on the token route too', async () => {
    const bought = await limited.request('/payments/v1/token', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    expect(bought.status).toBe(200);
    expect(rateLimitOf(bought)).toEqual({ policy: POLICY, limit: `"default";r=3;t=${WINDOW}` });
    const { access_token: token } = ((await bought.json()) as { data: { access_token: string } }).data;
    const notification = await limited.request('/payments/v1/notification', {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: '{}',
    });
    expect(notification.status).toBe(400);
    expect(rateLimitOf(notification)).toEqual({ policy: POLICY, limit: `"default";r=2;t=${WINDOW}` });
  });

  it('are absent when no key was accepted', async () => {
    for (const response of [
      await limited.request('/v1/list-clerks.php?key=not-a-key'),
      await limited.request('/v1/list-clerks.php'),
      await graphql('not-a-key'),
      await limited.request('/healthz'),
    ]) {
      expect(rateLimitOf(response)).toEqual({ policy: null, limit: null });
    }
  });
});
