// The OpenAPI document as an integrator meets it (openapi.json, as the service serves it): every
// operation named, tagged, described and secured; every response with examples, the goldens' answers
// exactly (the rest rendered by the error renderer) and each valid against its schema; the
// notification body the demo vendor's stored schema; and the operations endpoints answering as the
// document says.
import { readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';
import { goldenFiles, goldenFolders, readGolden } from '../support/golden.js';
import { OPENAPI_FILE, openApiDocument } from '../support/openapi.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allErrors: true });
ajv.addSchema(openApiDocument, 'openapi.json');

type MediaType = { schema: object; example?: unknown; examples?: Record<string, { summary: string; value: unknown }> };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Array<Record<string, unknown>>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content: Record<string, MediaType> }>;
};
const paths = openApiDocument.paths as unknown as Record<string, Record<string, Operation>>;
const operations = Object.entries(paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
);

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe('operations', () => {
  it('each has a unique camelCase operationId, a described tag, a summary, a description and security', () => {
    const tags = new Map(openApiDocument.tags.map((tag) => [tag.name, tag.description]));
    const schemes = Object.keys(openApiDocument.components.securitySchemes);
    for (const { path, method, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(operation.operationId, where).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.tags, where).toHaveLength(1);
      expect(tags.get(operation.tags[0]!), where).toBeTruthy();
      expect(operation.summary, where).toBeTruthy();
      expect(operation.description?.length, where).toBeGreaterThan(20);
      expect(Array.isArray(operation.security), where).toBe(true);
      for (const requirement of operation.security) {
        for (const scheme of Object.keys(requirement)) expect(schemes, where).toContain(scheme);
      }
    }
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('name the legacy endpoints after the domain and say which key each takes (decisions.md 1)', () => {
    const byId = Object.fromEntries(
      operations.map(({ operation }) => [operation.operationId, operation.security.map((r) => Object.keys(r)[0])]),
    );
    expect(byId).toMatchObject({
      createAccessToken: [],
      createPaymentNotification: ['accessToken'],
      listClerks: ['partnerKey', 'retailKey'],
      listMerchants: ['partnerKey', 'retailKey'],
      lookupCustomer: ['partnerKey', 'retailKey'],
      lookupCart: ['partnerKey'],
      listTransactions: ['partnerKey'],
      recordCustomerPayment: ['retailKey'],
      executeGraphql: ['graphqlApiKey', 'graphqlBearer', undefined],
    });
  });
});

describe('examples', () => {
  it("every golden answer of a documented path is an example of the response it pins, equal to the golden's body", () => {
    let compared = 0;
    for (const folder of goldenFolders()) {
      for (const file of goldenFiles(folder)) {
        const golden = readGolden(folder, file);
        const path = golden.request.path.split('?')[0]!;
        if (!paths[path]) continue; // test/golden/not-found: no endpoint to document
        const method = golden.request.method.toLowerCase();
        const operation = paths[path][method] ?? Object.values(paths[path])[0]!;
        const media = operation.responses[String(golden.response.status)]?.content['application/json'];
        const example = media?.examples?.[file.replace(/\.json$/, '')];
        expect(example, `${folder}/${file}`).toEqual({ summary: golden.about, value: golden.response.body });
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('every response of every operation has an example, and every example is valid against its schema', () => {
    for (const { path, method, operation } of operations) {
      const bodies = operation.requestBody ? [['requestBody', operation.requestBody.content] as const] : [];
      const responses = Object.entries(operation.responses).map(
        ([status, r]) => [`responses/${status}`, r.content] as const,
      );
      for (const [where, content] of [...bodies, ...responses]) {
        const media = Object.entries(content);
        expect(media.length, `${method} ${path} ${where}`).toBeGreaterThan(0);
        for (const [type, { example, examples }] of media) {
          const values = example !== undefined ? [example] : Object.values(examples ?? {}).map((e) => e.value);
          expect(values.length, `${method} ${path} ${where} ${type}`).toBeGreaterThan(0);
          const validate = ajv.compile({
            $ref: `openapi.json#/${pointer('paths', path, method, ...where.split('/'), 'content', type, 'schema')}`,
          });
          for (const value of values) {
            expect(validate(value) ? [] : validate.errors, `${method} ${path} ${where} ${type}`).toEqual([]);
          }
        }
      }
    }
  });
});

describe('the notification body', () => {
  const fixture = useSeededService();

  it("is the demo vendor's request schema as the seed stores it with the vendor", async () => {
    const row = await fixture.database.db('payment_vendors').where({ name: 'demo-vendor' }).first('request_schema');
    const stored = typeof row.request_schema === 'string' ? JSON.parse(row.request_schema) : row.request_schema;
    const body = paths['/payments/v1/notification']!.post!.requestBody!.content['application/json']!.schema as Record<
      string,
      unknown
    >;
    const { description, ...schema } = body;
    const { $schema, ...storedSchema } = stored;
    expect($schema).toBe('https://json-schema.org/draft/2020-12/schema'); // the document's own dialect
    // Plus the service's own member, which every vendor may add (decisions.md 17).
    const { paymentReference, ...vendorProperties } = schema.properties as Record<string, unknown>;
    expect({ ...schema, properties: vendorProperties }).toEqual(storedSchema);
    expect(paymentReference).toMatchObject({ type: 'string', maxLength: 64 });
    expect(description).toMatch(/agreed when its integration is set up and stored with the vendor/);
    // Exactly one locator, paymentVendor required: what the description promises, the schema holds.
    const validate = ajv.compile(schema);
    const base = { paymentVendor: 'demo-vendor', amount: '18.00', currency: 'USD', reference: 'R-1' };
    expect(validate({ ...base, deviceTag: DEMO_DEVICE_TAG })).toBe(true);
    expect(validate({ ...base, amount: 18, financeOrderId: Number(DEMO_ORDER_ID) })).toBe(true);
    expect(validate({ ...base, deviceTag: DEMO_DEVICE_TAG, imei: DEMO_DEVICE_IMEI })).toBe(false);
    expect(validate(base)).toBe(false);
    const { paymentVendor: _vendor, ...withoutVendor } = base;
    expect(validate({ ...withoutVendor, deviceTag: DEMO_DEVICE_TAG })).toBe(false);
    expect(validate({ ...base, reference: '', deviceTag: DEMO_DEVICE_TAG })).toBe(false);
    expect(validate({ ...base, reference: 'r'.repeat(256), deviceTag: DEMO_DEVICE_TAG })).toBe(false);
  });

  it('the operations endpoints answer as documented: /readyz, /metrics, /openapi.json', async () => {
    const service = fixture.service;
    const readyz = await service.request('/readyz');
    expect(readyz.status).toBe(200);
    const readiness = ajv.compile({ $ref: 'openapi.json#/components/schemas/Readiness' });
    const body = (await readyz.json()) as { status: string };
    expect(readiness(body) ? [] : readiness.errors).toEqual([]);
    expect(body.status).toBe('ready');

    const metrics = await service.request('/metrics');
    const [[type, media]] = Object.entries(paths['/metrics']!.get!.responses['200']!.content) as [[string, MediaType]];
    expect(metrics.headers.get('content-type')).toBe(type);
    const scrape = await metrics.text();
    const helpLines = String(media.example)
      .split('\n')
      .filter((line) => line.startsWith('# '));
    expect(helpLines.length).toBeGreaterThan(0);
    for (const line of helpLines) expect(scrape).toContain(line);

    // The committed file, as it is on disk now (a test of golden.test.ts holds it to a fresh build).
    const served = await service.request('/openapi.json');
    expect(served.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await served.text()).toBe(JSON.stringify(JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'))));
  });
});
