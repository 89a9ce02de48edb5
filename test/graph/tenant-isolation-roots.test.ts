// Tenant isolation, proven by a walk (test/rest/tenant-isolation.test.ts has the partner interface):
// with partner A's keys (partner and retail key), every GraphQL root Query field a partner key can call
// is asked for partner B's records (partner id, merchant, clerk, customer by each locator, order, cart,
// device, payment reference, transactions, events). Every answer must be null / empty / FORBIDDEN,
// byte for byte the answer to an id that does not exist at all, and no response text may contain any
// of B's identifying values. Then the same the other way round.
//
// The root Query and Mutation fields are read from the schema: a field the walk does not cover fails
// the suite, so a new field cannot be added without being checked here (its mutations are
// test/graph/tenant-isolation-mutations.test.ts). Vendor notifications legitimately reach any
// partner's device and are not part of the walk.
import { describe, expect, it } from 'vitest';
import { asGhost, db, errorCode, expectNothingOf, gql } from '../support/tenantWalk/answers.js';
import {
  MUTATION_COVERAGE,
  MUTATION_FIELDS,
  QUERY_COVERAGE,
  QUERY_FIELDS,
  scalarsOf,
} from '../support/tenantWalk/graphWalk.js';
import { type GHOST, useTenantWalk, type Values, WINDOW, walkBothWays } from '../support/tenantWalk/tenants.js';

useTenantWalk();

describe('the walk covers the whole graph', () => {
  it('every root Query field of the schema is covered by the walk', () => {
    expect(QUERY_FIELDS.filter((field) => !(field in QUERY_COVERAGE))).toEqual([]);
  });
  it('every root Mutation field of the schema is covered by the walk', () => {
    expect(MUTATION_FIELDS.filter((field) => !(field in MUTATION_COVERAGE))).toEqual([]);
  });
});

