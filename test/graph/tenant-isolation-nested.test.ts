// Tenant isolation, proven by a walk (test/rest/tenant-isolation.test.ts has the partner interface):
// from partner A's own objects (viewer, partner, customers, orders, cart, ledger), every nested field
// of the graph, as deep as the schema goes, read from the schema itself; every answer must hold A's
// data and nothing of partner B's records or identifying values. Then the same the other way round.
import { describe, expect, it } from 'vitest';
import { expectNothingOf, gql } from '../support/tenantWalk/answers.js';
import { scalarsOf, unwalkable, walkQueries } from '../support/tenantWalk/graphWalk.js';
import { DEMO, useTenantWalk, WINDOW, walkBothWays } from '../support/tenantWalk/tenants.js';

useTenantWalk();

walkBothWays((self, victim) => {
  describe("nested paths from A's own objects, every field as deep as the schema goes", () => {
    /** Runs every query of a walk; each answer must hold A's data and nothing of B's. */
    async function walkAll(
      key: string,
      queries: string[],
      variables: Record<string, unknown>,
      what: string,
    ): Promise<void> {
      expect(queries.length).toBeGreaterThan(0);
      for (const query of queries) {
        const answer = await gql(key, query, variables);
        expect(answer.json.errors, `${what}: ${answer.text.slice(0, 300)}`).toBeUndefined();
        expectNothingOf(victim(), answer, what);
      }
    }

    it('the walk can ask for every nested field', () => {
      walkQueries('query', 'viewer', 'Viewer', false);
      expect([...unwalkable]).toEqual([]);
    });

    it('viewer, partner, merchants, clerks and the device catalogue', async () => {
      for (const key of [self().partnerKey, self().retailKey]) {
        const viewer = await gql(
          key,
          `{ viewer ${scalarsOf('Viewer')} partner(id: "${self().known.partnerId}") { id } }`,
        );
        expect(viewer.json.data.partner).toEqual({ __typename: 'Partner', id: self().known.partnerId });
        await walkAll(key, walkQueries('query', 'viewer', 'Viewer', false), {}, 'viewer');
        await walkAll(
          key,
          walkQueries('query($id: ID!)', 'partner(id: $id)', 'Partner', false),
          { id: self().known.partnerId },
          'own partner',
        );
        await walkAll(key, walkQueries('query', 'merchants', 'Merchant', true), {}, 'merchants');
        await walkAll(key, walkQueries('query', 'clerks', 'Clerk', true), {}, 'clerks');
        await walkAll(key, walkQueries('query', 'deviceFamilies', 'DeviceFamily', true), {}, 'deviceFamilies');
      }
    });

    it('every customer of A (by each of its locators), walked to the end', async () => {
      const queries = walkQueries('query($l: String!)', 'customer(locator: $l)', 'Customer', false);
      for (const key of [self().partnerKey, self().retailKey]) {
        for (const id of self().known.ids.customers!) await walkAll(key, queries, { l: id }, `own customer ${id}`);
        for (const locator of [...self().known.locators, self().imei]) {
          const found = await gql(key, 'query($l: String!) { customer(locator: $l) { id financeOrder { id } } }', {
            l: locator,
          });
          expect(found.json.data.customer, locator).not.toBeNull();
          expectNothingOf(victim(), found, `own customer by ${locator}`);
        }
      }
    });

    it('every order of A, walked to the end', async () => {
      const queries = walkQueries('query($id: ID!)', 'financeOrder(id: $id)', 'FinanceOrder', false);
      for (const key of [self().partnerKey, self().retailKey]) {
        for (const id of self().known.ids.finance_orders!) {
          const found = await gql(key, 'query($id: ID!) { financeOrder(id: $id) { id } }', { id });
          expect(found.json.data.financeOrder.id).toBe(id);
          await walkAll(key, queries, { id }, `own order ${id}`);
        }
      }
    });

    it("A's cart, walked to the end", async () => {
      const found = await gql(self().partnerKey, 'query($tag: String!) { cart(cartTag: $tag) { cartTag } }', {
        tag: self().cartTag,
      });
      expect(found.json.data.cart.cartTag).toBe(self().cartTag);
      await walkAll(
        self().partnerKey,
        walkQueries('query($tag: String!)', 'cart(cartTag: $tag)', 'Cart', false),
        { tag: self().cartTag },
        'own cart',
      );
    });

    it("A's whole ledger: every transaction type, walked to the end", async () => {
      const all = await gql(
        self().partnerKey,
        'query($start: Timestamp!, $end: Timestamp!) { transactions(start: $start, end: $end) { nodes { type } } }',
        WINDOW,
      );
      const types = new Set(all.json.data.transactions.nodes.map((node: { type: string }) => node.type));
      expect([...types].sort()).toEqual(
        self().name === DEMO.name ? ['ADJUSTMENT', 'CASH', 'COMMISSION', 'FINANCE'] : ['ADJUSTMENT', 'CASH', 'FINANCE'],
      );
      const queries = walkQueries(
        'query($start: Timestamp!, $end: Timestamp!)',
        'transactions(start: $start, end: $end, first: 10) { nodes',
        'Transaction',
        true,
      ).map((query) => query.replace(/ \}$/, ' } }'));
      await walkAll(self().partnerKey, queries, WINDOW, 'own ledger');
    });
  });
});
