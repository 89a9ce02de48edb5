// The logs of a full run hold no secret. The service runs with a pino logger at level trace writing to
// memory, and every door is exercised with every kind of credential: every golden request (keys in
// query strings, bearer tokens, apiKey bodies), GraphQL with X-Api-Key and Authorization: Bearer (keys
// and access tokens), createAccessToken, createApiKey (whose secret is shown once), failing requests
// (unknown keys, revoked keys, tampered and forged tokens, a key written into the path), a masked
// unexpected error and a database that cannot be reached. Then no log line may contain a demo key,
// a key or token the run created or used, the database password or the token signing secret; and
// every request has exactly one request line with requestId, method, path, route, status, principal
// and ms; every line has an ISO 8601 time and a level's name. What a production process writes to
// stdout, start to exit, is test/production/production-logs.test.ts.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { createLogger } from '../../src/kernel/logger.js';
import { hashApiKey } from '../../src/modules/auth/keys.js';
import type { LoggedPrincipal } from '../../src/modules/auth/principal.js';
import { LEGACY_ROUTES } from '../../src/rest/routes.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { goldenFiles, goldenFolders, goldenInit, readGolden, useGoldenService } from '../support/golden.js';
import { startTestService, TEST_TOKENS, type TestService } from '../support/service.js';

const DEMO_KEYS = [
  'demo-partner-key',
  'demo-retail-key',
  'other-partner-key',
  'other-retail-key',
  'demo-vendor-key',
  'other-vendor-key',
  'demo-operator-key',
];
const DB_PASSWORD = `db-password-${randomBytes(8).toString('hex')}`;

// ---------------------------------------------------------------------------------------------------
// What the run logs, what it sent, and every secret it used.

const logText: string[] = [];
const logger = createLogger('trace', { write: (line: string) => void logText.push(line) });
const logLines = () =>
  logText
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

interface Sent {
  requestId: string;
  method: string;
  /** The path sent, without its query string. */
  path: string;
  status: number;
  /** The principal the request line must name, when the test knows it. */
  principal?: LoggedPrincipal | null;
}
const sent: Sent[] = [];
const secrets = new Set<string>();

/** Remembers a credential the run used; short values (e.g. the golden "12345") would match anything. */
function secret(value: unknown): void {
  if (typeof value !== 'string') return;
  const credential = value.replace(/^(Bearer|Basic)\s+/i, '').trim();
  if (credential.length < 8) return;
  secrets.add(credential);
  // A token's signature alone is what makes it a credential.
  const signature = credential.split('.').at(-1)!;
  if (credential.includes('.') && signature.length >= 16) secrets.add(signature);
}

/** Every string under a key that names a secret (the signing settings, whatever their shape). */
function secretStrings(value: unknown, underSecretKey = false): string[] {
  if (typeof value === 'string') return underSecretKey ? [value] : [];
  if (Array.isArray(value)) return value.flatMap((item) => secretStrings(item, underSecretKey));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => secretStrings(item, underSecretKey || /secret/i.test(key)));
  }
  return [];
}

let counter = 0;
const VIEWER = '{ viewer { kind keyKind viaAccessToken } }';
/** A valid access token of the run, for the unreachable database. */
let someToken = '';

/** One request, tagged with its own X-Request-ID so its request line can be found. */
async function send(
  service: TestService,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
  principal?: LoggedPrincipal | null,
): Promise<Response> {
  const requestId = `logs-${++counter}`;
  const method = init.method ?? 'GET';
  const response = await service.request(path, {
    ...init,
    method,
    headers: { ...init.headers, 'x-request-id': requestId },
  });
  sent.push({ requestId, method, path: path.replace(/\?.*$/s, ''), status: response.status, principal });
  return response;
}

async function graphql(
  service: TestService,
  query: string,
  headers: Record<string, string> = {},
  variables?: Record<string, unknown>,
  principal?: LoggedPrincipal | null,
): Promise<{ status: number; body: any }> {
  const response = await send(
    service,
    '/graphql',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    },
    principal,
  );
  return { status: response.status, body: await response.json() };
}

const postJson = (
  service: TestService,
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
  principal?: LoggedPrincipal | null,
) =>
  send(
    service,
    path,
    { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(json) },
    principal,
  );