walkBothWays((self, victim) => {
  const v = () => victim().known;

  describe("GraphQL root fields, with both of A's keys", () => {
    const keys = () => [self().partnerKey, self().retailKey];

    it("partner(id: B's partner id) is null; partners is FORBIDDEN", async () => {
      for (const key of keys()) {
        const answer = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) =>
            gql(key, `query($id: ID!) { partner(id: $id) ${scalarsOf('Partner')} }`, { id: values.partnerId }),
          'partner',
        );
        expect(answer.json).toEqual({ data: { partner: null } });
        const all = await gql(key, `{ partners ${scalarsOf('Partner')} }`);
        expect(errorCode(all)).toBe('FORBIDDEN');
        expectNothingOf(victim(), all, 'partners');
      }
    });

    it("portfolioMetrics, portfolioAgeing and portfolioHistory of B's partner are FORBIDDEN, as of a partner that does not exist", async () => {
      const books = [
        ['portfolioMetrics', 'query($id: ID!) { portfolioMetrics(partnerId: $id) { group outstanding par30 } }'],
        ['portfolioAgeing', 'query($id: ID!) { portfolioAgeing(partnerId: $id) { currency orders outstanding } }'],
        [
          'portfolioHistory',
          'query($id: ID!) { portfolioHistory(partnerId: $id, from: "2026-01-01", to: "2026-01-31") { day } }',
        ],
      ] as const;
      for (const key of keys()) {
        for (const [field, query] of books) {
          const answer = await asGhost(
            victim(),
            { partnerId: v().partnerId },
            (values) => gql(key, query, { id: values.partnerId }),
            field,
          );
          expect(errorCode(answer), field).toBe('FORBIDDEN');
        }
      }
    });

    it("merchant(id), clerk(id) and financeOrder(id) with B's ids are null", async () => {
      for (const key of keys()) {
        for (const [field, name, type] of [
          ['merchant', 'merchantId', 'Merchant'],
          ['clerk', 'clerkId', 'Clerk'],
          ['financeOrder', 'orderId', 'FinanceOrder'],
        ] as const) {
          const answer = await asGhost(
            victim(),
            { [name]: victim()[name] },
            (values) => gql(key, `query($id: ID!) { ${field}(id: $id) ${scalarsOf(type)} }`, { id: values[name] }),
            field,
          );
          expect(answer.json).toEqual({ data: { [field]: null } });
        }
      }
    });

    it("paymentReference(code) with B's code is null; cancelling it or making one on B's order is not found, writing nothing", async () => {
      for (const key of keys()) {
        const read = await asGhost(
          victim(),
          { referenceCode: v().referenceCode },
          (values) =>
            gql(key, `query($c: String!) { paymentReference(code: $c) ${scalarsOf('PaymentReference')} }`, {
              c: values.referenceCode,
            }),
          'paymentReference(code)',
        );
        expect(read.json).toEqual({ data: { paymentReference: null } });
        const cancelled = await asGhost(
          victim(),
          { referenceCode: v().referenceCode },
          (values) =>
            gql(key, 'mutation($c: String!) { cancelPaymentReference(code: $c) { code status } }', {
              c: values.referenceCode,
            }),
          'cancelPaymentReference',
        );
        expect(errorCode(cancelled)).toBe('PAYMENT_REFERENCE_NOT_FOUND');
        const created = await asGhost(
          victim(),
          { orderId: victim().orderId },
          (values) =>
            gql(
              key,
              'mutation($o: ID!) { createPaymentReference(input: { financeOrderId: $o, amount: "1.00" }) { code } }',
              { o: values.orderId },
            ),
          'createPaymentReference',
        );
        expect(errorCode(created)).toBe('RESOURCE_NOT_FOUND');
      }
    });

    it("device(id) and device(tag) with B's device are null; issuing B's device a credential is not found, writing nothing", async () => {
      const victimDevice = await db()('devices').where({ tag: victim().deviceTag }).first('id');
      const deviceId = String(victimDevice!.id);
      for (const key of keys()) {
        const byId = await asGhost(
          victim(),
          { deviceId },
          (values) => gql(key, `query($id: ID!) { device(id: $id) ${scalarsOf('Device')} }`, { id: values.deviceId }),
          'device(id)',
        );
        expect(byId.json).toEqual({ data: { device: null } });
        const byTag = await asGhost(
          victim(),
          { deviceTag: victim().deviceTag },
          (values) =>
            gql(key, `query($t: String!) { device(tag: $t) ${scalarsOf('Device')} }`, { t: values.deviceTag }),
          'device(tag)',
        );
        expect(byTag.json).toEqual({ data: { device: null } });
        const issued = await asGhost(
          victim(),
          { deviceId },
          (values) =>
            gql(key, 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }', {
              id: values.deviceId,
            }),
          'issueDeviceCredential',
        );
        expect(errorCode(issued)).toBe('RESOURCE_NOT_FOUND');
        const revoked = await asGhost(
          victim(),
          { deviceId },
          (values) =>
            gql(key, 'mutation($id: ID!) { revokeDeviceCredential(deviceId: $id) { revoked } }', {
              id: values.deviceId,
            }),
          'revokeDeviceCredential',
        );
        expect(errorCode(revoked)).toBe('RESOURCE_NOT_FOUND');
      }
    });

    it("merchants and clerks are A's own only", async () => {
      for (const key of keys()) {
        const answer = await gql(key, `{ merchants ${scalarsOf('Merchant')} clerks ${scalarsOf('Clerk')} }`);
        expect(answer.json.data.merchants.map((merchant: { id: string }) => merchant.id).sort()).toEqual(
          [...self().known.ids.merchants!].sort(),
        );
        expect(answer.json.data.clerks.map((clerk: { id: string }) => clerk.id).sort()).toEqual(
          [...self().known.ids.clerks!].sort(),
        );
        expectNothingOf(victim(), answer, 'merchants and clerks');
      }
    });

    it("customer(locator) with B's phone, IMEI, device tag and customer id is null", async () => {
      for (const key of keys()) {
        for (const locator of ['phone', 'imei', 'deviceTag', 'customerId'] as const) {
          const answer = await asGhost(
            victim(),
            { [locator]: victim()[locator] },
            (values) =>
              gql(key, `query($l: String!) { customer(locator: $l) ${scalarsOf('Customer')} }`, {
                l: values[locator],
              }),
            `customer by ${locator}`,
          );
          expect(answer.json).toEqual({ data: { customer: null } });
        }
      }
    });

    it("cart(cartTag) with B's tag, B's partnerId, or both is null; retail keys are FORBIDDEN", async () => {
      const cases: Array<[Values, (values: Values) => Record<string, unknown>]> = [
        [{ cartTag: victim().cartTag }, (values) => ({ tag: values.cartTag })],
        [
          { cartTag: victim().cartTag, partnerId: v().partnerId },
          (values) => ({ tag: values.cartTag, partnerId: values.partnerId }),
        ],
        [{ partnerId: v().partnerId }, (values) => ({ tag: self().cartTag, partnerId: values.partnerId })],
      ];
      const query = `query($tag: String!, $partnerId: ID) { cart(cartTag: $tag, partnerId: $partnerId) ${scalarsOf('Cart')} }`;
      for (const [values, variables] of cases) {
        const asPartner = await asGhost(
          victim(),
          values,
          (given) => gql(self().partnerKey, query, variables(given)),
          'cart',
        );
        expect(asPartner.json).toEqual({ data: { cart: null } });
        const asRetail = await asGhost(
          victim(),
          values,
          (given) => gql(self().retailKey, query, variables(given)),
          'cart, retail key',
        );
        expect(errorCode(asRetail)).toBe('FORBIDDEN');
      }
    });

    it("transactions: B's partnerId and every filter naming B's records give nothing; a cursor from B's ledger gives A's rows only", async () => {
      const query = `query($start: Timestamp!, $end: Timestamp!, $filter: [String!], $partnerId: ID, $after: String) {
          transactions(start: $start, end: $end, filter: $filter, partnerId: $partnerId, after: $after) {
            edges { cursor node { id } } nodes ${scalarsOf('Transaction')} pageInfo { hasNextPage endCursor }
          }
        }`;
      const empty = {
        data: {
          transactions: {
            __typename: 'TransactionConnection',
            edges: [],
            nodes: [],
            pageInfo: { __typename: 'PageInfo', hasNextPage: false, endCursor: null },
          },
        },
      };
      const byPartner = await asGhost(
        victim(),
        { partnerId: v().partnerId },
        (values) => gql(self().partnerKey, query, { ...WINDOW, partnerId: values.partnerId }),
        'transactions(partnerId)',
      );
      expect(byPartner.json).toEqual(empty);
      const filters: Array<[string, keyof typeof GHOST, string | null]> = [
        ['merchant.id', 'merchantId', victim().merchantId],
        ['merchant.name', 'merchantName', v().merchantName],
        ['salesClerk.id', 'clerkId', victim().clerkId],
        ['salesClerk.name', 'clerkName', v().clerkName],
        ['financeOrder.id', 'orderId', victim().orderId],
        ['payment.id', 'paymentId', v().paymentIds.at(-1)!],
        ['adjustment.id', 'adjustmentId', v().adjustmentId],
        ['adjustment.notes', 'adjustmentNotes', v().adjustmentNotes],
        ['device.imei', 'imei', victim().imei],
        ['device.simNumber', 'deviceSim', v().deviceSim],
        ['device.phoneNumber', 'devicePhone', v().devicePhone],
      ];
      for (const [path, name, value] of filters) {
        if (value === null) continue;
        const answer = await asGhost(
          victim(),
          { [name]: value },
          (values) => gql(self().partnerKey, query, { ...WINDOW, filter: [`${path}:${values[name]}`] }),
          `transactions filter ${path}`,
        );
        expect(answer.json).toEqual(empty);
      }
      // A cursor taken from B's own ledger (as an operator reads it) moves through A's rows only.
      const theirs = await gql(
        'demo-operator-key',
        'query($p: ID, $start: Timestamp!, $end: Timestamp!) { transactions(start: $start, end: $end, partnerId: $p, first: 1) { edges { cursor } } }',
        { ...WINDOW, p: v().partnerId },
      );
      const cursor = theirs.json.data.transactions.edges[0].cursor as string;
      const after = await gql(self().partnerKey, query, { ...WINDOW, after: cursor });
      expect(after.json.errors).toBeUndefined();
      expectNothingOf(victim(), after, "transactions after B's cursor");
      const asRetail = await asGhost(
        victim(),
        { partnerId: v().partnerId },
        (values) => gql(self().retailKey, query, { ...WINDOW, partnerId: values.partnerId }),
        'transactions, retail key',
      );
      expect(errorCode(asRetail)).toBe('FORBIDDEN');
    });

    it("customers and financeOrders: B's partnerId and B's store give nothing; every status A's own only; a cursor from B's listing A's rows only", async () => {
      for (const [field, type] of [
        ['customers', 'Customer'],
        ['financeOrders', 'FinanceOrder'],
      ] as const) {
        const query = `query($partnerId: ID, $merchantId: ID, $status: FinanceOrderStatus, $createdAfter: Timestamp, $after: String) {
            ${field}(partnerId: $partnerId, merchantId: $merchantId, status: $status, createdAfter: $createdAfter, after: $after) {
              edges { cursor node { id } } nodes ${scalarsOf(type)} pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
            }
          }`;
        const empty = {
          data: {
            [field]: {
              __typename: `${type}Connection`,
              edges: [],
              nodes: [],
              pageInfo: {
                __typename: 'PageInfo',
                hasNextPage: false,
                hasPreviousPage: false,
                startCursor: null,
                endCursor: null,
              },
            },
          },
        };
        const table = field === 'customers' ? 'customers' : 'finance_orders';
        const own = (await db()(table).where({ partner_id: self().known.partnerId }).select('id')).map((row) =>
          String(row.id),
        );
        for (const key of keys()) {
          for (const [name, variable, value] of [
            ['partnerId', 'partnerId', v().partnerId],
            ['merchantId', 'merchantId', victim().merchantId],
          ] as const) {
            const answer = await asGhost(
              victim(),
              { [name]: value },
              (values) => gql(key, query, { [variable]: values[name] }),
              `${field}(${variable})`,
            );
            expect(answer.json).toEqual(empty);
          }
          for (const variables of [
            {},
            { status: 'ACTIVE' },
            { status: 'LOCKED' },
            { status: 'PAID_OFF' },
            { createdAfter: 0 },
          ]) {
            const answer = await gql(key, query, variables);
            expect(answer.json.errors).toBeUndefined();
            const ids = answer.json.data[field].nodes.map((node: { id: string }) => node.id);
            expect(ids.filter((id: string) => !own.includes(id))).toEqual([]);
            expectNothingOf(victim(), answer, `${field} ${JSON.stringify(variables)}`);
          }
          // A cursor taken from B's own listing (as an operator reads it) moves through A's rows only.
          const theirs = await gql('demo-operator-key', query, { partnerId: v().partnerId });
          const cursor = theirs.json.data[field].edges[0].cursor as string;
          const after = await gql(key, query, { after: cursor });
          expect(after.json.errors).toBeUndefined();
          expectNothingOf(victim(), after, `${field} after B's cursor`);
        }
      }
    });

    it("devices: B's partnerId gives nothing; every silence A's own only; a cursor from B's listing A's rows only", async () => {
      const query = `query($partnerId: ID, $filter: DeviceFilter, $after: String) {
          devices(partnerId: $partnerId, filter: $filter, after: $after) {
            edges { cursor node { id } } nodes ${scalarsOf('Device')} pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
          }
        }`;
      const own = (await db()('devices').where({ partner_id: self().known.partnerId }).select('id')).map((row) =>
        String(row.id),
      );
      const byPartner = await asGhost(
        victim(),
        { partnerId: v().partnerId },
        (values) => gql(self().partnerKey, query, { partnerId: values.partnerId }),
        'devices(partnerId)',
      );
      expect(byPartner.json.errors).toBeUndefined();
      expect(byPartner.json.data.devices.nodes).toEqual([]);
      for (const filter of [null, { silentForDays: 1 }, { silentForDays: 3650 }]) {
        const answer = await gql(self().partnerKey, query, { filter });
        expect(answer.json.errors).toBeUndefined();
        const ids = answer.json.data.devices.nodes.map((node: { id: string }) => node.id);
        expect(ids.filter((id: string) => !own.includes(id))).toEqual([]);
        expectNothingOf(victim(), answer, `devices ${JSON.stringify(filter)}`);
      }
      const theirs = await gql('demo-operator-key', query, { partnerId: v().partnerId });
      const cursor = theirs.json.data.devices.edges[0].cursor as string;
      const after = await gql(self().partnerKey, query, { after: cursor });
      expect(after.json.errors).toBeUndefined();
      expectNothingOf(victim(), after, "devices after B's cursor");
      expect(errorCode(await gql(self().retailKey, query, {}))).toBe('FORBIDDEN');
    });

    it("events and event: B's partnerId and B's event ids give nothing, a cursor from B's log A's events only", async () => {
      const query = `query($partnerId: ID, $after: String, $first: Int) {
          events(partnerId: $partnerId, after: $after, first: $first) {
            nodes { ${scalarsOf('Event').slice(1, -1)} partner { id } } pageInfo { hasNextPage endCursor }
          }
        }`;
      const byPartner = await asGhost(
        victim(),
        { partnerId: v().partnerId },
        (values) => gql(self().partnerKey, query, { partnerId: values.partnerId }),
        'events(partnerId)',
      );
      expect(byPartner.json.data.events.nodes).toEqual([]);
      // A's own log, walked to its end: A's events only, and the payments A recorded are in it.
      const own = await gql(self().partnerKey, query, { first: 500 });
      expect(own.json.errors).toBeUndefined();
      const nodes = own.json.data.events.nodes as Array<{ partner: { id: string }; type: string }>;
      expect(nodes.length).toBeGreaterThan(0);
      expect(new Set(nodes.map((node) => node.partner.id))).toEqual(new Set([self().known.partnerId]));
      expectNothingOf(victim(), own, 'own events');
      const theirs = await db()('events').where({ partner_id: v().partnerId }).orderBy('sequence', 'desc');
      for (const event of theirs.slice(0, 3)) {
        const one = await asGhost(
          victim(),
          { eventId: event.id },
          (values) =>
            gql(self().partnerKey, `query($id: ID!) { event(id: $id) ${scalarsOf('Event')} }`, {
              id: values.eventId,
            }),
          'event(id)',
        );
        expect(one.json.data.event).toBeNull();
      }
      // A cursor from B's log (as an operator reads it) moves through A's events only.
      const operatorPage = await gql('demo-operator-key', query, { partnerId: v().partnerId, first: 1 });
      const cursor = operatorPage.json.data.events.pageInfo.endCursor as string;
      const after = await gql(self().partnerKey, query, { after: cursor });
      expect(after.json.errors).toBeUndefined();
      expectNothingOf(victim(), after, "events after B's cursor");
      for (const [field, ask] of [
        ['events', (values: Values) => gql(self().retailKey, query, { partnerId: values.partnerId })],
        [
          'event',
          (values: Values) =>
            gql(self().retailKey, `query($id: ID!) { event(id: $id) ${scalarsOf('Event')} }`, { id: values.eventId }),
        ],
      ] as const) {
        const asRetail = await asGhost(
          victim(),
          { partnerId: v().partnerId, eventId: theirs[0].id },
          ask,
          `${field}, retail key`,
        );
        expect(errorCode(asRetail)).toBe('FORBIDDEN');
      }
    });

    it('operator-only reads are FORBIDDEN, also when they name B: paymentVendors, apiKeys, auditEvents', async () => {
      for (const key of keys()) {
        const vendors = await gql(key, `{ paymentVendors ${scalarsOf('PaymentVendor')} }`);
        expect(errorCode(vendors)).toBe('FORBIDDEN');
        expectNothingOf(victim(), vendors, 'paymentVendors');
        const apiKeys = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) =>
            gql(key, `query($p: ID) { apiKeys(partnerId: $p) ${scalarsOf('ApiKey')} }`, { p: values.partnerId }),
          'apiKeys',
        );
        expect(errorCode(apiKeys)).toBe('FORBIDDEN');
        if (QUERY_FIELDS.includes('auditEvents')) {
          const audit = await asGhost(
            victim(),
            { partnerId: v().partnerId },
            (values) =>
              gql(key, `query($p: ID) { auditEvents(partnerId: $p) { nodes ${scalarsOf('AuditEvent')} } }`, {
                p: values.partnerId,
              }),
            'auditEvents',
          );
          expect(errorCode(audit)).toBe('FORBIDDEN');
        }
      }
    });

    it("a vendor's read is FORBIDDEN to partner and retail keys, also naming B's device: deviceRepayment", async () => {
      for (const key of keys()) {
        const repayment = await asGhost(
          victim(),
          { deviceTag: victim().deviceTag },
          (values) =>
            gql(key, 'query($t: String!) { deviceRepayment(deviceTag: $t) { financeOrderId currency } }', {
              t: values.deviceTag,
            }),
          'deviceRepayment',
        );
        expect(errorCode(repayment)).toBe('FORBIDDEN');
      }
    });
  });
});
