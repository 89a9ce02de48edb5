// In production mode the graph does not describe itself: no introspection, no Apollo Sandbox, no
// schema names suggested in errors; the browser pages keep / (no demo keys) and a read-only /docs, no GraphiQL.
import type { Server } from 'node:http';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type AppDeps, createApp } from '../../src/app.js';
import { createLogger } from '../../src/kernel/logger.js';
import { pageAsset } from '../../src/pages/assets.js';
import { serviceLayers } from '../../src/serviceLayers.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { TEST_TOKENS, TEST_UNLOCK_KEYS } from '../support/service.js';

let database: TestDatabase;
let server: Server;
let stop: () => Promise<void>;
let baseUrl: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const deps: AppDeps = {
    db: database.db,
    logger: createLogger('silent'),
    now: () => new Date(),
    production: true,
    tokens: TEST_TOKENS,
    unlockKeys: TEST_UNLOCK_KEYS,
  };
  const app = await createApp(deps, serviceLayers(deps));
  stop = app.stop;
  server = app.app.listen(0, '127.0.0.1');
  app.subscriptions.attach(server);
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server?.close(() => resolve());
    server?.closeAllConnections();
  });
  await stop?.();
  await database?.destroy();
});

/** One subscribe on the WebSocket door with the operator's key: the errors it is refused with, or what came instead. */
async function subscribeOnce(query: string): Promise<unknown> {
  const client = createClient({
    url: `${baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { 'X-Api-Key': 'demo-operator-key' },
    retryAttempts: 0,
  });
  try {
    return await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query },
        { next: () => resolve('answered'), error: resolve, complete: () => resolve('completed') },
      );
    });
  } finally {
    await client.dispose();
  }
}

describe('production mode', () => {
  it('refuses introspection', async () => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
      body: JSON.stringify({ query: '{ __schema { types { name } } }' }),
    });
    const body = (await response.json()) as {
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
      data?: unknown;
    };
    expect(response.status).toBe(400);
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.extensions?.code).toBe('INTROSPECTION_DISABLED');
    expect(body.errors?.[0]?.message).toMatch(/introspection is turned off in production/);
    // The service's own words: nothing about how Apollo Server is configured.
    expect(JSON.stringify(body)).not.toMatch(/ApolloServer|introspection: true/);
  });

  it('refuses introspection reached through fragments, and __type, with the same code', async () => {
    for (const query of [
      'query { ...Root } fragment Root on Query { ... on Query { __type(name: "Query") { name } } }',
      '{ clerks { id } __schema { queryType { name } } }',
    ]) {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as { errors?: Array<{ extensions?: { code?: string } }>; data?: unknown };
      expect(response.status, query).toBe(400);
      expect(body.data, query).toBeUndefined();
      expect(
        body.errors?.map((error) => error.extensions?.code),
        query,
      ).toEqual(['INTROSPECTION_DISABLED']);
    }
  });

  it('refuses introspection on the WebSocket door with the same code', async () => {
    const errors = await subscribeOnce('{ __schema { types { name } } }');
    expect(Array.isArray(errors)).toBe(true);
    const codes = (errors as Array<{ extensions?: { code?: string } }>).map((error) => error.extensions?.code);
    expect(codes).toEqual(['INTROSPECTION_DISABLED']);
  });

  it('names no field of the schema a client did not ask for ("Did you mean"), on HTTP and on the WebSocket door', async () => {
    const query = 'subscription { events { idd } }';
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
      body: JSON.stringify({ query }),
    });
    const overHttp = ((await response.json()) as { errors: Array<{ message: string; extensions: unknown }> }).errors;
    const errors = await subscribeOnce(query);
    const expected = {
      message: 'Cannot query field "idd" on type "Event".',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    };
    expect(overHttp).toEqual([expect.objectContaining(expected)]);
    expect(errors).toEqual([expect.objectContaining(expected)]);
  });

  it('answers __typename, which is no introspection of the schema', async () => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('serves no Sandbox page', async () => {
    const response = await fetch(`${baseUrl}/graphql`, { headers: { accept: 'text/html' } });
    expect(await response.text()).not.toContain('sandbox');
  });

  it('names nothing of the schema in an error: no "Did you mean" suggestions', async () => {
    const ask = async (query: string) => {
      const response = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
        body: JSON.stringify({ query }),
      });
      expect(response.status).toBe(400);
      return ((await response.json()) as { errors: Array<{ message: string }> }).errors
        .map((error) => error.message)
        .join(' ');
    };
    // Outside production the same mistakes are answered with the names they were close to.
    const misspelt = await ask('{ clerkz { id } merchants { nam } }');
    expect(misspelt).toMatch(/Cannot query field "clerkz"/);
    expect(misspelt).not.toMatch(/Did you mean/i);
    expect(misspelt).not.toMatch(/"clerks"|"name"/);
    expect(await ask('query($x: Strin) { clerks { id } }')).not.toMatch(/Did you mean|"String"/);
  });

  it('still answers ordinary queries', async () => {
    const response = await fetch(`${baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'demo-partner-key' },
      body: JSON.stringify({ query: '{ clerks { id } }' }),
    });
    expect(((await response.json()) as { data: { clerks: unknown[] } }).data.clerks).toHaveLength(3);
  });

  it('serves / without the demo keys (the database holds them), a read-only /docs, and no GraphiQL', async () => {
    const landing = await fetch(`${baseUrl}/`);
    expect(landing.status).toBe(200);
    const html = await landing.text();
    expect(html).not.toMatch(/-key\b/); // demo-partner-key, other-vendor-key, ...
    expect(html).not.toContain('/graphiql');
    expect(html).toContain('href="/docs"');
    const docs = await fetch(`${baseUrl}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('data-try-it-out="false"');
    expect((await fetch(`${baseUrl}${pageAsset('docs.js').url}`)).status).toBe(200);
    expect((await fetch(`${baseUrl}/graphiql`)).status).toBe(404);
    for (const asset of ['graphiql.js', 'graphiql-page.js', 'react.js'] as const) {
      expect((await fetch(`${baseUrl}${pageAsset(asset).url}`)).status, asset).toBe(404);
    }
  });
});
