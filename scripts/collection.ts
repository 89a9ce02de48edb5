/// <reference path="./bruno.d.ts" />
// npm run collection: collection/, a Bruno collection of the service generated from openapi.json by
// Bruno's own OpenAPI importer (@usebruno/converters) and written as Bruno's .bru files
// (@usebruno/filestore), laid out as `bru import openapi --collection-format bru` lays it out (the
// Bruno CLI itself would bring some 500 packages for that). What the importer cannot know is set after
// it: each request's credential from the key kind its operation's security names, the enabled query
// parameters in the URL (which is what Bruno sends), the access token the token request keeps for the
// notification, list-transactions' window (the last 30 days), and the environment "local": the base
// URL of npm start and the demo keys. Each example's request is the golden file's that got its answer
// (the importer gives every example the operation's own request, so "no key" showed the key).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrunoExample, type BrunoItem, openApiToBruno } from '@usebruno/converters';
import { stringifyCollection, stringifyEnvironment, stringifyFolder, stringifyRequest } from '@usebruno/filestore';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const COLLECTION_DIR = join(ROOT, 'collection');
export const OPENAPI_FILE = join(ROOT, 'openapi.json');
export const GOLDEN_DIR = join(ROOT, 'test/golden');

type Spec = { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };

/** The environment variable holding the credential of each security scheme. */
const CREDENTIAL_OF_SCHEME: Record<string, string> = {
  partnerKey: 'partnerKey',
  retailKey: 'retailKey',
  accessToken: 'accessToken',
  graphqlApiKey: 'operatorKey',
  graphqlBearer: 'operatorKey',
  deviceCredential: 'deviceCredential',
  reportsBearer: 'partnerKey',
};

/** The importer names one variable for every API key scheme, and one for every bearer token. */
const IMPORTER_CREDENTIALS = ['{{apiKey}}', '{{token}}'];

const ENVIRONMENT = {
  name: 'local',
  variables: Object.entries({
    baseUrl: 'http://localhost:4000',
    partnerKey: 'demo-partner-key',
    retailKey: 'demo-retail-key',
    vendorKey: 'demo-vendor-key',
    operatorKey: 'demo-operator-key',
    // Set by "Create an access token" (its post-response var), sent by "Create a payment notification".
    accessToken: '',
    // A device's credential from issueDeviceCredential (shown once), sent by "A device's check-in".
    deviceCredential: '',
    // A report run's id from createReportRun on /graphql, its file fetched by "A report run's file".
    reportRunId: '',
  }).map(([name, value]) => ({ name, value, enabled: true, secret: false, type: 'text' })),
};

/** The demo keys a golden request sends, as the environment's variables (the others stay as sent). */
const DEMO_KEY_VARIABLES: Record<string, string> = {
  'demo-partner-key': '{{partnerKey}}',
  'demo-retail-key': '{{retailKey}}',
  'demo-vendor-key': '{{vendorKey}}',
  'demo-operator-key': '{{operatorKey}}',
};
const asVariable = (value: string) => DEMO_KEY_VARIABLES[value] ?? value;

/** A golden file's request (test/golden/<route>/<case>.json). */
export interface GoldenRequest {
  method: string;
  /** With its query string, as sent. */
  path: string;
  headers?: Record<string, string>;
  json?: unknown;
  /** A body that is not JSON, sent as it is. */
  body?: string;
}

/** Every golden request by its path (without the query) and what it shows: the names of the examples. */
export function goldenRequests(dir = GOLDEN_DIR): Map<string, GoldenRequest> {
  const requests = new Map<string, GoldenRequest>();
  for (const folder of readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of readdirSync(join(dir, folder.name)).filter((name) => name.endsWith('.json'))) {
      const golden = JSON.parse(readFileSync(join(dir, folder.name, file), 'utf8')) as {
        about: string;
        request: GoldenRequest;
      };
      requests.set(`${golden.request.path.split('?')[0]} ${golden.about}`, golden.request);
    }
  }
  return requests;
}

/**
 * `example` with the request of the golden file that got its answer, and its name: its method, query,
 * headers and JSON body, so an example without a key sends none. The importer names an example after
 * its answer, then the body example's name in parentheses; an answer no golden file holds is left as is.
 */
