// The book's figures through the graph (docs/decisions.md 45), on PGlite and Postgres: the acceptance
// case exactly. A new partner with lock grace 0; at T0-30d order D (10.00 a month for 12 months, never
// paid); at T0 orders A, B and C (the same terms), A paying 30.00 and B 10.00; at T0+100d the figures
// are outstanding 440.00, PAR 0.7955 / 0.5455 / 0.2727, collection 0.3077, first-payment default
// 0.5000, locked 0.7500, and the ageing puts A, B, C and D in CURRENT, 31-60, 61-90 and 91-180. The
// figures asked at T0+50d are asked again as of then, after the clock, a write-off and a reversal have
// moved on: the same answer. Then: D written off (out of outstanding and PAR, into writtenOff), the
// groupings summing exactly to the totals with their own ratios, who may ask, asOf in the future
// refused, and a reversal that changes the figures only from its own moment on.
//
// The tests run in order and share the partner (`book`): each builds on the ones before it.
import { describe, expect, it } from 'vitest';
import {
  as,
  CREATE_API_KEY,
  CREATE_CART,
  CREATE_CLERK,
  CREATE_CUSTOMER,
  CREATE_DEVICE,
  CREATE_FAMILY,
  CREATE_MERCHANT,
  CREATE_MODEL,
  CREATE_PARTNER,
  DAY,
  FINANCE_CART,
  failure,
  nowSeconds,
  ok,
  operator,
  RECORD_PAYMENT,
  useProvisioningService,
} from '../support/provisioning.js';

useProvisioningService();

const HOUR = 3600;
const METRICS_FIELDS = `group currency asOf openOrders outstanding par30 par60 par90 collectionRate
  firstPaymentDefaultRate lockedShare writtenOff writeOffRatio`;
const METRICS = `query($partnerId: ID!, $asOf: Timestamp, $groupBy: PortfolioGroupBy) {
  portfolioMetrics(partnerId: $partnerId, asOf: $asOf, groupBy: $groupBy) { ${METRICS_FIELDS} } }`;
const AGEING = `query($partnerId: ID!, $asOf: Timestamp) {
  portfolioAgeing(partnerId: $partnerId, asOf: $asOf) { currency asOf orders outstanding buckets { bucket orders outstanding } } }`;
const SET_CLOCK = 'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }';
const CLOSE = `mutation($input: CloseFinanceOrderInput!) { closeFinanceOrder(input: $input) { id status } }`;
const REVERSE = `mutation($input: ReversePaymentInput!) { reversePayment(input: $input) { id amount } }`;

type Metrics = Record<string, any>;

// T0: a whole second 40 days ahead of real time, so T0-30d is still ahead of the new partner's clock
// (a sandbox clock only moves forward).
const T0 = nowSeconds() + 40 * DAY;

const book = {} as {
  partnerId: string;
  merchants: [string, string];
  models: [string, string];
  clerkId: string;
  retailKey: string;
  partnerKey: string;
  orders: Record<'A' | 'B' | 'C' | 'D', string>;
  /** What the service answered at T0+50d (asOf omitted), and its ageing. */
  at50: { metrics: Metrics[]; ageing: any[] };
  /** What it answered at T0+100d, before the write-off. */
  at100: Metrics[];
  /** After the write-off, before the payment to be reversed. */
  afterClose: Metrics[];
};

const moveClockTo = async (at: number) =>
  ok(await operator(SET_CLOCK, { input: { partnerId: book.partnerId, now: at } }));
const metrics = async (variables: Record<string, unknown> = {}, ask = operator): Promise<Metrics[]> =>
  ok(await ask(METRICS, { partnerId: book.partnerId, ...variables })).portfolioMetrics;
const ageing = async (variables: Record<string, unknown> = {}, ask = operator): Promise<any[]> =>
  ok(await ask(AGEING, { partnerId: book.partnerId, ...variables })).portfolioAgeing;
const cents = (decimal: string) => {
  const [whole, fraction = ''] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
};
const sum = (rows: Metrics[], field: string) => rows.reduce((total, row) => total + cents(row[field]), 0);

