// The audit trail: every operator action and key event is recorded with who, what, when and from
// where, in the action's own transaction; operators read it through GraphQL; nobody can change it.
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();
const operator = (query: string, variables?: Record<string, unknown>, requestId = 'audit-test-1') =>
  fixture.service
    .graphql(query, { 'x-api-key': 'demo-operator-key', 'x-request-id': requestId }, variables)
    .then((result) => result.body);
const TRAIL = `query($action: String, $first: Int, $after: String) { auditEvents(action: $action, first: $first, after: $after) {
  nodes { id time actorKind actorId actorKeyId action subjectKind subjectId partnerId details clientAddress requestId } pageInfo { hasNextPage endCursor } } }`;

describe('audit trail', () => {
  it('records key creation and revocation with who, what, when and from where, and never the secret', async () => {
    const created = await operator(
      'mutation { createApiKey(input: { kind: RETAIL, partnerId: "1", label: "till 7" }) { secret apiKey { id displayPrefix } } }',
      undefined,
      'audit-create-1',
    );
    const { secret, apiKey } = created.data.createApiKey;
    await operator(`mutation { revokeApiKey(id: "${apiKey.id}") { id } }`, undefined, 'audit-revoke-1');
    const trail = (await operator(TRAIL, { first: 2 })).data.auditEvents.nodes;
    expect(trail.map((event: { action: string }) => event.action)).toEqual(['api_key.revoke', 'api_key.create']);
    const [revoked, createdEvent] = trail;
    expect(createdEvent).toMatchObject({
      actorKind: 'OPERATOR',
      actorId: '1',
      actorKeyId: '7',
      subjectKind: 'api_key',
      subjectId: apiKey.id,
      partnerId: '1',
      requestId: 'audit-create-1',
      details: { kind: 'retail', label: 'till 7', displayPrefix: apiKey.displayPrefix },
    });
    expect(createdEvent.clientAddress).toMatch(/127\.0\.0\.1/);
    expect(Math.abs(createdEvent.time - Date.now() / 1000)).toBeLessThan(60);
    expect(revoked).toMatchObject({
      subjectId: apiKey.id,
      requestId: 'audit-revoke-1',
      details: { alreadyRevoked: false },
    });
    const everything = JSON.stringify(await fixture.database.db('audit_events').select('*'));
    expect(everything).not.toContain(secret);
  });

  it('records adjustments, vendor schema changes and provisioning, each with its details', async () => {
    await operator(
      `mutation { createAdjustment(input: { partnerId: "1", kind: PAYMENT, amount: "-1.00", currency: "USD", notes: "till short", merchantId: "${DEMO_MERCHANT_ID}" }) { id } }`,
    );
    await operator('mutation($s: JSON!) { updatePaymentVendor(input: { id: "1", requestSchema: $s }) { id } }', {
      s: { type: 'object', required: ['paymentVendor'] },
    });
    await operator(
      'mutation { createPartner(input: { name: "Audited Retail", commissionRateBasisPoints: 100 }) { id } }',
    );
    const trail = (await operator(TRAIL, { first: 3 })).data.auditEvents.nodes;
    expect(trail.map((event: { action: string }) => event.action)).toEqual([
      'partner.create',
      'payment_vendor.update',
      'adjustment.create',
    ]);
    expect(trail[1].details).toEqual({ changed: { request_schema: { type: 'object', required: ['paymentVendor'] } } });
    expect(trail[2].details).toMatchObject({
      kind: 'payment',
      amount: '-1.00',
      currency: 'USD',
      notes: 'till short',
      merchantId: DEMO_MERCHANT_ID,
    });
  });

  it('writes nothing for a refused action, and pages newest first', async () => {
    const before = Number((await fixture.database.db('audit_events').count({ n: '*' }))[0]!.n);
    const refused = await operator(
      'mutation { createPartner(input: { name: "X", commissionRateBasisPoints: 20000 }) { id } }',
    );
    expect(refused.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
    expect(Number((await fixture.database.db('audit_events').count({ n: '*' }))[0]!.n)).toBe(before);
    const first = (await operator(TRAIL, { first: 2 })).data.auditEvents;
    const second = (await operator(TRAIL, { first: 2, after: first.pageInfo.endCursor })).data.auditEvents;
    expect(Number(second.nodes[0].id)).toBeLessThan(Number(first.nodes[1].id));
  });

  it('is readable by operators only', async () => {
    const partner = await fixture.service.graphql('{ auditEvents { nodes { id } } }', {
      'x-api-key': 'demo-partner-key',
    });
    expect(partner.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('cannot be changed or removed, even with direct SQL', async () => {
    const db = fixture.database.db;
    const refusal = async (statement: string) =>
      db.raw(statement).then(
        () => 'allowed',
        (error: Error) => error.message,
      );
    expect(await refusal("update audit_events set action = 'forged'")).toMatch(/append-only/);
    expect(await refusal('delete from audit_events')).toMatch(/append-only/);
    expect(await refusal('truncate audit_events')).toMatch(/append-only/);
  });
});

describe('key rotation', () => {
  it('allows two active keys per owner and kind, a third only after one is revoked', async () => {
    const create = () =>
      operator('mutation { createApiKey(input: { kind: PARTNER, partnerId: "2" }) { apiKey { id } } }');
    // Other Retail already has one partner key (the demo's): one more is allowed.
    const second = await create();
    expect(second.data.createApiKey.apiKey.id).toBeDefined();
    const third = await create();
    expect(third.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'kind' });
    expect(third.errors[0].message).toContain('already has 2 active partner keys');
    await operator(`mutation { revokeApiKey(id: "${second.data.createApiKey.apiKey.id}") { id } }`);
    expect((await create()).data.createApiKey.apiKey.id).toBeDefined();
  });
});