function goldenExample(example: BrunoExample, path: string, goldens: Map<string, GoldenRequest>): BrunoExample {
  const [key, golden] =
    [...goldens.entries()].find(
      ([key]) => key === `${path} ${example.name}` || `${path} ${example.name}`.startsWith(`${key} (`),
    ) ?? [];
  if (!key || !golden) return example;
  const query = new URLSearchParams(golden.path.split('?')[1] ?? '');
  const body =
    golden.json !== undefined
      ? { ...example.request.body, mode: 'json', json: JSON.stringify(golden.json, null, 2) }
      : golden.body === undefined
        ? { ...example.request.body, mode: 'none', json: null }
        : { ...example.request.body, mode: 'text', json: null, text: golden.body };
  return {
    ...example,
    name: key.slice(path.length + 1),
    request: {
      ...example.request,
      method: golden.method,
      params: [...query].map(([name, value]) => ({ name, value: asVariable(value), enabled: true, type: 'query' })),
      headers: Object.entries(golden.headers ?? {}).map(([name, value]) => ({
        name,
        value: value.replace(/^(Bearer )?(.*)$/, (_, scheme = '', key: string) => `${scheme}${asVariable(key)}`),
        enabled: true,
      })),
      body,
    },
  };
}

const LAST_30_DAYS = `const now = Math.floor(Date.now() / 1000);
bru.setVar('starttime', now - 30 * 86400);
bru.setVar('endtime', now);`;

