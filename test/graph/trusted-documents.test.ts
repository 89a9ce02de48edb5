// Persisted operations (decisions.md 33): Apollo's automatic persisted queries are off (a hash alone is
// a clear 400), and with a manifest of trusted documents (GRAPHQL_TRUSTED_DOCUMENTS) callers other than
// operators run only its documents, by id or by exact text, on /graphql and on the WebSocket; operators
// run anything; the REST door's routes answer their golden files unchanged. A bad manifest stops the
// start with one line.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { ConfigError, loadConfig } from '../../src/kernel/config.js';
import { parseTrustedDocuments, type TrustedDocuments } from '../../src/kernel/trustedDocuments.js';
import { LEGACY_ROUTES } from '../../src/rest/routes.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { GOLDEN_NOW, goldenFiles, goldenFolders, goldenInit, readGolden } from '../support/golden.js';
import { startTestService, type TestService } from '../support/service.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// What a dashboard ships: its operations by id (the hash its build tool wrote).
const MERCHANTS = 'query DashboardMerchants { merchants(first: 2) { id name } }';
const TOKEN = 'mutation DashboardToken($apiKey: String!) { createAccessToken(apiKey: $apiKey) { accessToken } }';
const EVENTS = 'subscription DashboardEvents { events { id type } }';
const MANIFEST = Object.fromEntries([MERCHANTS, TOKEN, EVENTS].map((text) => [sha256(text), text]));
// Not in the manifest: any other document, however harmless.
const OTHER = 'query Other { merchants(first: 1) { id } }';

const PARTNER = { 'x-api-key': 'demo-partner-key' };
const RETAIL = { 'x-api-key': 'demo-retail-key' };
const VENDOR = { 'x-api-key': 'demo-vendor-key' };
const OPERATOR = { 'x-api-key': 'demo-operator-key' };

const trusted: TrustedDocuments = parseTrustedDocuments('dashboard.json', JSON.stringify(MANIFEST));

let database: TestDatabase;
let service: TestService;
let plain: TestService;

beforeAll(async () => {
  database = await createTestDatabase();
  service = await startTestService(database.db, { trustedDocuments: trusted });
  plain = await startTestService(database.db);
});
afterAll(async () => {
  await service?.close();
  await plain?.close();
  await database?.destroy();
});

