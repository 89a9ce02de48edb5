// Golden files: for every legacy route, requests with the exact status, headers and body bytes they
// must get, each body also validated against the OpenAPI document. The same files pass on PGlite
// and on Postgres, which is what "one JSON for both databases" means. Each folder of test/golden/
// runs on its own freshly seeded database with the clock fixed at NOW, its files in name order (so
// "1-success" runs before "2-replay"). UPDATE_GOLDEN=1 rewrites the expected responses (refused under
// CI): review the diff before committing, and run npm run openapi for the document's examples.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DEMO_VENDOR_SCHEMA } from '../../src/fixtures/vendorSchemas.js';
import { openApiFileText } from '../../src/rest/openapi.js';
import { LEGACY_ROUTES } from '../../src/rest/routes.js';
import {
  GOLDEN_DIR,
  type GoldenCase,
  goldenFiles,
  goldenFolders,
  goldenInit,
  goldenUpdateRequested,
  readGolden,
  useGoldenService,
} from '../support/golden.js';
import { OPENAPI_FILE, openApiDocument } from '../support/openapi.js';

const UPDATE = goldenUpdateRequested();
// Headers whose value is part of the contract; X-Request-ID is checked separately (it varies).
const PINNED_HEADERS = ['content-type', 'allow', 'cache-control', 'idempotent-replayed'];

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allErrors: true });
ajv.addSchema(openApiDocument, 'openapi.json');
const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The OpenAPI schema a response must satisfy; undefined when the document does not describe it. */
function documentedSchema(golden: GoldenCase): object | undefined {
  const path = golden.request.path.split('?')[0]!;
  const paths = openApiDocument.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
  if (!paths[path]) {
    // Not an endpoint: the error body of the interface the path belongs to.
    return {
      $ref: `openapi.json#/components/schemas/${path.startsWith('/payments/') ? 'PaymentsError' : 'PartnerError'}`,
    };
  }
  const method = golden.request.method.toLowerCase();
  if (!paths[path][method]?.responses[String(golden.response.status)]) {
    // Another method than the documented one: 405 in the path's error body.
    const documented = Object.values(paths[path])[0]!.responses[String(golden.response.status)];
    if (!documented) return undefined;
    return {
      $ref: `openapi.json#/${pointer('paths', path, Object.keys(paths[path])[0]!, 'responses', String(golden.response.status), 'content', 'application/json', 'schema')}`,
    };
  }
  return {
    $ref: `openapi.json#/${pointer('paths', path, method, 'responses', String(golden.response.status), 'content', 'application/json', 'schema')}`,
  };
}

const folders = goldenFolders();
const casesOf = goldenFiles;
const read = readGolden;

for (const folder of folders) {
  describe(`golden: ${folder}`, () => {
    const fixture = useGoldenService();

    it.each(casesOf(folder))('%s', async (file) => {
      const golden = read(folder, file);
      const { request } = golden;
      const response = await fixture.service.request(request.path, goldenInit(request));
      const text = await response.text();
      const headers = Object.fromEntries(
        PINNED_HEADERS.flatMap((name) => (response.headers.has(name) ? [[name, response.headers.get(name)!]] : [])),
      );
      if (UPDATE) {
        golden.response = { status: response.status, headers, body: JSON.parse(text) };
        writeFileSync(join(GOLDEN_DIR, folder, file), `${JSON.stringify(golden, null, 2)}\n`);
        return;
      }
      expect(response.status).toBe(golden.response.status);
      expect(headers).toEqual(golden.response.headers);
      const sentId = request.headers?.['x-request-id'];
      expect(response.headers.get('x-request-id')).toMatch(sentId ? new RegExp(`^${sentId}$`) : /^[0-9a-f-]{36}$/);
      // Byte for byte: same fields, same order, same JSON types. Apollo (the answers of /graphql that
      // ran through it) ends its JSON with a newline; every other answer is res.json's, without one.
      const apolloNewline = request.path === '/graphql' && text.endsWith('}\n') ? '\n' : '';
      expect(text).toBe(JSON.stringify(golden.response.body) + apolloNewline);
      const schema = documentedSchema(golden);
      expect(
        schema,
        `the OpenAPI document describes ${request.method} ${request.path} ${golden.response.status}`,
      ).toBeDefined();
      const validate = ajv.compile(schema!);
      expect(validate(golden.response.body) ? [] : validate.errors).toEqual([]);
    });
  });
}

describe('golden coverage', () => {
  it('every legacy route has a golden success case and a golden error case', () => {
    const cases = folders.flatMap((folder) => casesOf(folder).map((file) => read(folder, file)));
    for (const route of LEGACY_ROUTES) {
      const forRoute = cases.filter((c) => c.request.path.split('?')[0] === route.path);
      expect(
        forRoute.some((c) => c.response.status === 200),
        `${route.path} success`,
      ).toBe(true);
      expect(
        forRoute.some((c) => c.response.status >= 400),
        `${route.path} error`,
      ).toBe(true);
    }
  });

  it('the OpenAPI document in the repo (the one the service serves) is what npm run openapi makes now', () => {
    // After UPDATE_GOLDEN, npm run openapi writes the new answers into the document's examples.
    const fresh = openApiFileText(GOLDEN_DIR, DEMO_VENDOR_SCHEMA);
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    expect(JSON.parse(committed), 'openapi.json is stale: run npm run openapi').toEqual(JSON.parse(fresh));
    expect(committed).toBe(fresh);
  });

  it('documents exactly the routes of the route table, /graphql, the device door, the report files and the operations endpoints', () => {
    const servicePaths = [
      '/reports/v1/files/{id}',
      '/devices/v1/checkin',
      '/devices/v1/jwks.json',
      '/graphql',
      '/healthz',
      '/metrics',
      '/openapi.json',
      '/readyz',
    ];
    expect(Object.keys(openApiDocument.paths).sort()).toEqual(
      [...LEGACY_ROUTES.map((route) => route.path), ...servicePaths].sort(),
    );
  });
});

describe('UPDATE_GOLDEN', () => {
  it('rewrites the golden files only when asked, and never under CI', () => {
    expect(goldenUpdateRequested({})).toBe(false);
    expect(goldenUpdateRequested({ UPDATE_GOLDEN: '1' })).toBe(true);
    expect(goldenUpdateRequested({ UPDATE_GOLDEN: '1', CI: 'false' })).toBe(true);
    expect(goldenUpdateRequested({ CI: 'true' })).toBe(false);
    for (const ci of ['true', '1']) {
      expect(() => goldenUpdateRequested({ UPDATE_GOLDEN: '1', CI: ci })).toThrow(
        new RegExp(`^UPDATE_GOLDEN=1 is refused under CI=${ci}: CI checks the golden files`),
      );
    }
  });
});