/** Order `name` at the partner's time now: 10.00 a month for 12 months, on its own customer and device. */
async function sell(name: 'A' | 'B' | 'C' | 'D', merchantId: string, modelId: string): Promise<string> {
  const n = 'ABCD'.indexOf(name) + 1;
  const customer = ok(
    await operator(CREATE_CUSTOMER, {
      input: { partnerId: book.partnerId, name: `Book Customer ${name}`, phoneNumber: `1303555020${n}` },
    }),
  ).createCustomer;
  const device = ok(
    await operator(CREATE_DEVICE, {
      input: {
        partnerId: book.partnerId,
        customerId: customer.id,
        modelId,
        tag: `DTBOOK0${n}`,
        imei: `35693803564390${n}`,
      },
    }),
  ).createDevice;
  const cartTag = `CART-BOOK-${name}`;
  ok(
    await operator(CREATE_CART, {
      input: {
        partnerId: book.partnerId,
        cartTag,
        customerId: customer.id,
        merchantId,
        salesClerkId: book.clerkId,
        deviceModelId: modelId,
        currency: 'USD',
        purchaseAmount: '100.00',
        downPayment: '0.00',
        pricePreTax: '90.00',
        monthlyCost: '10.00',
        weeklyCost: '2.50',
        months: 12,
      },
    }),
  );
  const order = ok(
    await operator(FINANCE_CART, { input: { partnerId: book.partnerId, cartTag, deviceId: device.id } }),
  ).financeCart;
  expect(order).toMatchObject({ monthlyCost: '10.00', months: 12, repayableTotal: '120.00' });
  return order.id;
}

async function pay(order: 'A' | 'B', amount: string, merchantId: string) {
  return ok(
    await as(book.retailKey)(RECORD_PAYMENT, {
      input: { merchantId, salesClerkId: book.clerkId, financeOrderId: book.orders[order], amount, currency: 'USD' },
    }),
  ).recordInStorePayment.payment as { id: string; time: number };
}

const bucketsOf = (entry: any) =>
  Object.fromEntries(entry.buckets.map((b: any) => [b.bucket, [b.orders, b.outstanding]]));

