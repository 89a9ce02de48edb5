// Silent devices: Query.devices(filter: { silentForDays }) and Device.silentSince (docs/decisions.md
// 22). A device is silent since its last check-in, or, never checked in, since its first finance
// order; the filter compares that with the partner's time less the days, at the boundary exactly.
// Tenancy as for the other listings, bad values refused, cursor pages, and a sandbox clock moved
// ahead, for one partner's listing and for an operator's listing of every partner.
// On PGlite by default, on Postgres with TEST_DATABASE_URL.
import { describe, expect, it } from 'vitest';
import { useSeededService } from '../support/fixtures.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const NOW_S = NOW.getTime() / 1000;
const T = Date.parse('2026-06-10T00:00:00Z') / 1000;
const DAY = 86_400;
const fixture = useSeededService({ now: NOW });
const as = (key: string) => async (query: string, variables?: Record<string, unknown>) =>
  (await fixture.service.graphql(query, { 'x-api-key': key }, variables)).body as any;
const demoPartner = as('demo-partner-key');
const demoRetail = as('demo-retail-key');
const otherPartner = as('other-partner-key');
const operator = as('demo-operator-key');
const vendor = as('demo-vendor-key');

const DEVICES = `query($first: Int, $after: String, $filter: DeviceFilter, $partnerId: ID) {
  devices(first: $first, after: $after, filter: $filter, partnerId: $partnerId) {
    edges { cursor node { id } }
    nodes { id tag silentSince }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

type Ask = ReturnType<typeof as>;

/** The ids of one page of devices (its errors must be none). */
async function idsOf(ask: Ask, variables: Record<string, unknown> = {}): Promise<string[]> {
  const body = await ask(DEVICES, variables);
  expect(body.errors).toBeUndefined();
  return (body.data.devices.nodes as Array<{ id: string }>).map((node) => node.id);
}
const silentFor = (ask: Ask, days: number, partnerId?: string) =>
  idsOf(ask, { filter: { silentForDays: days }, ...(partnerId ? { partnerId } : {}) });

const partnerIdOf = async (name: string): Promise<string> =>
  String((await fixture.database.db('partners').where({ name }).first()).id);

/** A device's last check-in, written as the device door writes it (the partner's time). */
const checkedInAt = (deviceId: string, at: number) =>
  fixture.database
    .db('devices')
    .where({ id: deviceId })
    .update({ last_checkin_at: new Date(at * 1000) });

// The demo's devices: 1, 2, 3 (Demo Retail; orders made at T-40d, T-400d, T-100d) and 4 (Other
// Retail; order at T-20d). Device 1 checks in 2 days ago, device 3 exactly 10 days ago; 2 and 4 never.
describe('Query.devices and Device.silentSince', () => {
  it('silentSince: the last check-in, else the first order; the listing unfiltered holds every device', async () => {
    await checkedInAt('1', NOW_S - 2 * DAY);
    await checkedInAt('3', NOW_S - 10 * DAY);
    const body = await demoPartner(DEVICES);
    expect(body.errors).toBeUndefined();
    expect(body.data.devices.nodes).toEqual([
      { id: '1', tag: 'DTSTBBB', silentSince: NOW_S - 2 * DAY },
      { id: '2', tag: 'DTSTBBC', silentSince: T - 400 * DAY },
      { id: '3', tag: 'DTSTBBD', silentSince: NOW_S - 10 * DAY },
    ]);
    expect(body.data.devices.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it.each([
    [1, ['1', '2', '3']],
    [2, ['1', '2', '3']],
    [3, ['2', '3']],
    // Device 3 checked in exactly 10 days ago: silent for at least 10 days, not 11.
    [10, ['2', '3']],
    [11, ['2']],
    // Device 2's order was made at T-400d, before NOW-400d (NOW is T+15.5h).
    [400, ['2']],
    [401, []],
    [3650, []],
  ])('silentForDays %i: the devices silent at least that long, in id order', async (days, ids) => {
    expect(await silentFor(demoPartner, days)).toEqual(ids);
  });

  it('a device never checked in and never financed has no silentSince and is never silent', async () => {
    const demo = await partnerIdOf('Demo Retail');
    const created = await operator(
      `mutation($input: CreateDeviceInput!) { createDevice(input: $input) { id silentSince } }`,
      { input: { partnerId: demo, customerId: '4000005', modelId: '3', tag: 'SILENT-NEW', imei: '356938035643809' } },
    );
    expect(created.errors).toBeUndefined();
    const { id, silentSince } = created.data.createDevice;
    expect(silentSince).toBeNull();
    expect(await idsOf(demoPartner)).toContain(id);
    expect(await silentFor(demoPartner, 1)).toEqual(['1', '2', '3']);
  });

  it("tenancy: partner keys list their own partner's devices; operators every partner's or one; retail and vendors FORBIDDEN", async () => {
    const demo = await partnerIdOf('Demo Retail');
    const other = await partnerIdOf('Other Retail');
    expect(await silentFor(otherPartner, 1)).toEqual(['4']);
    expect(await silentFor(otherPartner, 21)).toEqual([]);
    // Another partner's id, and an id that cannot exist, list nothing.
    expect(await silentFor(otherPartner, 1, demo)).toEqual([]);
    expect(await silentFor(demoPartner, 1, other)).toEqual([]);
    expect(await silentFor(demoPartner, 1, 'DEMO')).toEqual([]);
    expect(await silentFor(operator, 1)).toEqual(['1', '2', '3', '4']);
    expect(await silentFor(operator, 11)).toEqual(['2', '4']);
    expect(await silentFor(operator, 1, other)).toEqual(['4']);
    expect(await silentFor(operator, 3, demo)).toEqual(['2', '3']);
    for (const ask of [demoRetail, vendor]) {
      const body = await ask(DEVICES, { filter: { silentForDays: 1 } });
      expect(body.data).toBeNull();
      expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
    }
  });

  it('bad values are refused with INVALID_ARGUMENT or a validation error, whoever asks', async () => {
    for (const days of [0, -1, 3651, 2_000_000_000]) {
      for (const ask of [demoPartner, operator]) {
        const body = await ask(DEVICES, { filter: { silentForDays: days } });
        expect(body.data).toBeNull();
        expect(body.errors[0]).toMatchObject({
          extensions: { code: 'INVALID_ARGUMENT', argument: 'filter.silentForDays' },
        });
      }
    }
    // Refused also where nothing could be listed (another partner's id).
    const elsewhere = await otherPartner(DEVICES, { filter: { silentForDays: 0 }, partnerId: '1' });
    expect(elsewhere.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
    for (const filter of [{ silentForDays: '7' }, { silentForDays: 1.5 }, { silentFor: 7 }]) {
      const body = await demoPartner(DEVICES, { filter });
      expect(body.data ?? null).toBeNull();
      expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
    const badCursor = await demoPartner(DEVICES, { after: 'not-a-cursor' });
    expect(badCursor.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'after' });
    for (const first of [0, 1001]) {
      const body = await demoPartner(DEVICES, { first });
      expect(body.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'first' });
    }
  });

  it('pages one device at a time, with pageInfo, neither skipping nor repeating', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const body = await demoPartner(DEVICES, { first: 1, after, filter: { silentForDays: 3 } });
      expect(body.errors).toBeUndefined();
      const { nodes, edges, pageInfo } = body.data.devices;
      seen.push(...nodes.map((node: { id: string }) => node.id));
      expect(pageInfo.hasPreviousPage).toBe(after !== null);
      expect(pageInfo.endCursor).toBe(edges[edges.length - 1]?.cursor ?? null);
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(seen).toEqual(['2', '3']);
    // Another connection's cursor is refused.
    const orders = await demoPartner(`{ financeOrders(first: 1) { pageInfo { endCursor } } }`);
    const foreign = await demoPartner(DEVICES, { after: orders.data.financeOrders.pageInfo.endCursor });
    expect(foreign.errors[0].extensions).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'after' });
  });

  it("a sandbox clock moved ahead: silence is counted at the partner's time, for one partner and for every partner", async () => {
    const demo = await partnerIdOf('Demo Retail');
    const moved = await operator(`mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }`, {
      input: { partnerId: demo, now: NOW_S + 30 * DAY },
    });
    expect(moved.errors).toBeUndefined();
    try {
      // Demo Retail's time is NOW+30d: device 1 (checked in at NOW-2d) is 32 days silent, device 3 40.
      expect(await silentFor(demoPartner, 32)).toEqual(['1', '2', '3']);
      expect(await silentFor(demoPartner, 33)).toEqual(['2', '3']);
      expect(await silentFor(demoPartner, 40)).toEqual(['2', '3']);
      expect(await silentFor(demoPartner, 41)).toEqual(['2']);
      // Every partner's listing: Demo Retail's devices at its time, Other Retail's (order T-20d) at real time.
      expect(await silentFor(operator, 32)).toEqual(['1', '2', '3']);
      expect(await silentFor(operator, 20)).toEqual(['1', '2', '3', '4']);
      expect(await silentFor(operator, 21)).toEqual(['1', '2', '3']);
    } finally {
      await operator(`mutation($id: ID!) { resetSandboxClock(partnerId: $id) { now } }`, { id: demo });
    }
    expect(await silentFor(demoPartner, 3)).toEqual(['2', '3']);
  });
});
