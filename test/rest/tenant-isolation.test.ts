// Tenant isolation, proven by a walk (the partner interface; the graph's root fields, nested paths and
// mutations are test/graph/tenant-isolation-*.test.ts): with partner A's keys (partner and retail key),
// every REST endpoint of the partner interface is asked for partner B's records (merchant, clerk,
// customer by phone, IMEI, tag and id, order, cart, transactions, payments), and A's own lookups are
// walked. Every answer must be 404 / empty / FORBIDDEN, byte for byte the answer to an id that does not
// exist at all (so nothing can be probed), and no response text may contain any of B's identifying
// values (taken from the database, not a hand-kept list). Then the same the other way round.
import { describe, expect, it } from 'vitest';
import { asGhost, expectNothingOf, rest } from '../support/tenantWalk/answers.js';
import {
  DEMO,
  type GHOST,
  OTHER,
  sharedKeyAnswers,
  useTenantWalk,
  type Values,
  WINDOW,
  walkBothWays,
} from '../support/tenantWalk/tenants.js';

useTenantWalk();

it('an idempotency key belongs to its partner: the same key used by another partner records a new payment, not a replay of the first', () => {
  const other = sharedKeyAnswers[OTHER.name]!;
  const demo = sharedKeyAnswers[DEMO.name]!;
  expect([other.status, demo.status], demo.text).toEqual([200, 200]);
  expect(demo.json.payment.remainingBalance).toBe(196);
  expect(demo.json.payment.id).not.toBe(other.json.payment.id);
  expect(demo.json.payment.currency).toBe('USD');
  expectNothingOf(OTHER, demo, "Demo Retail's payment with Other Retail's idempotency key");
});

