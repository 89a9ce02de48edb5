// An operator's vendor schema cannot stall the service: its patterns run on a linear-time engine, a
// pattern that engine cannot run is refused when stored, and the service's own limits hold before the
// schema sees a notification. Every refusal leaves the ledger as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededService } from '../support/fixtures.js';
import { ledgerSnapshot } from '../support/ledger.js';

const fixture = useSeededService();
const operator = (query: string, variables?: Record<string, unknown>) =>
  fixture.service.graphql(query, { 'x-api-key': 'demo-operator-key' }, variables).then((result) => result.body);

const CREATE_VENDOR =
  'mutation($name: String!, $s: JSON!) { createPaymentVendor(input: { name: $name, displayName: "Regex", requestSchema: $s }) { id } }';
const UPDATE_VENDOR =
  'mutation($id: ID!, $s: JSON!) { updatePaymentVendor(input: { id: $id, requestSchema: $s }) { id } }';
const VENDORS = '{ paymentVendors { id name requestSchema } }';

// A note of a's only, and a reference starting "R-": the first pattern is catastrophic for a backtracking engine.
const SCHEMA = {
  type: 'object',
  properties: { note: { type: 'string', pattern: '^(a|a)*$' }, reference: { type: 'string', pattern: '^R-' } },
};
const base = { paymentVendor: 'regex-vendor', amount: '1.00', currency: 'USD', deviceTag: 'DTSTBBD' };

let vendorId: string;
let token: string;
beforeAll(async () => {
  const created = await operator(CREATE_VENDOR, { name: 'regex-vendor', s: SCHEMA });
  vendorId = created.data.createPaymentVendor.id;
  const key = await operator(
    `mutation { createApiKey(input: { kind: VENDOR, paymentVendorId: "${vendorId}" }) { secret } }`,
  );
  const bought = await fixture.service.graphql(
    `mutation { createAccessToken(apiKey: "${key.data.createApiKey.secret}") { accessToken } }`,
  );
  token = bought.body.data.createAccessToken.accessToken;
});

const notify = (body: unknown) =>
  fixture.service.request('/payments/v1/notification', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });

/** The code a refusal of each status carries here: a notification the service does not take, or a vendor it cannot check against. */
const CODES: Record<number, string> = { 400: 'INVALID_NOTIFICATION', 503: 'SERVICE_UNAVAILABLE' };

async function expectRefused(body: unknown, status: number, message: string) {
  const response = await notify(body);
  expect({ status: response.status, body: await response.json() }).toEqual({
    status,
    body: { error: { code: CODES[status], message } },
  });
}

describe('vendor schemas', () => {
  it('a catastrophic pattern answers at once: 40 a and a "!" is a normal 400 INVALID_NOTIFICATION', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    await expectRefused(
      { ...base, reference: 'R-1', note: `${'a'.repeat(40)}!` },
      400,
      'the notification is not valid: note must match pattern "^(a|a)*$"',
    );
    const graph = await fixture.service.graphql(
      'mutation($n: JSON!) { createPaymentNotification(notification: $n) { message } }',
      { authorization: `Bearer ${token}` },
      {
        n: { ...base, reference: 'R-2', note: `${'a'.repeat(40)}!` },
      },
    );
    expect(graph.body.errors[0].extensions.code).toBe('INVALID_NOTIFICATION');
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
    expect((await notify({ ...base, reference: 'R-3', note: 'a'.repeat(1000) })).status).toBe(200);
  });

  it('a pattern the linear engine cannot run is refused when stored: INVALID_ARGUMENT naming it', async () => {
    for (const [s, problem] of [
      [
        { type: 'object', properties: { note: { type: 'string', pattern: '^(a)\\1$' } } },
        'has pattern "^(a)\\\\1$", which uses a backreference (\\1)',
      ],
      [{ type: 'object', patternProperties: { '^(?=x)': {} } }, 'has pattern "^(?=x)", which uses lookaround'],
    ] as const) {
      const created = await operator(CREATE_VENDOR, { name: 'backref-vendor', s });
      expect(created.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'input.requestSchema' });
      expect(created.errors[0].message).toContain(`the input.requestSchema argument ${problem}`);
      const updated = await operator(UPDATE_VENDOR, { id: vendorId, s });
      expect(updated.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'input.requestSchema' });
    }
    const vendors = (await operator(VENDORS)).data.paymentVendors as Array<{ name: string; requestSchema: unknown }>;
    expect(vendors.map((vendor) => vendor.name)).not.toContain('backref-vendor');
    expect(vendors.find((vendor) => vendor.name === 'regex-vendor')?.requestSchema).toEqual(SCHEMA);
  });

  it('the service refuses over-long strings and oversized bodies before the schema sees them', async () => {
    const before = await ledgerSnapshot(fixture.database.db);
    const refusals: Array<[Record<string, unknown>, string]> = [
      // The schema would accept these a's: only the service's limit refuses them.
      [{ reference: 'R-4', note: 'a'.repeat(1001) }, 'note must be at most 1000 characters'],
      [
        { reference: 'R-5', extra: { lines: ['ok', 'b'.repeat(1001)] } },
        'extra.lines.1 must be at most 1000 characters',
      ],
      [{ reference: 'R-6', extra: { ['k'.repeat(1001)]: 1 } }, 'extra has a member name longer than 1000 characters'],
      [{ reference: 'R-7', extra: Array(1000).fill(0) }, 'the body holds more than 1000 values'],
      // The schema would say the reference must match "^R-": the service's own limit answers first.
      [{ reference: 'X'.repeat(256) }, 'reference must be at most 255 characters'],
    ];
    for (const [fields, problem] of refusals)
      await expectRefused({ ...base, ...fields }, 400, `the notification is not valid: ${problem}`);
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
  });

  it('a schema stored before patterns were checked answers 503 naming it, never a 500, until replaced', async () => {
    const stale = { type: 'object', properties: { note: { type: 'string', pattern: '^(a)\\1$' } } };
    await fixture.database
      .db('payment_vendors')
      .where({ id: vendorId })
      .update({ request_schema: JSON.stringify(stale) });
    const before = await ledgerSnapshot(fixture.database.db);
    await expectRefused(
      { ...base, reference: 'R-8' },
      503,
      'payment vendor "regex-vendor" cannot take notifications until an operator replaces its request schema (requestSchema has pattern "^(a)\\\\1$", which uses a backreference (\\1); vendor schema patterns run on a linear-time engine (RE2) without backreferences or lookaround)',
    );
    expect(await ledgerSnapshot(fixture.database.db)).toEqual(before);
    expect((await operator(UPDATE_VENDOR, { id: vendorId, s: SCHEMA })).errors).toBeUndefined();
    expect((await notify({ ...base, reference: 'R-8' })).status).toBe(200);
  });
});