/** POSTs a raw /graphql body (an id, text or both). */
async function post(target: TestService, body: unknown, headers: Record<string, string>) {
  const response = await target.request('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('automatic persisted queries are off', () => {
  it('a hash without the mode is 400 PERSISTED_QUERY_NOT_SUPPORTED, saying to send the text', async () => {
    for (const body of [
      { extensions: persisted(sha256(MERCHANTS)) },
      { query: MERCHANTS, extensions: persisted(sha256(MERCHANTS)) },
    ]) {
      const { status, body: answer } = await post(plain, body, PARTNER);
      expect(status).toBe(400);
      expect(answer.data).toBeUndefined();
      expect(answer.errors).toHaveLength(1);
      expect(answer.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
      expect(answer.errors[0].message).toMatch(/no automatic persisted queries: send the document's text in `query`/);
    }
    // What Apollo Client's link does next: the text alone, which runs.
    const retried = await post(plain, { query: MERCHANTS }, PARTNER);
    expect(retried.status).toBe(200);
    expect(retried.body.data.merchants.length).toBeGreaterThan(0);
  });

  it('a hash is not registered by sending it with its text: the next hash alone is still refused', async () => {
    const text = 'query Registered { merchants(first: 1) { name } }';
    await post(plain, { query: text, extensions: persisted(sha256(text)) }, PARTNER);
    const { status, body } = await post(plain, { extensions: persisted(sha256(text)) }, PARTNER);
    expect(status).toBe(400);
    expect(body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_SUPPORTED');
  });

  it('without the mode any caller runs any document, as before', async () => {
    const { status, body } = await plain.graphql(OTHER, PARTNER);
    expect(status).toBe(200);
    expect(body.data.merchants).toHaveLength(1);
  });
});

describe('trusted documents: callers other than operators', () => {
  it('run a manifest document by its id (Apollo Client: extensions.persistedQuery), by POST and by GET', async () => {
    const byPost = await post(service, { extensions: persisted(sha256(MERCHANTS)) }, PARTNER);
    expect(byPost.status).toBe(200);
    expect(byPost.body.data.merchants).toHaveLength(2);
    const search = new URLSearchParams({ extensions: JSON.stringify(persisted(sha256(MERCHANTS))) });
    const byGet = await service.request(`/graphql?${search}`, {
      headers: { ...PARTNER, 'apollo-require-preflight': 'true' },
    });
    expect(byGet.status).toBe(200);
    expect(((await byGet.json()) as any).data).toEqual(byPost.body.data);
  });

  it('run it by documentId (GraphQL over HTTP) and by its exact text', async () => {
    const byDocumentId = await post(service, { documentId: sha256(MERCHANTS) }, RETAIL);
    expect(byDocumentId.status).toBe(200);
    expect(byDocumentId.body.data.merchants).toHaveLength(2);
    const byText = await service.graphql(MERCHANTS, PARTNER);
    expect(byText.status).toBe(200);
    expect(byText.body.data).toEqual(byDocumentId.body.data);
    const withBoth = await post(service, { query: MERCHANTS, extensions: persisted(sha256(MERCHANTS)) }, PARTNER);
    expect(withBoth.status).toBe(200);
    expect(withBoth.body.data).toEqual(byText.body.data);
  });

  it('are refused 403 DOCUMENT_NOT_TRUSTED for any other text, naming the mode, and nothing runs', async () => {
    // A text differing by one space is another document.
    for (const [query, headers] of [
      [OTHER, PARTNER],
      [OTHER, RETAIL],
      [MERCHANTS.replace('{ merchants', '{  merchants'), PARTNER],
      ['{ __typename }', VENDOR],
    ] as const) {
      const { status, body } = await service.graphql(query, headers);
      expect(status, query).toBe(403);
      expect(body.data).toBeUndefined();
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0].extensions).toEqual({ code: 'DOCUMENT_NOT_TRUSTED' });
      expect(body.errors[0].message).toMatch(
        /only trusted documents \(GRAPHQL_TRUSTED_DOCUMENTS\) run for this caller/,
      );
    }
  });

  it('are refused before the document is parsed: a text that does not parse is 403 too, not a syntax error', async () => {
    const { status, body } = await service.graphql('query { merchants(', PARTNER);
    expect(status).toBe(403);
    expect(body.errors[0].extensions.code).toBe('DOCUMENT_NOT_TRUSTED');
  });

  it("an unknown id alone is 400 PERSISTED_QUERY_NOT_FOUND; with a text, the text decides; a known id's other text is 400", async () => {
    for (const headers of [PARTNER, OPERATOR]) {
      const unknown = await post(service, { extensions: persisted(sha256(OTHER)) }, headers);
      expect(unknown.status).toBe(400);
      expect(unknown.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
      expect(unknown.body.errors[0].message).toContain(sha256(OTHER));
      const mismatched = await post(service, { query: OTHER, extensions: persisted(sha256(MERCHANTS)) }, headers);
      expect(mismatched.status).toBe(400);
      expect(mismatched.body.errors[0].extensions.code).toBe('BAD_REQUEST');
      expect(mismatched.body.data).toBeUndefined();
    }
    // Apollo Client's retry after NOT_FOUND: the text with its own hash. An operator's runs...
    const partners = '{ partners(first: 1) { name } }';
    const retried = await post(service, { query: partners, extensions: persisted(sha256(partners)) }, OPERATOR);
    expect(retried.status).toBe(200);
    expect(retried.body.data.partners).toHaveLength(1);
    // ...a partner's is held to the manifest like any text, and a manifest text with an unlisted hash runs.
    const partnerRetry = await post(service, { query: OTHER, extensions: persisted(sha256(OTHER)) }, PARTNER);
    expect(partnerRetry.status).toBe(403);
    expect(partnerRetry.body.errors[0].extensions.code).toBe('DOCUMENT_NOT_TRUSTED');
    const otherHash = await post(service, { query: MERCHANTS, extensions: persisted('sha1-or-other') }, PARTNER);
    expect(otherHash.status).toBe(200);
    expect(otherHash.body.data.merchants).toHaveLength(2);
  });

  it('a request without a credential buys a token only with a manifest document; an access token keeps its key kind', async () => {
    const untrusted = await service.graphql(
      'mutation { createAccessToken(apiKey: "demo-vendor-key") { accessToken } }',
    );
    expect(untrusted.status).toBe(403);
    expect(untrusted.body.errors[0].extensions.code).toBe('DOCUMENT_NOT_TRUSTED');
    // Without a credential an id is not enough (decisions.md 11: its document is not in the request).
    const byId = await post(service, { extensions: persisted(sha256(TOKEN)), variables: { apiKey: 'x' } }, {});
    expect(byId.status).toBe(401);
    const bought = await service.graphql(TOKEN, {}, { apiKey: 'demo-vendor-key' });
    expect(bought.status).toBe(200);
    const bearer = { authorization: `Bearer ${bought.body.data.createAccessToken.accessToken}` };
    const refused = await service.graphql(OTHER, bearer);
    expect(refused.status).toBe(403);
    // An operator's token is an operator.
    const operatorToken = await service.graphql(TOKEN, {}, { apiKey: 'demo-operator-key' });
    const operatorBearer = { authorization: `Bearer ${operatorToken.body.data.createAccessToken.accessToken}` };
    const ran = await service.graphql('{ partners(first: 1) { name } }', operatorBearer);
    expect(ran.status).toBe(200);
    expect(ran.body.data.partners).toHaveLength(1);
  });
});

describe('trusted documents: operator keys', () => {
  it('run any document, as without the mode, and manifest ids too', async () => {
    const any = await service.graphql('{ partners(first: 10) { name } }', OPERATOR);
    expect(any.status).toBe(200);
    expect(any.body.data.partners.length).toBeGreaterThan(0);
    expect(any.body.errors).toBeUndefined();
    const byId = await post(
      service,
      { extensions: persisted(sha256(TOKEN)), variables: { apiKey: 'demo-vendor-key' } },
      OPERATOR,
    );
    expect(byId.status).toBe(200);
    expect(byId.body.data.createAccessToken.accessToken).toEqual(expect.any(String));
  });
});

describe('trusted documents: the REST door', () => {
  it("its operations' texts are trusted on /graphql too (they only do what the routes do)", async () => {
    const route = LEGACY_ROUTES.find((candidate) => candidate.name === 'list-merchants')!;
    const { status, body } = await service.graphql(route.operation, PARTNER, {});
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
  });

  // Every golden file of the legacy routes, on its own seeded database at the golden clock, answers
  // the same status and body with the mode on: the routes' in-process operations are trusted.
  for (const folder of goldenFolders().filter((name) => name !== 'graphql')) {
    describe(`golden: ${folder}`, () => {
      const fixture = {} as { database: TestDatabase; service: TestService };
      beforeAll(async () => {
        fixture.database = await createTestDatabase({ now: GOLDEN_NOW });
        fixture.service = await startTestService(fixture.database.db, {
          now: () => GOLDEN_NOW,
          trustedDocuments: trusted,
        });
      });
      afterAll(async () => {
        await fixture.service?.close();
        await fixture.database?.destroy();
      });
      it('answers every file as recorded', async () => {
        for (const file of goldenFiles(folder)) {
          const golden = readGolden(folder, file);
          const response = await fixture.service.request(golden.request.path, goldenInit(golden.request));
          expect(response.status, file).toBe(golden.response.status);
          expect(await response.json(), file).toEqual(golden.response.body);
        }
      });
    });
  }
});

describe('trusted documents: the WebSocket door', () => {
  /** The first answer of one subscription: listening, or its error; closed again before it resolves. */
  async function firstAnswer(headers: Record<string, string>, query: string, extensions?: Record<string, unknown>) {
    const before = service.listeningSubscribers();
    const client = createClient({
      url: `${service.baseUrl.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { 'X-Api-Key': headers['x-api-key'] },
      retryAttempts: 0,
    });
    const errors: unknown[] = [];
    client.subscribe({ query, extensions } as { query: string }, {
      next: () => undefined,
      error: (error) => errors.push(error),
      complete: () => undefined,
    });
    let answer: { errors?: any[]; listening?: boolean } = {};
    await vi.waitFor(() => {
      if (errors.length > 0) answer = { errors: errors[0] as any[] };
      else if (service.listeningSubscribers() > before) answer = { listening: true };
      else throw new Error('no answer yet');
    });
    await client.dispose();
    await vi.waitFor(() => expect(service.listeningSubscribers()).toBe(before));
    return answer;
  }

  it('a partner subscribes with a manifest document (text, or id with an empty query), not with another', async () => {
    expect(await firstAnswer(PARTNER, EVENTS)).toEqual({ listening: true });
    expect(await firstAnswer(PARTNER, '', persisted(sha256(EVENTS)))).toEqual({ listening: true });
    const refused = await firstAnswer(PARTNER, 'subscription { events { id } }');
    expect(refused.errors).toHaveLength(1);
    expect(refused.errors![0].extensions).toEqual({ code: 'DOCUMENT_NOT_TRUSTED' });
    expect(refused.errors![0].message).toMatch(/GRAPHQL_TRUSTED_DOCUMENTS/);
  });

  it('an operator subscribes with any document', async () => {
    expect(await firstAnswer(OPERATOR, 'subscription { events { id } }')).toEqual({ listening: true });
  });
});

describe('GRAPHQL_TRUSTED_DOCUMENTS at start', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'dfs-trusted-documents-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const configWith = (path: string) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, GRAPHQL_TRUSTED_DOCUMENTS: path });
  const problemWith = (path: string) => {
    try {
      configWith(path);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error('no configuration error');
  };

  it('reads the map and Apollo manifest shapes, and is off when unset', () => {
    const map = configWith(file('map.json', JSON.stringify(MANIFEST))).trustedDocuments!;
    expect([...map.byId.keys()].sort()).toEqual(Object.keys(MANIFEST).sort());
    expect(map.texts.has(MERCHANTS)).toBe(true);
    const apollo = configWith(
      file(
        'apollo.json',
        JSON.stringify({
          format: 'apollo-persisted-query-manifest',
          version: 1,
          operations: [{ id: sha256(MERCHANTS), name: 'DashboardMerchants', type: 'query', body: MERCHANTS }],
        }),
      ),
    ).trustedDocuments!;
    expect(apollo.byId.get(sha256(MERCHANTS))).toBe(MERCHANTS);
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: dir }).trustedDocuments).toBeNull();
  });

  it('a bad manifest is one line naming the variable, the file and the problem', () => {
    const cases: Array<[string, RegExp]> = [
      [join(dir, 'missing.json'), /cannot be read: .*missing\.json \(ENOENT\)/],
      [file('broken.json', '{ "a": '), /is not JSON/],
      [file('list.json', '["query { a }"]'), /must hold a JSON object/],
      [file('empty.json', '{}'), /lists no document/],
      [file('number.json', '{ "abc": 42 }'), /id "abc": the document is not a text/],
      [file('syntax.json', '{ "abc": "query { merchants(" }'), /id "abc": the document does not parse \(Syntax Error/],
      [
        file('version.json', '{ "format": "apollo-persisted-query-manifest", "version": 2, "operations": [] }'),
        /only "apollo-persisted-query-manifest" version 1 is read/,
      ],
      [
        file(
          'twice.json',
          JSON.stringify({
            format: 'apollo-persisted-query-manifest',
            version: 1,
            operations: [
              { id: 'x', body: MERCHANTS },
              { id: 'x', body: OTHER },
            ],
          }),
        ),
        /id "x": the id names two different documents/,
      ],
    ];
    for (const [path, problem] of cases) {
      const message = problemWith(path);
      expect(message, path).toMatch(/^GRAPHQL_TRUSTED_DOCUMENTS /);
      expect(message, path).toMatch(problem);
      expect(message, path).not.toContain('\n');
    }
  });

  it('stops the service at start with that one line on stderr, exit code 1', async () => {
    const manifest = file('bad.json', '{}');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dir, GRAPHQL_TRUSTED_DOCUMENTS: manifest },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toBe(`configuration error: GRAPHQL_TRUSTED_DOCUMENTS file ${manifest} lists no document\n`);
    expect(stdout).toBe('');
  }, 120_000); // a process start through tsx, on a machine that may be busy
});