/** `name` as a file name, as the Bruno CLI makes it (the names here are summaries and tags). */
const fileName = (name: string) =>
  name
    .replace(/[<>:"/\\|?*]/g, '-')
    .replace(/^[.\s-]+/, '')
    .replace(/[.\s]+$/, '');

/** One request as the importer made it, with what the document says and the importer cannot. */
function completeRequest(item: BrunoItem, spec: Spec, goldens: Map<string, GoldenRequest>): BrunoItem {
  const request = item.request!;
  // The importer writes a path parameter as Bruno's :name; the document as {name}.
  const path = request.url.replace('{{baseUrl}}', '').replace(/:(\w+)/g, '{$1}');
  const operation = spec.paths[path]?.[request.method.toLowerCase()];
  if (!operation) throw new Error(`no operation ${request.method} ${path} in openapi.json`);
  const scheme = Object.keys(operation.security?.[0] ?? {})[0];
  let text = JSON.stringify(item);
  if (scheme) {
    const variable = CREDENTIAL_OF_SCHEME[scheme];
    if (!variable) throw new Error(`no environment variable for the security scheme ${scheme}`);
    for (const credential of IMPORTER_CREDENTIALS) text = text.replaceAll(credential, `{{${variable}}}`);
  }
  const completed = JSON.parse(text) as BrunoItem;
  const completedRequest = completed.request!;
  if (path === '/payments/v1/token') {
    completedRequest.body = { ...completedRequest.body, json: JSON.stringify({ apiKey: '{{vendorKey}}' }, null, 2) };
    completedRequest.vars = {
      req: [],
      res: [{ name: 'accessToken', value: 'res.body.data.access_token', enabled: true, local: false }],
    };
  }
  if (path === '/v1/list-transactions.php') {
    for (const param of completedRequest.params) {
      if (param.name === 'starttime' || param.name === 'endtime') param.value = `{{${param.name}}}`;
    }
    completedRequest.script = { ...completedRequest.script, req: LAST_30_DAYS };
  }
  // The report flow: createReportRun on /graphql, its id kept as reportRunId, the file fetched with the
  // partner key (the importer's path parameter written into the URL, as the other variables are).
  if (path === '/reports/v1/files/{id}') {
    completedRequest.url = completedRequest.url.replace(':id', '{{reportRunId}}');
    completedRequest.params = completedRequest.params.filter((param) => param.type !== 'path');
  }
  // Bruno sends the query string of the URL, not the params block, and the importer writes the path
  // only (usebruno/bruno#8787): the enabled query parameters go into the URL, as Bruno saves a request.
  const query = completedRequest.params.filter((param) => param.type === 'query' && param.enabled);
  if (query.length) completedRequest.url += `?${query.map((param) => `${param.name}=${param.value}`).join('&')}`;
  // A key in the query travels in that URL, so no auth block adds it again: the Bruno CLI's (4.1) apikey
  // auth in queryparams parses the URL before its {{variables}} are set, and prints a stack trace.
  if (completedRequest.auth.mode === 'apikey' && query.some((param) => param.name === 'key')) {
    completedRequest.auth = { ...completedRequest.auth, mode: 'none', apikey: null };
  }
  // The importer pairs every answer with every body example; the golden request makes the pairs of one
  // answer the same example, kept once.
  const examples = (completed.examples ?? []).map((example) => goldenExample(example, path, goldens));
  completed.examples = examples.filter((example, at) => examples.findIndex((e) => e.name === example.name) === at);
  return completed;
}

/** The request file, with the fields the Bruno CLI writes. */
function requestFile(item: BrunoItem): string {
  const request = item.request!;
  return stringifyRequest(
    {
      type: item.type,
      name: item.name,
      seq: typeof item.seq === 'number' ? item.seq : 1,
      tags: item.tags ?? [],
      settings: {},
      request: {
        method: request.method,
        url: request.url,
        headers: request.headers,
        params: request.params,
        auth: request.auth,
        body: request.body,
        script: request.script ?? {},
        vars: request.vars ?? { req: [], res: [] },
        assertions: [],
        tests: '',
        docs: request.docs ?? '',
      },
      examples: item.examples ?? [],
    } as never,
    { format: 'bru' },
  );
}

// The report flow's first step (docs/decisions.md 45), which openapi.json describes as /graphql only:
// createReportRun for the last 30 days with the partner key, its id kept for "A report run's file".
const ASK_FOR_A_REPORT: BrunoItem = {
  type: 'http-request',
  name: 'Ask for a report run',
  seq: 0,
  request: {
    method: 'POST',
    url: '{{baseUrl}}/graphql',
    headers: [],
    params: [],
    auth: { mode: 'bearer', bearer: { token: '{{partnerKey}}' } },
    body: {
      mode: 'json',
      json: `{
  "query": "mutation($input: CreateReportRunInput!) { createReportRun(input: $input) { id state } }",
  "variables": { "input": { "partnerId": "1", "type": "TRANSACTIONS", "start": {{starttime}}, "end": {{endtime}} } }
}`,
    },
    script: { req: LAST_30_DAYS },
    vars: {
      req: [],
      res: [{ name: 'reportRunId', value: 'res.body.data.createReportRun.id', enabled: true, local: false }],
    },
    docs: 'A TRANSACTIONS report of the last 30 days (the worker role runs it: reportRun(id) { state downloadUrl }), its id kept as reportRunId for "A report run\'s file". Formats: docs/integrating.md#report-files.',
  },
} as unknown as BrunoItem;

/** The collection's files from the document: path under collection/ -> content. */
export function collectionFiles(spec: Spec, goldens = goldenRequests()): Map<string, string> {
  const collection = openApiToBruno(spec, { groupBy: 'tags' });
  const files = new Map<string, string>();
  const brunoConfig = { version: '1', name: collection.name, type: 'collection', ignore: ['node_modules', '.git'] };
  files.set('bruno.json', `${JSON.stringify(brunoConfig, null, 2)}\n`);
  if (collection.root)
    files.set('collection.bru', stringifyCollection(collection.root as never, brunoConfig, { format: 'bru' }));
  files.set(`environments/${ENVIRONMENT.name}.bru`, stringifyEnvironment(ENVIRONMENT as never, { format: 'bru' }));
  const add = (items: BrunoItem[], folder: string) => {
    for (const item of items) {
      if (item.type === 'folder') {
        const path = join(folder, fileName(item.name));
        if (item.root?.meta?.name) {
          files.set(
            join(path, 'folder.bru'),
            stringifyFolder({ ...item.root, meta: { ...item.root.meta, seq: item.seq } }, { format: 'bru' }),
          );
        }
        add(item.items ?? [], path);
      } else {
        files.set(join(folder, `${fileName(item.name)}.bru`), requestFile(completeRequest(item, spec, goldens)));
      }
    }
  };
  add(collection.items, '');
  files.set(join('Report_files', `${ASK_FOR_A_REPORT.name}.bru`), requestFile(ASK_FOR_A_REPORT));
  return files;
}

/** The files under collection/ now: path -> content. */
export function committedCollection(dir = COLLECTION_DIR): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = collectionFiles(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Spec);
  rmSync(COLLECTION_DIR, { recursive: true, force: true });
  for (const [path, content] of files) {
    mkdirSync(dirname(join(COLLECTION_DIR, path)), { recursive: true });
    writeFileSync(join(COLLECTION_DIR, path), content);
  }
  process.stdout.write(`wrote ${files.size} files to ${COLLECTION_DIR}\n`);
}
