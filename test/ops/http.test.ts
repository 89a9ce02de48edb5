// HTTP behaviour shared by every route: request ids, bodies that never leak, the GraphQL door.
import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { createLogger } from '../../src/kernel/logger.js';
import { useSeededService } from '../support/fixtures.js';
import { startTestService } from '../support/service.js';

const fixture = useSeededService();
const service = () => fixture.service;

describe('X-Request-ID', () => {
  it('echoes a well-formed incoming id and replaces a malformed one', async () => {
    const echoed = await service().request('/v1/list-clerks.php?key=demo-partner-key', {
      headers: { 'x-request-id': 'pos-42.abc:1' },
    });
    expect(echoed.headers.get('x-request-id')).toBe('pos-42.abc:1');
    const replaced = await service().request('/v1/list-clerks.php', { headers: { 'x-request-id': 'x'.repeat(200) } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const graphql = await service().request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'dash-1' },
      body: '{"query":"{ __typename }"}',
    });
    expect(graphql.headers.get('x-request-id')).toBe('dash-1');
  });
});

describe('error bodies', () => {
  it('answer an unknown payments path in the payments shape', async () => {
    const response = await service().request('/payments/v1/nothing', { method: 'POST' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: { code: 'RESOURCE_NOT_FOUND', message: 'no endpoint POST /payments/v1/nothing' },
    });
  });

  it('answer malformed JSON on /graphql with 400, not 500, and no parser internals', async () => {
    const response = await service().request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"query": ',
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain('not valid JSON');
    expect(text).not.toMatch(/at \w+ \(|node_modules|SyntaxError/);
  });

  it('answer an oversized /graphql body with 413 naming the limit', async () => {
    const query = `{ __typename } # ${'x'.repeat(70 * 1024)}`;
    const response = await service().request('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      errors: [{ message: 'the request body is larger than 64kb', extensions: { code: 'REQUEST_TOO_LARGE' } }],
    });
  });

  // A transport failure on /graphql is a taxonomy error in GraphQL's shape, its status from the one table.
  it("answer a /graphql body that cannot be read in GraphQL's errors shape", async () => {
    const post = (body: string, headers: Record<string, string> = {}) => {
      const init = { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body };
      return service().request('/graphql', init);
    };
    const refusal = (message: string, code: string) => ({ errors: [{ message, extensions: { code } }] });

    const malformed = await post('{"query": ');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual(
      refusal(
        'the request body is not valid JSON: unexpected end of the body at line 1, column 11',
        'INVALID_REQUEST_BODY',
      ),
    );

    const latin1 = await post('{"query":"{ __typename }"}', { 'content-type': 'application/json; charset=latin1' });
    expect(latin1.status).toBe(415);
    expect(await latin1.json()).toEqual(refusal('the request body must be UTF-8', 'UNSUPPORTED_MEDIA_TYPE'));

    const compressed = await post('{"query":"{ __typename }"}', { 'content-encoding': 'compress' });
    expect(compressed.status).toBe(415);
    const unsupported = refusal('the request body has an unsupported Content-Encoding', 'UNSUPPORTED_MEDIA_TYPE');
    expect(await compressed.json()).toEqual(unsupported);
  });

  it('answer 503 SERVICE_UNAVAILABLE when the database cannot be reached, with no detail in the body', async () => {
    // Port 1 on loopback: nothing listens there, so every connection is refused.
    const unreachable = createDb({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere',
      dataDir: null,
      logger: createLogger('silent'),
    });
    const unreachableService = await startTestService(unreachable);
    try {
      const response = await unreachableService.request('/v1/list-clerks.php?key=demo-partner-key');
      expect(response.status).toBe(503);
      const body = await response.json();
      expect(body).toEqual({
        valid: false,
        message: 'the service is temporarily unavailable; retry shortly',
        error: { code: 'SERVICE_UNAVAILABLE', message: 'the service is temporarily unavailable; retry shortly' },
      });
      const graph = await unreachableService.graphql('{ clerks { id } }', { 'x-api-key': 'demo-partner-key' });
      expect(graph.status).toBe(503);
      expect(graph.body.errors).toEqual([
        {
          message: 'the service is temporarily unavailable; retry shortly',
          extensions: { code: 'SERVICE_UNAVAILABLE' },
        },
      ]);
    } finally {
      await unreachableService.close();
      await unreachable.destroy();
    }
  });
});

describe('/graphql', () => {
  it('serves Apollo Sandbox to a browser outside production', async () => {
    const response = await service().request('/graphql', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('sandbox');
  });

  it("answers the slice's data the same as the legacy route does", async () => {
    const legacy = (await (await service().request('/v1/list-merchants.php?key=demo-partner-key')).json()) as any;
    const graph = await service().graphql(
      '{ merchants { id name address { street street2 city state postalCode country } phoneNumber } }',
      { 'x-api-key': 'demo-partner-key' },
    );
    expect(graph.body.data.merchants).toEqual(legacy.merchants);
  });
});
