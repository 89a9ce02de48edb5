// A partner sees only its own merchants and clerks, on both doors; another partner's ids are
// answered as if they did not exist. Operators see every partner.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID } from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();
let demoId: string;
let otherId: string;

beforeAll(async () => {
  demoId = (await fixture.database.db('partners').where({ name: 'Demo Retail' }).first()).id;
  otherId = (await fixture.database.db('partners').where({ name: 'Other Retail' }).first()).id;
});

const as = (key: string) => (query: string, variables?: Record<string, unknown>) =>
  fixture.service.graphql(query, { 'x-api-key': key }, variables).then((result) => result.body);

describe('tenant isolation', () => {
  it("lists only the caller's own merchants and clerks through GraphQL", async () => {
    const other = await as('other-partner-key')('{ merchants { id name } clerks { id name } }');
    expect(other).toEqual({
      data: { merchants: [{ id: '2000001', name: 'OTHER' }], clerks: [{ id: '6001', name: 'OtherClerk' }] },
    });
    const demo = await as('demo-retail-key')('{ merchants { id } clerks { id } }');
    expect(demo.data.merchants.map((m: { id: string }) => m.id)).toEqual([DEMO_MERCHANT_ID, '999888', '1000201']);
    expect(demo.data.clerks.map((c: { id: string }) => c.id)).toEqual(['5320', '5334', DEMO_CLERK_ID]);
  });

  it("answers another partner's merchant, clerk and partner ids as not found", async () => {
    const query =
      'query($m: ID!, $c: ID!, $p: ID!) { merchant(id: $m) { id } clerk(id: $c) { id } partner(id: $p) { id } }';
    expect(await as('other-partner-key')(query, { m: DEMO_MERCHANT_ID, c: DEMO_CLERK_ID, p: demoId })).toEqual({
      data: { merchant: null, clerk: null, partner: null },
    });
    expect(await as('demo-partner-key')(query, { m: DEMO_MERCHANT_ID, c: DEMO_CLERK_ID, p: demoId })).toEqual({
      data: { merchant: { id: DEMO_MERCHANT_ID }, clerk: { id: DEMO_CLERK_ID }, partner: { id: demoId } },
    });
  });

  it('answers ids that cannot exist as not found, without reaching SQL', async () => {
    for (const id of ['abc', '0', '-1', '1.5', "1' or '1'='1", '99999999999999999999']) {
      expect(await as('demo-partner-key')('query($id: ID!) { merchant(id: $id) { id } }', { id })).toEqual({
        data: { merchant: null },
      });
    }
  });

  it('lets operators see every partner, each with only its own merchants and clerks', async () => {
    const result = await as('demo-operator-key')(
      '{ partners(first: 10) { id name merchants(first: 100) { id } clerks(first: 100) { id } } }',
    );
    expect(result).toEqual({
      data: {
        partners: [
          {
            id: demoId,
            name: 'Demo Retail',
            merchants: [{ id: DEMO_MERCHANT_ID }, { id: '999888' }, { id: '1000201' }],
            clerks: [{ id: '5320' }, { id: '5334' }, { id: DEMO_CLERK_ID }],
          },
          { id: otherId, name: 'Other Retail', merchants: [{ id: '2000001' }], clerks: [{ id: '6001' }] },
        ],
      },
    });
  });

  it('keeps the partner list to operators', async () => {
    const result = await as('demo-partner-key')('{ partners { id } }');
    expect(result.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