/** The principal a request line shows for `key` (looked up by its hash, as the service does). */
async function principalOf(db: Db, key: string, viaToken = false): Promise<LoggedPrincipal> {
  const row = await db('api_keys')
    .where({ key_hash: hashApiKey(key) })
    .first();
  expect(row, `api key ${key.slice(0, 8)}...`).toBeDefined();
  const kind = row.kind === 'retail' ? 'partner' : row.kind;
  return { kind, keyKind: row.kind, keyId: String(row.id), viaToken };
}

/** A token with one character of its signature changed, and one signed with another secret. */
function tampered(token: string): string {
  const last = token.at(-1) === 'A' ? 'B' : 'A';
  return `${token.slice(0, -1)}${last}`;
}
function forged(token: string): string {
  return `${token.slice(0, token.lastIndexOf('.'))}.${randomBytes(32).toString('base64url')}`;
}

// ---------------------------------------------------------------------------------------------------

beforeAll(() => {
  for (const key of DEMO_KEYS) secret(key);
  for (const value of secretStrings(TEST_TOKENS)) secret(value);
  secret(DB_PASSWORD);
  expect(secrets.size).toBeGreaterThan(DEMO_KEYS.length);
});

describe('a full run, logged at level trace', () => {
  // Every golden request, each folder on its own seeded database with the golden clock (as
  // test/rest/golden.test.ts runs them), so each answers as its file says.
  for (const folder of goldenFolders()) {
    describe(`golden: ${folder}`, () => {
      const fixture = useGoldenService({ logger });

      it('replays every request of the folder', async () => {
        const cases = goldenFiles(folder);
        expect(cases.length).toBeGreaterThan(0);
        for (const file of cases) {
          const golden = readGolden(folder, file);
          const { request } = golden;
          const query = request.path.includes('?') ? request.path.slice(request.path.indexOf('?') + 1) : '';
          for (const key of new URLSearchParams(query).getAll('key')) secret(key);
          for (const [name, value] of Object.entries(request.headers ?? {}))
            if (/authorization|api-key/i.test(name)) secret(value);
          secret((request.json as { apiKey?: unknown } | undefined)?.apiKey);
          secret(golden.response.body?.data?.access_token);
          const response = await send(fixture.service, request.path, goldenInit(request));
          expect(response.status, `${folder}/${file}`).toBe(golden.response.status);
          secret(((await response.json()) as any)?.data?.access_token);
        }
      });
    });
  }

  describe('on one seeded database', () => {
    let database: TestDatabase;
    let service: TestService;
    beforeAll(async () => {
      database = await createTestDatabase();
      service = await startTestService(database.db, { logger });
    });
    afterAll(async () => {
      await service?.close();
      await database?.destroy();
    });

    it('GraphQL with every demo key, as X-Api-Key and as Authorization: Bearer; the request line names the principal', async () => {
      for (const key of DEMO_KEYS) {
        const principal = await principalOf(database.db, key);
        for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }] as Array<
          Record<string, string>
        >) {
          const { body } = await graphql(service, VIEWER, headers, undefined, principal);
          expect(body.data.viewer).toEqual({
            kind: principal.kind.toUpperCase(),
            keyKind: principal.keyKind.toUpperCase(),
            viaAccessToken: false,
          });
        }
        // And on the partner interface, where the key travels in the query string.
        await send(service, `/v1/list-clerks.php?key=${encodeURIComponent(key)}`, {}, principal);
      }
    });

    it('access tokens: bought through both doors (inline literal and variable), used as Bearer and as X-Api-Key, tampered and forged', async () => {
      const inline = await graphql(
        service,
        'mutation { createAccessToken(apiKey: "demo-vendor-key") { accessToken } }',
      );
      const viaVariable = await graphql(
        service,
        'mutation($k: String!) { createAccessToken(apiKey: $k) { accessToken } }',
        {},
        { k: 'demo-operator-key' },
      );
      const rest = await postJson(service, '/payments/v1/token', { apiKey: 'other-vendor-key' }, {}, null);
      const vendorToken: string = inline.body.data.createAccessToken.accessToken;
      const operatorToken: string = viaVariable.body.data.createAccessToken.accessToken;
      const otherVendorToken: string = ((await rest.json()) as any).data.access_token;
      for (const token of [vendorToken, operatorToken, otherVendorToken]) secret(token);
      someToken = vendorToken;

      const asVendor = await principalOf(database.db, 'demo-vendor-key', true);
      const asOperator = await principalOf(database.db, 'demo-operator-key', true);
      expect(
        (await graphql(service, VIEWER, { authorization: `Bearer ${vendorToken}` }, undefined, asVendor)).body.data
          .viewer.viaAccessToken,
      ).toBe(true);
      expect(
        (await graphql(service, VIEWER, { 'x-api-key': operatorToken }, undefined, asOperator)).body.data.viewer
          .viaAccessToken,
      ).toBe(true);

      // The vendor token notifies a payment through both doors.
      const notification = (reference: string) => ({
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference,
        deviceTag: 'DTSTBBD',
      });
      expect(
        (
          await postJson(
            service,
            '/payments/v1/notification',
            notification('LOGS-1'),
            { authorization: `Bearer ${vendorToken}` },
            asVendor,
          )
        ).status,
      ).toBe(200);
      const viaGraph = await graphql(
        service,
        'mutation($n: JSON!) { createPaymentNotification(notification: $n) { message } }',
        { authorization: `Bearer ${vendorToken}` },
        { n: notification('LOGS-2') },
        asVendor,
      );
      expect(viaGraph.body.errors).toBeUndefined();

      for (const bad of [tampered(vendorToken), forged(operatorToken)]) {
        secret(bad);
        expect(
          (await graphql(service, VIEWER, { authorization: `Bearer ${bad}` }, undefined, null)).body.errors[0]
            .extensions.code,
        ).toBe('INVALID_ACCESS_TOKEN');
        expect(
          (
            await postJson(
              service,
              '/payments/v1/notification',
              notification('LOGS-X'),
              { authorization: `Bearer ${bad}` },
              null,
            )
          ).status,
        ).toBe(401);
      }
    });

    it('createApiKey: the secret shown once works on both doors, buys a token, and fails once revoked', async () => {
      const partnerId = String((await database.db('partners').where({ name: 'Demo Retail' }).first()).id);
      const vendorId = String((await database.db('payment_vendors').where({ name: 'demo-vendor' }).first()).id);
      const operator = { 'x-api-key': 'demo-operator-key' };
      const asOperator = await principalOf(database.db, 'demo-operator-key');
      const CREATE = 'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }';
      const retail = (
        await graphql(service, CREATE, operator, { input: { kind: 'RETAIL', partnerId, label: 'logs' } }, asOperator)
      ).body.data.createApiKey;
      const vendor = (
        await graphql(service, CREATE, operator, { input: { kind: 'VENDOR', paymentVendorId: vendorId } }, asOperator)
      ).body.data.createApiKey;
      secret(retail.secret);
      secret(vendor.secret);

      const asRetail: LoggedPrincipal = {
        kind: 'partner',
        keyKind: 'retail',
        keyId: retail.apiKey.id,
        viaToken: false,
      };
      expect(
        (await send(service, `/v1/list-clerks.php?key=${encodeURIComponent(retail.secret)}`, {}, asRetail)).status,
      ).toBe(200);
      expect(
        (await graphql(service, '{ clerks { id } }', { 'x-api-key': retail.secret }, undefined, asRetail)).body.data
          .clerks,
      ).toHaveLength(3);
      expect(
        (
          await graphql(
            service,
            '{ merchants { id } }',
            { authorization: `Bearer ${retail.secret}` },
            undefined,
            asRetail,
          )
        ).body.data.merchants,
      ).toHaveLength(3);

      const bought = await postJson(service, '/payments/v1/token', { apiKey: vendor.secret }, {}, null);
      const vendorToken: string = ((await bought.json()) as any).data.access_token;
      secret(vendorToken);
      const asNewVendor: LoggedPrincipal = {
        kind: 'vendor',
        keyKind: 'vendor',
        keyId: vendor.apiKey.id,
        viaToken: true,
      };
      expect(
        (await graphql(service, VIEWER, { authorization: `Bearer ${vendorToken}` }, undefined, asNewVendor)).body.data
          .viewer.kind,
      ).toBe('VENDOR');

      for (const id of [retail.apiKey.id, vendor.apiKey.id]) {
        expect(
          (
            await graphql(
              service,
              'mutation($id: ID!) { revokeApiKey(id: $id) { active } }',
              operator,
              { id },
              asOperator,
            )
          ).body.data.revokeApiKey.active,
        ).toBe(false);
      }
      expect(
        (await send(service, `/v1/list-clerks.php?key=${encodeURIComponent(retail.secret)}`, {}, null)).status,
      ).toBe(401);
      expect(
        (await graphql(service, VIEWER, { authorization: `Bearer ${vendorToken}` }, undefined, null)).body.errors[0]
          .extensions.code,
      ).toBe('INVALID_ACCESS_TOKEN');
      expect((await postJson(service, '/payments/v1/token', { apiKey: vendor.secret }, {}, null)).status).toBe(401);
    });

    it('failing requests: unknown keys on every door, a key written into the path, bodies that cannot be read', async () => {
      const unknown = `unknown-key-${randomBytes(6).toString('hex')}`;
      secret(unknown);
      expect((await send(service, `/v1/list-merchants.php?key=${unknown}`, {}, null)).status).toBe(401);
      expect(
        (await graphql(service, VIEWER, { 'x-api-key': unknown }, undefined, null)).body.errors[0].extensions.code,
      ).toBe('INVALID_API_KEY');
      expect(
        (await graphql(service, VIEWER, { authorization: `Bearer ${unknown}` }, undefined, null)).body.errors[0]
          .extensions.code,
      ).toBe('INVALID_API_KEY');
      expect(
        (await graphql(service, `mutation { createAccessToken(apiKey: "${unknown}") { accessToken } }`)).body.errors[0]
          .extensions.code,
      ).toBe('INVALID_API_KEY');
      expect((await postJson(service, '/payments/v1/token', { apiKey: unknown }, {}, null)).status).toBe(401);
      expect(
        (await postJson(service, '/payments/v1/notification', {}, { authorization: `Bearer ${unknown}` }, null)).status,
      ).toBe(401);

      // A client that writes the key into the path: "&" for "?", or an encoded "?".
      expect((await send(service, '/v1/list-clerks.php&key=demo-partner-key', {}, null)).status).toBe(404);
      expect((await send(service, '/v1/list-clerks.php%3Fkey%3Ddemo-retail-key', {}, null)).status).toBe(404);
      expect((await send(service, '/payments/v1/token;apiKey=demo-vendor-key', { method: 'POST' }, null)).status).toBe(
        404,
      );
      // Bodies that cannot be read, with a credential beside them.
      expect(
        (
          await send(
            service,
            '/graphql',
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': 'demo-operator-key' },
              body: '{"query": "demo-operator-key',
            },
            null,
          )
        ).status,
      ).toBe(400);
      expect(
        (
          await send(
            service,
            '/payments/v1/token',
            { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"apiKey": "demo-vendor-key"' },
            null,
          )
        ).status,
      ).toBe(400);
      expect((await send(service, '/openapi.json', {}, null)).status).toBe(200);
    });

    it('a masked unexpected error (a table gone) on both doors, while keys are being presented', async () => {
      await database.db.raw('alter table api_keys rename to api_keys_gone');
      try {
        const partner = await send(service, '/v1/list-clerks.php?key=demo-partner-key', {}, null);
        expect(partner.status).toBe(500);
        const partnerRequestId = sent.at(-1)!.requestId;
        const graph = await graphql(service, VIEWER, { 'x-api-key': 'demo-operator-key' }, undefined, null);
        expect(graph.body.errors[0].extensions.code).toBe('INTERNAL_SERVER_ERROR');
        const token = await graphql(
          service,
          'mutation { createAccessToken(apiKey: "demo-vendor-key") { accessToken } }',
          {},
          undefined,
          null,
        );
        expect(token.body.errors[0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR', errorId: expect.any(String) });
        expect((await postJson(service, '/payments/v1/token', { apiKey: 'demo-vendor-key' }, {}, null)).status).toBe(
          500,
        );
        // Each was logged with its error id: the detail is in the log, and this test reads it.
        const errorIds = new Set(logLines().map((line) => line.errorId));
        expect(errorIds.has(graph.body.errors[0].extensions.errorId)).toBe(true);
        expect(errorIds.has(token.body.errors[0].extensions.errorId)).toBe(true);
        expect(
          logLines().some(
            (line) => line.msg === 'unexpected error' && line.requestId === partnerRequestId && line.errorId,
          ),
        ).toBe(true);
      } finally {
        await database.db.raw('alter table api_keys_gone rename to api_keys');
      }
    });
  });

  it('an unexpected error: a database that cannot be reached (with a password in its URL)', async () => {
    // Port 1 on loopback: nothing listens there.
    const unreachable = createDb({
      databaseUrl: `postgres://postgres:${DB_PASSWORD}@127.0.0.1:1/nowhere`,
      dataDir: null,
      logger,
    });
    const service = await startTestService(unreachable, { logger });
    try {
      expect((await send(service, '/v1/list-clerks.php?key=demo-partner-key', {}, null)).status).toBe(503);
      expect((await graphql(service, VIEWER, { 'x-api-key': 'demo-operator-key' }, undefined, null)).status).toBe(503);
      expect((await graphql(service, VIEWER, { authorization: `Bearer ${someToken}` }, undefined, null)).status).toBe(
        503,
      );
      const token = await graphql(
        service,
        'mutation { createAccessToken(apiKey: "demo-vendor-key") { accessToken } }',
        {},
        undefined,
        null,
      );
      expect(token.body.errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
      expect((await postJson(service, '/payments/v1/token', { apiKey: 'demo-vendor-key' }, {}, null)).status).toBe(503);
    } finally {
      await service.close();
      await unreachable.destroy();
    }
  });
});

