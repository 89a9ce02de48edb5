// The Bruno collection (collection/, npm run collection): the committed files are what the generator
// makes of openapi.json now, and every request in them, sent as Bruno sends it, is answered by the
// real service with the demo keys of the collection's environment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnvironment, parseRequest } from '@usebruno/filestore';
import { describe, expect, it } from 'vitest';
import { COLLECTION_DIR, collectionFiles, committedCollection, OPENAPI_FILE } from '../../scripts/collection.js';
import { DEMO_DEVICE_TAG } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';
import { reportWorker } from '../support/reports.js';

interface BrunoExample {
  name: string;
  request: {
    method: string;
    headers: Array<{ name: string; value: string }>;
    params: Array<{ name: string; value: string; type: string }>;
    body: { mode: string; json?: string };
  };
}

interface BrunoRequest {
  name: string;
  examples?: BrunoExample[];
  request: {
    method: string;
    url: string;
    headers: Array<{ name: string; value: string; enabled: boolean }>;
    auth: { mode: string; bearer?: { token: string }; apikey?: { key: string; value: string; placement: string } };
    body: { mode: string; json?: string };
    script: { req?: string };
    vars: { res?: Array<{ name: string; value: string; enabled: boolean }> };
  };
}

/** <tag folder>/<operation summary>.bru: one per operation (not folder.bru, collection.bru or an environment). */
const isRequestFile = (path: string) =>
  /^[^/]+\/[^/]+\.bru$/.test(path) && !path.startsWith('environments/') && !path.endsWith('/folder.bru');