walkBothWays((self, victim) => {
  const v = () => victim().known;

  describe("the partner interface (REST), with both of A's keys", () => {
    it("list-clerks and list-merchants: A's own only", async () => {
      for (const key of [self().partnerKey, self().retailKey]) {
        const clerks = await rest(`/v1/list-clerks.php?key=${key}`);
        const merchants = await rest(`/v1/list-merchants.php?key=${key}`);
        expect(clerks.json.clerks.map((clerk: { id: string }) => clerk.id).sort()).toEqual(
          [...self().known.ids.clerks!].sort(),
        );
        expect(merchants.json.merchants.map((merchant: { id: string }) => merchant.id).sort()).toEqual(
          [...self().known.ids.merchants!].sort(),
        );
        expectNothingOf(victim(), clerks, 'list-clerks');
        expectNothingOf(victim(), merchants, 'list-merchants');
      }
    });

    it("lookup-customer with B's phone, IMEI, device tag and customer id: 404, as for a customer that does not exist", async () => {
      for (const key of [self().partnerKey, self().retailKey]) {
        for (const locator of ['phone', 'imei', 'deviceTag', 'customerId'] as const) {
          for (const fields of ['', '&fields=device.description']) {
            const answer = await asGhost(
              victim(),
              { [locator]: victim()[locator] },
              (values) => rest(`/v1/lookup-customer.php?key=${key}&customerLocator=${values[locator]}${fields}`),
              `lookup-customer by ${locator}`,
            );
            expect(answer.status).toBe(404);
          }
        }
      }
    });

    it("lookup-cart with B's cart tag: 404 (retail key: 403), as for a cart that does not exist", async () => {
      const asPartner = await asGhost(
        victim(),
        { cartTag: victim().cartTag },
        (values) =>
          rest(
            `/v1/lookup-cart.php?key=${self().partnerKey}&cartTag=${values.cartTag}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
          ),
        'lookup-cart',
      );
      expect(asPartner.status).toBe(404);
      const asRetail = await asGhost(
        victim(),
        { cartTag: victim().cartTag },
        (values) => rest(`/v1/lookup-cart.php?key=${self().retailKey}&cartTag=${values.cartTag}`),
        'lookup-cart, retail key',
      );
      expect(asRetail.status).toBe(403);
    });

    it("list-transactions: A's own window holds none of B's; every filter naming B's records is empty", async () => {
      const window = `starttime=${WINDOW.start}&endtime=${WINDOW.end}`;
      const own = await rest(`/v1/list-transactions.php?key=${self().partnerKey}&${window}`);
      expect(own.status).toBe(200);
      expect(own.json.transactions.length).toBeGreaterThan(0);
      expectNothingOf(victim(), own, 'list-transactions');
      const filters: Array<[string, keyof typeof GHOST, string | null]> = [
        ['merchant.id', 'merchantId', victim().merchantId],
        ['merchant.name', 'merchantName', v().merchantName],
        ['salesClerk.id', 'clerkId', victim().clerkId],
        ['salesClerk.name', 'clerkName', v().clerkName],
        ['financeOrder.id', 'orderId', victim().orderId],
        ['payment.id', 'paymentId', v().paymentIds[0]!],
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
          (values) =>
            rest(
              `/v1/list-transactions.php?key=${self().partnerKey}&${window}&filter=${encodeURIComponent(`${path}:${values[name]}`)}`,
            ),
          `filter ${path}`,
        );
        expect(answer.json).toEqual({ valid: true, transactions: [] });
      }
      const asRetail = await asGhost(
        victim(),
        { orderId: victim().orderId },
        (values) =>
          rest(`/v1/list-transactions.php?key=${self().retailKey}&${window}&filter=financeOrder.id:${values.orderId}`),
        'list-transactions, retail key',
      );
      expect(asRetail.status).toBe(403);
    });

    it("record-customer-payment with B's merchant, clerk or order: 404 and nothing written (partner key: 403)", async () => {
      const own = self();
      const them = victim();
      const combos: Array<{
        values: Values;
        merchant: string | null;
        clerk: string | null;
        order: string | null;
        currency: string;
      }> = [
        {
          values: { merchantId: them.merchantId },
          merchant: null,
          clerk: own.clerkId,
          order: own.orderId,
          currency: own.currency,
        },
        {
          values: { clerkId: them.clerkId },
          merchant: own.merchantId,
          clerk: null,
          order: own.orderId,
          currency: own.currency,
        },
        {
          values: { orderId: them.orderId },
          merchant: own.merchantId,
          clerk: own.clerkId,
          order: null,
          currency: own.currency,
        },
        {
          values: { orderId: them.orderId },
          merchant: own.merchantId,
          clerk: own.clerkId,
          order: null,
          currency: them.currency,
        },
        {
          values: { merchantId: them.merchantId, clerkId: them.clerkId, orderId: them.orderId },
          merchant: null,
          clerk: null,
          order: null,
          currency: them.currency,
        },
      ];
      for (const combo of combos) {
        for (const [key, status] of [
          [own.retailKey, 404],
          [own.partnerKey, 403],
        ] as const) {
          const answer = await asGhost(
            them,
            combo.values,
            (values) =>
              rest(
                `/v1/record-customer-payment.php?key=${key}&merchantId=${combo.merchant ?? values.merchantId}&salesClerkId=${combo.clerk ?? values.clerkId}` +
                  `&financeOrderId=${combo.order ?? values.orderId}&amount=1.00&currency=${combo.currency}`,
                { 'idempotency-key': `iso-${Object.keys(combo.values).join('-')}` },
              ),
            `record-customer-payment ${JSON.stringify(combo.values)}`,
          );
          expect(answer.status).toBe(status);
        }
      }
    });

    it("A's own lookups, walked: customers by every locator, its cart", async () => {
      for (const locator of self().known.locators) {
        const answer = await rest(
          `/v1/lookup-customer.php?key=${self().partnerKey}&customerLocator=${locator}&fields=device.description`,
        );
        expect(answer.status).toBe(200);
        expectNothingOf(victim(), answer, `own lookup-customer ${locator}`);
      }
      const cart = await rest(
        `/v1/lookup-cart.php?key=${self().partnerKey}&cartTag=${self().cartTag}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
      );
      expect(cart.status).toBe(200);
      expectNothingOf(victim(), cart, 'own lookup-cart');
    });
  });
});
