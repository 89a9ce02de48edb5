// Tenant isolation, proven by a walk (test/rest/tenant-isolation.test.ts has the partner interface):
// with partner A's keys (partner and retail key), every GraphQL mutation a partner key can call is
// asked to act on partner B's records (webhook endpoints and events, devices, payments, references,
// keys), and every operator-only one too. Every answer must be RESOURCE_NOT_FOUND or FORBIDDEN, byte for
// byte the answer to records that do not exist at all, and nothing may be written. Then the same the
// other way round.
import { describe, expect, it } from 'vitest';
import { asGhost, db, errorCode, expectNothingOf, gql } from '../support/tenantWalk/answers.js';
import { MUTATION_COVERAGE, MUTATION_FIELDS, scalarsOf } from '../support/tenantWalk/graphWalk.js';
import { useTenantWalk, type Values, walkBothWays } from '../support/tenantWalk/tenants.js';

useTenantWalk();

walkBothWays((self, victim) => {
  const v = () => victim().known;

  describe('mutations a partner key can call', () => {
    it("webhook endpoints: B's are never listed; each mutation naming B's endpoint, event or partner is RESOURCE_NOT_FOUND and writes nothing; retail keys: FORBIDDEN", async () => {
      const own = self();
      const them = victim();
      const listed = await asGhost(
        them,
        { partnerId: v().partnerId },
        (values) =>
          gql(
            own.partnerKey,
            `query($p: ID) { webhookEndpoints(partnerId: $p) { nodes ${scalarsOf('WebhookEndpoint')} } }`,
            {
              p: values.partnerId,
            },
          ),
        'webhookEndpoints(partnerId)',
      );
      expect(listed.json.data.webhookEndpoints.nodes).toEqual([]);
      const mine = await gql(
        own.partnerKey,
        '{ webhookEndpoints { nodes { id url deliveries { nodes { id event { id data } } } } } }',
      );
      expect(mine.json.data.webhookEndpoints.nodes.map((endpoint: { id: string }) => endpoint.id)).toEqual([
        own.known.endpointId,
      ]);
      expectNothingOf(them, mine, 'webhookEndpoints');
      const mutations: Array<[string, Values, (values: Values) => Record<string, unknown>]> = [
        [
          'mutation($p: ID) { createWebhookEndpoint(input: { partnerId: $p, url: "http://127.0.0.1:9/x", eventTypes: [PAYMENT_RECORDED] }) { secret } }',
          { partnerId: v().partnerId },
          (values) => ({ p: values.partnerId }),
        ],
        [
          'mutation($id: ID!) { updateWebhookEndpoint(input: { id: $id, enabled: false }) { id } }',
          { endpointId: v().endpointId },
          (values) => ({ id: values.endpointId }),
        ],
        [
          'mutation($id: ID!) { rotateWebhookSecret(id: $id) { secret } }',
          { endpointId: v().endpointId },
          (values) => ({ id: values.endpointId }),
        ],
        [
          'mutation($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }',
          { endpointId: v().endpointId },
          (values) => ({ id: values.endpointId }),
        ],
        [
          'mutation($id: ID!) { sendTestWebhook(endpointId: $id) { id } }',
          { endpointId: v().endpointId },
          (values) => ({ id: values.endpointId }),
        ],
        [
          'mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id } }',
          { eventId: v().eventId },
          (values) => ({ e: values.eventId, w: own.known.endpointId }),
        ],
        [
          'mutation($e: ID!, $w: ID!) { redeliverEvent(eventId: $e, endpointId: $w) { id } }',
          { endpointId: v().endpointId },
          (values) => ({ e: own.known.eventId, w: values.endpointId }),
        ],
      ];
      for (const [mutation, values, variables] of mutations) {
        const asPartner = await asGhost(
          them,
          values,
          (given) => gql(own.partnerKey, mutation, variables(given)),
          mutation.slice(0, 60),
        );
        expect(errorCode(asPartner)).toBe('RESOURCE_NOT_FOUND');
        const asRetail = await asGhost(
          them,
          values,
          (given) => gql(own.retailKey, mutation, variables(given)),
          mutation.slice(0, 60),
        );
        expect(errorCode(asRetail)).toBe('FORBIDDEN');
      }
    });

    it("sendDeviceCommand naming B's device: RESOURCE_NOT_FOUND with a partner key, FORBIDDEN with a retail key, nothing written", async () => {
      const mutation =
        'mutation($id: ID!) { sendDeviceCommand(input: { deviceId: $id, type: LOCK_NOW }) { id status } }';
      for (const [key, code] of [
        [self().partnerKey, 'RESOURCE_NOT_FOUND'],
        [self().retailKey, 'FORBIDDEN'],
      ] as const) {
        const answer = await asGhost(
          victim(),
          { deviceId: v().deviceId },
          (values) => gql(key, mutation, { id: values.deviceId }),
          'sendDeviceCommand',
        );
        expect(errorCode(answer)).toBe(code);
      }
    });

    it("reversePayment naming B's payments: RESOURCE_NOT_FOUND with a partner key, FORBIDDEN with a retail key; reverseVendorPayment: FORBIDDEN; nothing written", async () => {
      const mutation = 'mutation($id: ID!) { reversePayment(input: { paymentId: $id, reason: "isolation" }) { id } }';
      expect(v().paymentIds.length).toBeGreaterThan(0);
      for (const paymentId of v().paymentIds) {
        for (const [key, code] of [
          [self().partnerKey, 'RESOURCE_NOT_FOUND'],
          [self().retailKey, 'FORBIDDEN'],
        ] as const) {
          const answer = await asGhost(
            victim(),
            { paymentId },
            (values) => gql(key, mutation, { id: values.paymentId }),
            'reversePayment',
          );
          expect(errorCode(answer)).toBe(code);
        }
      }
      const vendor =
        'mutation { reverseVendorPayment(input: { paymentVendor: "demo-vendor", reference: "isolation", reason: "isolation" }) { id } }';
      for (const key of [self().partnerKey, self().retailKey])
        expect(errorCode(await gql(key, vendor))).toBe('FORBIDDEN');
    });

    it("recordInStorePayment with B's merchant, clerk or order: RESOURCE_NOT_FOUND and nothing written; partner key: FORBIDDEN", async () => {
      const own = self();
      const them = victim();
      const mutation = `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) {
          time deviceTag remainingBalance currency nextPayment fullyPaid replayed payment { id financeOrder { id } merchant { id } salesClerk { id } } } }`;
      const combos: Array<[Values, (values: Values) => Record<string, string>]> = [
        [
          { merchantId: them.merchantId },
          (values) => ({
            merchantId: values.merchantId!,
            salesClerkId: own.clerkId,
            financeOrderId: own.orderId,
            currency: own.currency,
          }),
        ],
        [
          { clerkId: them.clerkId },
          (values) => ({
            merchantId: own.merchantId,
            salesClerkId: values.clerkId!,
            financeOrderId: own.orderId,
            currency: own.currency,
          }),
        ],
        [
          { orderId: them.orderId },
          (values) => ({
            merchantId: own.merchantId,
            salesClerkId: own.clerkId,
            financeOrderId: values.orderId!,
            currency: own.currency,
          }),
        ],
        [
          { orderId: them.orderId },
          (values) => ({
            merchantId: own.merchantId,
            salesClerkId: own.clerkId,
            financeOrderId: values.orderId!,
            currency: them.currency,
          }),
        ],
        [
          { merchantId: them.merchantId, clerkId: them.clerkId, orderId: them.orderId },
          (values) => ({
            merchantId: values.merchantId!,
            salesClerkId: values.clerkId!,
            financeOrderId: values.orderId!,
            currency: them.currency,
          }),
        ],
      ];
      for (const [values, input] of combos) {
        for (const [key, code] of [
          [own.retailKey, 'RESOURCE_NOT_FOUND'],
          [own.partnerKey, 'FORBIDDEN'],
        ] as const) {
          const answer = await asGhost(
            them,
            values,
            (given) =>
              gql(key, mutation, { input: { ...input(given), amount: '1.00', idempotencyKey: 'iso-graph-1' } }),
            `recordInStorePayment ${JSON.stringify(values)}`,
          );
          expect(errorCode(answer)).toBe(code);
          expect(answer.json.data).toBeNull();
        }
      }
    });

    it("createPaymentNotification naming B's device, with A's keys: refused, nothing written", async () => {
      const mutation =
        'mutation($n: JSON!) { createPaymentNotification(notification: $n) { message receipt { deviceTag payment { id } } } }';
      for (const key of [self().partnerKey, self().retailKey]) {
        for (const [name, field] of [
          ['deviceTag', 'deviceTag'],
          ['imei', 'imei'],
          ['orderId', 'financeOrderId'],
        ] as const) {
          const answer = await asGhost(
            victim(),
            { [name]: victim()[name] },
            (values) =>
              gql(key, mutation, {
                n: {
                  paymentVendor: 'demo-vendor',
                  amount: '1.00',
                  currency: victim().currency,
                  reference: 'ISO-PARTNER-1',
                  [field]: values[name],
                },
              }),
            `createPaymentNotification by ${field}`,
          );
          expect(errorCode(answer)).toBe('FORBIDDEN');
        }
      }
    });

    it("createAccessToken with B's partner key: refused, nothing of B's in the answer", async () => {
      for (const key of [self().partnerKey, self().retailKey]) {
        const answer = await gql(key, 'mutation($k: String!) { createAccessToken(apiKey: $k) { accessToken } }', {
          k: victim().partnerKey,
        });
        expect(errorCode(answer)).toBe('INVALID_API_KEY');
        expectNothingOf(victim(), answer, 'createAccessToken');
      }
    });

    it("setSandboxClock and resetSandboxClock naming B's partner: FORBIDDEN, the same as for a partner that does not exist, B's clock unmoved", async () => {
      const them = victim();
      const clocks: Array<[string, (values: Values) => Record<string, unknown>]> = [
        [
          'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { partnerId now } }',
          (values) => ({ input: { partnerId: values.partnerId, now: 4_000_000_000 } }),
        ],
        [
          'mutation($id: ID!) { resetSandboxClock(partnerId: $id) { partnerId now } }',
          (values) => ({ id: values.partnerId }),
        ],
      ];
      const clockOf = () => db()('sandbox_clocks').where({ partner_id: v().partnerId }).first();
      const before = await clockOf();
      for (const key of [self().partnerKey, self().retailKey]) {
        for (const [mutation, variables] of clocks) {
          const answer = await asGhost(
            them,
            { partnerId: v().partnerId },
            (given) => gql(key, mutation, variables(given)),
            mutation.slice(0, 60),
          );
          expect(errorCode(answer)).toBe('FORBIDDEN');
        }
      }
      expect(await clockOf()).toEqual(before);
    });

    it("every operator-only mutation naming B's records: FORBIDDEN, the same as for records that do not exist, nothing written", async () => {
      const them = victim();
      const mutations: Array<[string, Values, (values: Values) => Record<string, unknown>]> = [
        [
          'mutation($input: CreatePartnerInput!) { createPartner(input: $input) { id } }',
          {},
          () => ({ input: { name: 'Isolation Partner', commissionRateBasisPoints: 100 } }),
        ],
        [
          'mutation($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { id } }',
          { partnerId: v().partnerId },
          (values) => ({ input: { partnerId: values.partnerId, lockGraceHours: 24 } }),
        ],
        [
          'mutation($input: CreateMerchantInput!) { createMerchant(input: $input) { id } }',
          { partnerId: v().partnerId },
          (values) => ({
            input: {
              partnerId: values.partnerId,
              name: 'X',
              phoneNumber: '1',
              address: { street: '1', city: '1', state: '1', country: 'US' },
            },
          }),
        ],
        [
          'mutation($input: CreateClerkInput!) { createClerk(input: $input) { id } }',
          { partnerId: v().partnerId },
          (values) => ({
            input: { partnerId: values.partnerId, name: 'X', phoneNumber: '1', email: 'x@example.com' },
          }),
        ],
        [
          'mutation($input: CreateCustomerInput!) { createCustomer(input: $input) { id } }',
          { partnerId: v().partnerId },
          (values) => ({ input: { partnerId: values.partnerId, name: 'X', phoneNumber: '17755559999' } }),
        ],
        [
          'mutation($name: String!) { createDeviceFamily(name: $name) { id } }',
          {},
          () => ({ name: 'Isolation Family' }),
        ],
        [
          'mutation($input: CreateDeviceModelInput!) { createDeviceModel(input: $input) { id } }',
          {},
          () => ({ input: { familyId: '3', makeModel: 'ISO I1', name: 'I1' } }),
        ],
        [
          'mutation($input: CreateDeviceInput!) { createDevice(input: $input) { id } }',
          { partnerId: v().partnerId, customerId: them.customerId },
          (values) => ({
            input: {
              partnerId: values.partnerId,
              customerId: values.customerId,
              modelId: '12',
              tag: 'DTISO001',
              imei: '490154203237609',
            },
          }),
        ],
        [
          'mutation($input: CreateCartInput!) { createCart(input: $input) { id } }',
          {
            partnerId: v().partnerId,
            customerId: them.customerId,
            merchantId: them.merchantId,
            clerkId: them.clerkId,
          },
          (values) => ({
            input: {
              partnerId: values.partnerId,
              cartTag: 'CART-ISO',
              customerId: values.customerId,
              merchantId: values.merchantId,
              salesClerkId: values.clerkId,
              deviceModelId: '12',
              currency: them.currency,
              purchaseAmount: '10.00',
              downPayment: '1.00',
              pricePreTax: '10.00',
              monthlyCost: '1.00',
              weeklyCost: '0.25',
              months: 9,
            },
          }),
        ],
        [
          'mutation($input: FinanceCartInput!) { financeCart(input: $input) { id } }',
          { partnerId: v().partnerId, cartTag: them.cartTag },
          (values) => ({ input: { partnerId: values.partnerId, cartTag: values.cartTag, deviceId: '1' } }),
        ],
        [
          'mutation($input: CreateAdjustmentInput!) { createAdjustment(input: $input) { id } }',
          { partnerId: v().partnerId, merchantId: them.merchantId, orderId: them.orderId },
          (values) => ({
            input: {
              partnerId: values.partnerId,
              kind: 'PAYMENT',
              amount: '1.00',
              currency: them.currency,
              notes: 'x',
              merchantId: values.merchantId,
              financeOrderId: values.orderId,
            },
          }),
        ],
        [
          'mutation($input: CloseFinanceOrderInput!) { closeFinanceOrder(input: $input) { id } }',
          { orderId: them.orderId },
          (values) => ({ input: { financeOrderId: values.orderId, reason: 'WRITE_OFF', note: 'x' } }),
        ],
        [
          'mutation($input: CreatePaymentVendorInput!) { createPaymentVendor(input: $input) { id } }',
          {},
          () => ({ input: { name: 'iso-vendor', displayName: 'Iso', requestSchema: { type: 'object' } } }),
        ],
        [
          'mutation($input: UpdatePaymentVendorInput!) { updatePaymentVendor(input: $input) { id } }',
          {},
          () => ({ input: { id: '1', enabled: false } }),
        ],
        [
          'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { secret apiKey { id } } }',
          { partnerId: v().partnerId },
          (values) => ({ input: { kind: 'RETAIL', partnerId: values.partnerId } }),
        ],
        [
          'mutation($id: ID!) { revokeApiKey(id: $id) { id partner { id name } } }',
          { partnerKeyId: v().partnerKeyId },
          (values) => ({ id: values.partnerKeyId }),
        ],
      ];
      const covered = new Set(mutations.map(([mutation]) => /\{\s*(\w+)\(/.exec(mutation)![1]!));
      expect(
        MUTATION_FIELDS.filter(
          (field) => MUTATION_COVERAGE[field]?.startsWith('operators only') && !covered.has(field),
        ),
      ).toEqual([]);
      for (const key of [self().partnerKey, self().retailKey]) {
        for (const [mutation, values, variables] of mutations) {
          const answer = await asGhost(
            them,
            values,
            (given) => gql(key, mutation, variables(given)),
            mutation.slice(0, 60),
          );
          expect(errorCode(answer)).toBe('FORBIDDEN');
        }
      }
    });
  });
});