describe('the committed collection', () => {
  it('is what npm run collection makes of openapi.json now', () => {
    const fresh = collectionFiles(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')));
    const committed = committedCollection();
    expect([...committed.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [path, content] of fresh) expect(committed.get(path), path).toBe(content);
    // Every operation of the document is a request of the collection (and the report flow's createReportRun), and the environment is there.
    expect([...fresh.keys()].filter(isRequestFile)).toHaveLength(19);
    expect(fresh.has('environments/local.bru')).toBe(true);
  });
});

/** Every request file of the committed collection, parsed. */
const requestFiles = () =>
  [...committedCollection().entries()]
    .filter(([path]) => isRequestFile(path))
    .map(([path, text]) => ({ path, ...(parseRequest(text, { format: 'bru' }) as BrunoRequest) }));

/** What an example sends as a credential: the key query parameter, the two key headers, a token's apiKey. */
function credentialsSent(example: BrunoExample): string[] {
  const sent = [
    ...example.request.params.filter((param) => param.type === 'query' && param.name === 'key').map(() => 'key'),
    ...example.request.headers
      .map((header) => header.name.toLowerCase())
      .filter((name) => name === 'authorization' || name === 'x-api-key'),
  ];
  if (example.request.body.mode === 'json' && /"apiKey"/.test(example.request.body.json ?? '')) sent.push('apiKey');
  return sent;
}

describe("the collection's examples", () => {
  it('send the request that got their answer: an example without a key sends no key, not even an empty one', () => {
    const examples = requestFiles().flatMap(({ examples }) => examples ?? []);
    const withoutKey = examples.filter((example) => /^no (key|credential|Authorization|apiKey)\b/.test(example.name));
    // list-clerks, list-merchants, lookup-customer, list-transactions, the notification, the repayment
    // options, the token, /graphql
    expect(withoutKey.map((example) => example.name)).toHaveLength(9);
    for (const example of withoutKey) expect(credentialsSent(example), example.name).toEqual([]);
    const emptyKey = examples.find((example) => example.name === 'an empty key counts as a missing one');
    expect(emptyKey?.request.params).toEqual([expect.objectContaining({ name: 'key', value: '' })]);
    const unknownKey = examples.find((example) => example.name === 'a key that is not ours: 401 INVALID_API_KEY');
    expect(unknownKey?.request.params).toEqual([expect.objectContaining({ name: 'key', value: 'not-a-real-key' })]);
    // Each answer once: the importer's pairing of every answer with every body example is undone.
    const names = requestFiles().flatMap(({ path, examples }) => (examples ?? []).map((e) => `${path} ${e.name}`));
    expect(new Set(names).size).toBe(names.length);
  });

  it('put a query key in the URL only: no apikey auth, which the Bruno CLI cannot add to a URL with variables', () => {
    const inQuery = requestFiles().filter(({ request }) => /[?&]key=/.test(request.url));
    expect(inQuery.map(({ name }) => name)).toHaveLength(6);
    for (const { name, request } of inQuery) expect(request.auth.mode, name).toBe('none');
  });
});

describe('every request of the collection, against the service', () => {
  const fixture = useSeededService();

  it('answers 2xx, sent as Bruno sends it: the URL with its query, the auth, the JSON body, the scripts and vars', async () => {
    const environment = parseEnvironment(readFileSync(join(COLLECTION_DIR, 'environments/local.bru'), 'utf8'), {
      format: 'bru',
    }) as { variables: Array<{ name: string; value: string }> };
    const vars: Record<string, string> = Object.fromEntries(environment.variables.map((v) => [v.name, v.value]));
    expect(vars).toMatchObject({ baseUrl: 'http://localhost:4000', partnerKey: 'demo-partner-key' });
    vars.baseUrl = fixture.service.baseUrl;
    // A device's credential is shown once, when issued: the check-in sends one issued now.
    const issued = await fixture.service.graphql(
      'query($t: String!) { device(tag: $t) { id } }',
      { 'x-api-key': 'demo-operator-key' },
      { t: DEMO_DEVICE_TAG },
    );
    const credential = await fixture.service.graphql(
      'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
      { 'x-api-key': 'demo-operator-key' },
      { id: issued.body.data.device.id },
    );
    vars.deviceCredential = credential.body.data.issueDeviceCredential.credential;
    // A report run's file: one asked for and run now (the flow's own request asks for another after it).
    const report = await fixture.service.graphql(
      'mutation($input: CreateReportRunInput!) { createReportRun(input: $input) { id } }',
      { 'x-api-key': 'demo-partner-key' },
      { input: { partnerId: '1', type: 'AGEING' } },
    );
    vars.reportRunId = report.body.data.createReportRun.id;
    const worker = await reportWorker(fixture.database.db);
    await worker.drain();
    await worker.close();
    const interpolate = (text: string) =>
      text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
        if (!(name in vars)) throw new Error(`{{${name}}} is not set`);
        return vars[name]!;
      });
    // The token request first: the notification sends what it keeps.
    const files = [...committedCollection().keys()]
      .filter(isRequestFile)
      .sort((a, b) => Number(b.includes('access token')) - Number(a.includes('access token')) || a.localeCompare(b));
    const answered: string[] = [];
    for (const file of files) {
      const { name, request } = parseRequest(readFileSync(join(COLLECTION_DIR, file), 'utf8'), {
        format: 'bru',
      }) as BrunoRequest;
      // A pre-request script, with the one function of Bruno's `bru` the collection uses.
      if (request.script.req)
        new Function('bru', request.script.req)({ setVar: (n: string, v: unknown) => (vars[n] = String(v)) });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      for (const header of request.headers) if (header.enabled) headers[header.name] = interpolate(header.value);
      const url = new URL(interpolate(request.url));
      if (request.auth.mode === 'bearer') headers.authorization = `Bearer ${interpolate(request.auth.bearer!.token)}`;
      if (request.auth.mode === 'apikey') {
        const { key, value, placement } = request.auth.apikey!;
        if (placement === 'header') headers[key] = interpolate(value);
        else url.searchParams.set(key, interpolate(value));
      }
      const response = await fetch(url, {
        method: request.method,
        headers,
        body: request.body.mode === 'json' ? interpolate(request.body.json!) : undefined,
      });
      const text = await response.text();
      expect(response.status, `${name}: ${text.slice(0, 300)}`).toBeLessThan(300);
      for (const variable of request.vars.res ?? []) {
        const res = { body: JSON.parse(text) };
        vars[variable.name] = String(new Function('res', `return ${variable.value}`)(res));
      }
      answered.push(name);
    }
    expect(answered).toHaveLength(19);
    expect(vars.accessToken).toMatch(/^dfs1\./);
  });
});