describe('the book of a new partner: the acceptance case, as of moments, and who may read it', () => {
  it('provisions a partner with lock grace 0, sells D at T0-30d and A, B, C at T0; A pays 30.00, B 10.00', async () => {
    book.partnerId = ok(
      await operator(CREATE_PARTNER, { input: { name: 'Book Retail', commissionRateBasisPoints: 0 } }),
    ).createPartner.id;
    const settings = ok(
      await operator(
        'mutation($input: UpdatePartnerSettingsInput!) { updatePartnerSettings(input: $input) { settings { lockGraceHours } } }',
        { input: { partnerId: book.partnerId, lockGraceHours: 0 } },
      ),
    ).updatePartnerSettings.settings;
    expect(settings.lockGraceHours).toBe(0);
    const merchant = async (name: string, phoneNumber: string) =>
      ok(
        await operator(CREATE_MERCHANT, {
          input: {
            partnerId: book.partnerId,
            name,
            phoneNumber,
            address: { street: '1 Book St', city: 'Denver', state: 'CO', postalCode: '80202', country: 'US' },
          },
        }),
      ).createMerchant.id as string;
    book.merchants = [
      await merchant('BOOK STORE ONE', '303-555-0310'),
      await merchant('BOOK STORE TWO', '303-555-0320'),
    ];
    book.clerkId = ok(
      await operator(CREATE_CLERK, {
        input: {
          partnerId: book.partnerId,
          name: 'Book Clerk',
          phoneNumber: '13035550301',
          email: 'clerk@book.example',
        },
      }),
    ).createClerk.id;
    const family = ok(await operator(CREATE_FAMILY, { name: 'Book Phone' })).createDeviceFamily.id;
    const model = async (name: string, makeModel: string) =>
      ok(await operator(CREATE_MODEL, { input: { familyId: family, makeModel, name } })).createDeviceModel.id as string;
    book.models = [await model('Book Phone One', 'BOOK B1'), await model('Book Phone Two', 'BOOK B2')];
    const key = async (kind: string) =>
      ok(await operator(CREATE_API_KEY, { input: { kind, partnerId: book.partnerId } })).createApiKey.secret as string;
    book.retailKey = await key('RETAIL');
    book.partnerKey = await key('PARTNER');

    // Stores: A and C at the first, B and D at the second; models: A and B the first, C and D the second.
    const [m1, m2] = book.merchants;
    const [p1, p2] = book.models;
    book.orders = {} as typeof book.orders;
    await moveClockTo(T0 - 30 * DAY);
    book.orders.D = await sell('D', m2, p2);
    await moveClockTo(T0);
    book.orders.A = await sell('A', m1, p1);
    book.orders.B = await sell('B', m2, p1);
    book.orders.C = await sell('C', m1, p2);
    expect((await pay('A', '30.00', m1)).time).toBeGreaterThanOrEqual(T0);
    await pay('B', '10.00', m2);
  });

  it('at T0+50d: the figures and the ageing as of now (kept, to be asked again later)', async () => {
    await moveClockTo(T0 + 50 * DAY);
    book.at50 = { metrics: await metrics(), ageing: await ageing() };
    const [row] = book.at50.metrics;
    expect(book.at50.metrics).toHaveLength(1);
    expect(row!.asOf).toBeGreaterThanOrEqual(T0 + 50 * DAY);
    expect(row!.asOf).toBeLessThan(T0 + 50 * DAY + HOUR);
    // C is 20 days past due, D 50: PAR30 is D's 120 of 440; due 10 each of A, B, C and 20 of D, of which
    // A and B paid 10 each (A's 20 more ahead of time is not collection); only D's first instalment
    // is 30 days past due, unpaid; C and D are locked.
    expect(row).toMatchObject({
      group: 'all',
      currency: 'USD',
      openOrders: 4,
      outstanding: '440.00',
      par30: '0.2727',
      par60: '0.0000',
      par90: '0.0000',
      collectionRate: '0.4000',
      firstPaymentDefaultRate: '1.0000',
      lockedShare: '0.5000',
      writtenOff: '0.00',
      writeOffRatio: '0.0000',
    });
  });

  it('at T0+100d: outstanding 440.00, PAR 0.7955 / 0.5455 / 0.2727, collection 0.3077, FPD 0.5000, locked 0.7500', async () => {
    await moveClockTo(T0 + 100 * DAY);
    book.at100 = await metrics();
    expect(book.at100).toEqual([
      {
        group: 'all',
        currency: 'USD',
        asOf: expect.any(Number),
        openOrders: 4,
        outstanding: '440.00',
        par30: '0.7955',
        par60: '0.5455',
        par90: '0.2727',
        collectionRate: '0.3077',
        firstPaymentDefaultRate: '0.5000',
        lockedShare: '0.7500',
        writtenOff: '0.00',
        writeOffRatio: '0.0000',
      },
    ]);
    // The partner's own key reads the same book.
    const own = await metrics({ asOf: book.at100[0]!.asOf }, as(book.partnerKey));
    expect(own).toEqual(book.at100);
  });

  it('the ageing puts A current, B in 31-60, C in 61-90 and D in 91-180, summing to the totals', async () => {
    const [usd, ...others] = await ageing({ asOf: book.at100[0]!.asOf });
    expect(others).toEqual([]);
    expect(usd).toMatchObject({ currency: 'USD', asOf: book.at100[0]!.asOf, orders: 4, outstanding: '440.00' });
    expect(usd.buckets.map((b: any) => b.bucket)).toEqual([
      'CURRENT',
      'DPD_1_30',
      'DPD_31_60',
      'DPD_61_90',
      'DPD_91_180',
      'DPD_OVER_180',
    ]);
    expect(bucketsOf(usd)).toEqual({
      CURRENT: [1, '90.00'],
      DPD_1_30: [0, '0.00'],
      DPD_31_60: [1, '110.00'],
      DPD_61_90: [1, '120.00'],
      DPD_91_180: [1, '120.00'],
      DPD_OVER_180: [0, '0.00'],
    });
  });

  it('as of T0+50d, asked at T0+100d, equals what the service answered at T0+50d', async () => {
    const asOf = book.at50.metrics[0]!.asOf;
    expect(await metrics({ asOf })).toEqual(book.at50.metrics);
    expect(await ageing({ asOf })).toEqual(book.at50.ageing);
    expect(bucketsOf(book.at50.ageing[0])).toEqual({
      CURRENT: [2, '200.00'],
      DPD_1_30: [1, '120.00'],
      DPD_31_60: [1, '120.00'],
      DPD_61_90: [0, '0.00'],
      DPD_91_180: [0, '0.00'],
      DPD_OVER_180: [0, '0.00'],
    });
  });

  it('groups by store, model and month of sale: each grouping sums exactly to the totals, with its own ratios', async () => {
    const asOf = book.at100[0]!.asOf;
    const [total] = book.at100;
    const [m1, m2] = book.merchants;
    for (const groupBy of ['MERCHANT', 'DEVICE_MODEL', 'COHORT_MONTH']) {
      const rows = await metrics({ asOf, groupBy });
      expect(rows.length, groupBy).toBeGreaterThan(0);
      expect(
        rows.reduce((n, row) => n + row.openOrders, 0),
        groupBy,
      ).toBe(total!.openOrders);
      expect(sum(rows, 'outstanding'), groupBy).toBe(cents(total!.outstanding));
      expect(sum(rows, 'writtenOff'), groupBy).toBe(cents(total!.writtenOff));
      for (const row of rows) expect(row).toMatchObject({ currency: 'USD', asOf });
    }
    // The first store holds A and C, the second B and D: each row's ratios are over its own sums.
    const byStore = Object.fromEntries((await metrics({ asOf, groupBy: 'MERCHANT' })).map((row) => [row.group, row]));
    expect(Object.keys(byStore).sort()).toEqual([m1, m2].sort());
    expect(byStore[m1!]).toMatchObject({
      openOrders: 2,
      outstanding: '210.00',
      par30: '0.5714', // C's 120 of 210
      par60: '0.5714',
      par90: '0.0000',
      collectionRate: '0.5000', // A's 30 of 60 due
      firstPaymentDefaultRate: '0.5000', // C
      lockedShare: '0.5000', // C
    });
    expect(byStore[m2!]).toMatchObject({
      openOrders: 2,
      outstanding: '230.00',
      par30: '1.0000',
      par60: '0.5217', // D's 120 of 230
      par90: '0.5217',
      collectionRate: '0.1429', // B's 10 of 70 due (30 of B, 40 of D)
      firstPaymentDefaultRate: '0.5000', // D
      lockedShare: '1.0000',
    });
    // The first model is A and B, the second C and D.
    const byModel = Object.fromEntries(
      (await metrics({ asOf, groupBy: 'DEVICE_MODEL' })).map((row) => [row.group, row]),
    );
    expect(byModel['Book Phone One']).toMatchObject({ openOrders: 2, outstanding: '200.00', par30: '0.5500' });
    expect(byModel['Book Phone Two']).toMatchObject({ openOrders: 2, outstanding: '240.00', par90: '0.5000' });
    // Months of sale (UTC): D's, and A, B and C's (the same month when T0-30d falls in T0's month).
    const month = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 7);
    const cohorts = await metrics({ asOf, groupBy: 'COHORT_MONTH' });
    if (month(T0 - 30 * DAY) === month(T0)) expect(cohorts.map((row) => row.group)).toEqual([month(T0)]);
    else {
      const byMonth = Object.fromEntries(cohorts.map((row) => [row.group, row]));
      expect(Object.keys(byMonth).sort()).toEqual([month(T0 - 30 * DAY), month(T0)]);
      expect(byMonth[month(T0 - 30 * DAY)]).toMatchObject({ openOrders: 1, outstanding: '120.00', par90: '1.0000' });
      expect(byMonth[month(T0)]).toMatchObject({ openOrders: 3, outstanding: '320.00', collectionRate: '0.4444' });
    }
  });

  it("refuses another partner's key, retail and vendor keys (FORBIDDEN), and an unknown partner (RESOURCE_NOT_FOUND)", async () => {
    for (const key of ['demo-partner-key', book.retailKey, 'demo-retail-key', 'demo-vendor-key']) {
      expect(failure(await as(key)(METRICS, { partnerId: book.partnerId })), key).toBe('FORBIDDEN');
      expect(failure(await as(key)(AGEING, { partnerId: book.partnerId })), key).toBe('FORBIDDEN');
    }
    // Demo Retail's own partner key reads its own book.
    ok(await as('demo-partner-key')(METRICS, { partnerId: '1' }));
    expect(failure(await as(book.partnerKey)(METRICS, { partnerId: '1' }))).toBe('FORBIDDEN');
    for (const partnerId of ['999999', 'nope']) {
      expect(failure(await operator(METRICS, { partnerId })), partnerId).toBe('RESOURCE_NOT_FOUND');
      expect(failure(await operator(AGEING, { partnerId })), partnerId).toBe('RESOURCE_NOT_FOUND');
    }
  });

  it("refuses an asOf after the partner's now (INVALID_ARGUMENT naming it); its current second is not after", async () => {
    const clock = ok(
      await operator('query($id: ID!) { partner(id: $id) { sandboxClock { now } } }', { id: book.partnerId }),
    ).partner.sandboxClock.now as number;
    for (const query of [METRICS, AGEING]) {
      const body = await operator(query, { partnerId: book.partnerId, asOf: clock + DAY });
      expect(failure(body)).toBe('INVALID_ARGUMENT');
      expect(body.errors![0]!.message).toMatch(/asOf/);
    }
    // Its clock now (the second the partner is in, or one just past): answered.
    expect(await metrics({ asOf: clock })).toHaveLength(1);
  });

  it('writing D off moves it out of outstanding and PAR and into writtenOff', async () => {
    await moveClockTo(T0 + 100 * DAY + HOUR);
    const closed = ok(
      await operator(CLOSE, { input: { financeOrderId: book.orders.D, reason: 'WRITE_OFF', note: 'never paid' } }),
    ).closeFinanceOrder;
    expect(closed.status).toBe('WRITTEN_OFF');
    book.afterClose = await metrics();
    // writeOffRatio = 120 ÷ ((440 at the period's start + 320 now) ÷ 2) = 240 ÷ 760; D leaves the
    // collection (closed) but not the first-payment default (it is the case it exists for).
    expect(book.afterClose).toEqual([
      {
        group: 'all',
        currency: 'USD',
        asOf: expect.any(Number),
        openOrders: 3,
        outstanding: '320.00',
        par30: '0.7188',
        par60: '0.3750',
        par90: '0.0000',
        collectionRate: '0.4444',
        firstPaymentDefaultRate: '0.5000',
        lockedShare: '0.6667',
        writtenOff: '120.00',
        writeOffRatio: '0.3158',
      },
    ]);
    const [usd] = await ageing();
    expect(usd).toMatchObject({ orders: 3, outstanding: '320.00' });
    expect(bucketsOf(usd).DPD_91_180).toEqual([0, '0.00']);
    // As of before the close, D is still there.
    expect(await metrics({ asOf: book.at100[0]!.asOf })).toEqual(book.at100);
    // The store and month rows still sum to the totals.
    const byStore = await metrics({ groupBy: 'MERCHANT' });
    expect(sum(byStore, 'writtenOff')).toBe(12000);
    expect(sum(byStore, 'outstanding')).toBe(32000);
  });

  it('a reversal changes the figures from its own moment on, never as of before it', async () => {
    // In a later second than the figures after the close (as of a second takes all of that second).
    await moveClockTo(T0 + 100 * DAY + HOUR + HOUR / 2);
    const payment = await pay('A', '10.00', book.merchants[0]);
    await moveClockTo(T0 + 100 * DAY + 2 * HOUR);
    const paid = await metrics();
    expect(paid[0]).toMatchObject({ outstanding: '310.00', collectionRate: '0.4444' });
    await moveClockTo(T0 + 100 * DAY + 3 * HOUR);
    const reversal = ok(
      await as(book.partnerKey)(REVERSE, { input: { paymentId: payment.id, reason: 'credited twice' } }),
    ).reversePayment;
    expect(reversal.amount).toBe('10.00');
    // As of between the payment and the reversal: as answered then.
    expect(await metrics({ asOf: paid[0]!.asOf })).toEqual(paid);
    // As of now: A owes its 10.00 again.
    const now = await metrics();
    expect(now[0]).toMatchObject({ outstanding: '320.00', writtenOff: '120.00' });
    // As of before the payment, and of T0+50d: unchanged by either.
    expect(await metrics({ asOf: book.afterClose[0]!.asOf })).toEqual(book.afterClose);
    expect(await metrics({ asOf: book.at50.metrics[0]!.asOf })).toEqual(book.at50.metrics);
  });
});