describe('what the run logged', () => {
  it('logged at every level it has something to say: request lines, warnings and masked errors with their detail', () => {
    const lines = logLines();
    expect(lines.filter((line) => line.msg === 'request').length).toBe(sent.length);
    expect(lines.some((line) => line.msg === 'api key created')).toBe(true);
    expect(
      lines.some((line) => line.level === 'warn' && line.msg === 'database unavailable while authenticating'),
    ).toBe(true);
    expect(lines.some((line) => line.level === 'error' && typeof line.errorId === 'string' && line.err)).toBe(true);
  });

  it('every line has an ISO 8601 time and a level by its name', () => {
    const lines = logLines();
    expect(lines.length).toBeGreaterThan(sent.length);
    const levels = new Set(lines.map((line) => line.level));
    expect(
      [...levels].filter((level) => !['trace', 'debug', 'info', 'warn', 'error', 'fatal'].includes(level as string)),
    ).toEqual([]);
    expect(lines.filter((line) => !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(line.time as string))).toEqual(
      [],
    );
    // Tracing is off in this process: no line names a trace.
    expect(lines.filter((line) => 'trace_id' in line || 'traceId' in line)).toEqual([]);
  });

  it('no log line contains a key, a token, the database password or the token signing secret', () => {
    const leaks = [...secrets].flatMap((value) =>
      logText
        .join('')
        .split('\n')
        .filter((line) => line.includes(value))
        .map((line) => ({ secret: `${value.slice(0, 12)}...`, line })),
    );
    expect(leaks).toEqual([]);
    expect(secrets.size).toBeGreaterThan(20);
  });

  it('every request has exactly one request line: requestId, method, path (no query string), route, status, principal, ms', () => {
    const requestLines = logLines().filter((line) => line.msg === 'request');
    const routes = new Set([
      ...LEGACY_ROUTES.map((route) => route.path),
      ...['/graphql', '/openapi.json', '/healthz', '/readyz', '/metrics', 'unmatched'],
    ]);
    for (const request of sent) {
      const mine = requestLines.filter((line) => line.requestId === request.requestId);
      expect(mine, request.requestId).toHaveLength(1);
      const line = mine[0]!;
      // A probe or the scrape that succeeds is written at debug, any other request at info.
      const probe = ['/healthz', '/readyz', '/metrics'].includes(request.path) && request.status < 300;
      expect(line).toMatchObject({ level: probe ? 'debug' : 'info', method: request.method, status: request.status });
      expect(
        typeof line.path === 'string' && line.path.startsWith('/') && !line.path.includes('?'),
        String(line.path),
      ).toBe(true);
      expect(routes.has(line.route as string), String(line.route)).toBe(true);
      expect(typeof line.ms === 'number' && line.ms >= 0).toBe(true);
      if (line.principal !== null)
        expect(Object.keys(line.principal as object).sort()).toEqual(['keyId', 'keyKind', 'kind', 'viaToken']);
      if (request.principal !== undefined) expect(line.principal, request.requestId).toEqual(request.principal);
    }
    // The route is the template: a legacy path as routed, /graphql for the graph, "unmatched" otherwise.
    const byId = new Map(requestLines.map((line) => [line.requestId, line]));
    for (const line of byId.values()) {
      if (line.route === '/graphql') expect(line.path).toBe('/graphql');
      if (line.route !== 'unmatched' && line.route !== '/graphql') expect(line.path).toBe(line.route);
    }
  });
});
