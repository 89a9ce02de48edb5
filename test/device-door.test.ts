// The device door (docs/decisions.md 19), played by a device: an operator issues its credential (shown
// once, audited without it); a typo is refused unread; the device checks in and verifies the answer's
// signature with `jose` against the published key set (not with the service's own signing code); its
// lastSeen moves in lookup-customer; another device's IMEI is refused and audited; a changed SIM is
// recorded, and locks where the partner enabled SIM control; check-ins are rate limited per device; a
// hostile body changes nothing; the credential appears in no log line, audit entry or event; the log
// tells of a device's check-ins at most once an hour; past lockAt the device is told LOCKED.
import { compactVerify, createRemoteJWKSet, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/knex.js';
import { DEMO_DEVICE_IMEI, DEMO_DEVICE_TAG } from '../src/fixtures/demoIds.js';
import { createLogger } from '../src/kernel/logger.js';
import { couldBeDeviceCredential, deviceOfCredential } from '../src/modules/deviceDoor/credentials.js';
import { useSeededService } from './support/fixtures.js';
import { startTestService, TEST_LIMITS, type TestService } from './support/service.js';

const logText: string[] = [];
const fixture = useSeededService();
const db = () => fixture.database.db;
const HOUR = 3600;

type Body = { data?: any; errors?: Array<{ message: string; extensions?: { code?: string } }> };

async function operator(query: string, variables?: Record<string, unknown>): Promise<any> {
  const { body } = (await fixture.service.graphql(query, { 'x-api-key': 'demo-operator-key' }, variables)) as {
    body: Body;
  };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

const ISSUE = 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential device { id tag } } }';

async function issue(deviceId: string): Promise<string> {
  return (await operator(ISSUE, { id: deviceId })).issueDeviceCredential.credential;
}

function checkin(service: TestService, credential: string | null, body: unknown, init: RequestInit = {}) {
  return service.request('/devices/v1/checkin', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

const report = (extra: Record<string, unknown> = {}) => ({
  imei: DEMO_DEVICE_IMEI,
  simNumber: '8901000000000000001',
  appVersion: '1.4.2',
  ...extra,
});

async function demoDevice(): Promise<{ id: string; secureStatus: string | null; lastCheckin: any; lastSeen: number }> {
  return (
    await operator(
      'query($t: String!) { device(tag: $t) { id secureStatus lastSeen lastCheckin { at simNumber appVersion } } }',
      { t: DEMO_DEVICE_TAG },
    )
  ).device;
}

async function lookupLastSeen(): Promise<unknown> {
  const response = await fixture.service.request(
    `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { device: { lastSeen: unknown } }).device.lastSeen;
}

async function counts() {
  const one = async (table: string, where: Record<string, unknown> = {}) =>
    Number((await db()(table).where(where).count({ n: '*' }).first())?.n);
  const device = await db()('devices')
    .where({ tag: DEMO_DEVICE_TAG })
    .first('last_seen_at', 'last_checkin_at', 'last_sim_number', 'enrolled_sim_number');
  return {
    events: await one('events'),
    audit: await one('audit_events'),
    credentials: await one('device_credentials'),
    device,
  };
}

/** A database no statement may reach: any use throws. */
const unreadable = new Proxy(() => {}, {
  get: () => {
    throw new Error('the database was read');
  },
  apply: () => {
    throw new Error('the database was read');
  },
}) as unknown as Db;

let deviceId: string;
let credential: string;

beforeAll(async () => {
  deviceId = (await demoDevice()).id;
});

describe('device credentials', () => {
  it('are issued once, dvc_ with a checksum, audited without the credential; a new one ends the old one', async () => {
    const first = await operator(ISSUE, { id: deviceId });
    expect(first.issueDeviceCredential.device).toEqual({ id: deviceId, tag: DEMO_DEVICE_TAG });
    const old = first.issueDeviceCredential.credential as string;
    expect(old).toMatch(/^dvc_[0-9A-Za-z]{38}$/);
    credential = await issue(deviceId);
    expect(credential).not.toBe(old);
    expect(await deviceOfCredential(db(), old)).toBeNull();
    expect(await deviceOfCredential(db(), credential)).toEqual({ partnerId: expect.any(String), deviceId });
    const trail = await db()('audit_events').where({ action: 'device.credential.issue' }).orderBy('id');
    expect(trail.map((row) => row.subject_id)).toEqual([deviceId, deviceId]);
    expect(trail.map((row) => row.details)).toEqual([{ replacedPrevious: false }, { replacedPrevious: true }]);
    const stored = JSON.stringify(await db()('device_credentials').select());
    expect(stored).not.toContain(credential);
    expect(JSON.stringify(trail)).not.toContain(credential.slice(4, 20));
    const ended = await checkin(fixture.service, old, report());
    expect(ended.status).toBe(401);
    expect(((await ended.json()) as any).error.code).toBe('INVALID_DEVICE_CREDENTIAL');
  });

  it('refuses a mistyped credential by its checksum, without a read', async () => {
    const last = credential.at(-1) === 'a' ? 'b' : 'a';
    const typo = `${credential.slice(0, -1)}${last}`;
    expect(couldBeDeviceCredential(typo)).toBe(false);
    expect(await deviceOfCredential(unreadable, typo)).toBeNull();
    expect(await deviceOfCredential(unreadable, 'demo-partner-key')).toBeNull();
    await expect(deviceOfCredential(unreadable, credential)).rejects.toThrow('the database was read');
    const before = await counts();
    const answer = await checkin(fixture.service, typo, report());
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: { code: 'INVALID_DEVICE_CREDENTIAL', message: expect.any(String) } });
    expect(await counts()).toEqual(before);
  });

  it('open the device door only: /graphql refuses one like any unknown key', async () => {
    const { status, body } = await fixture.service.graphql('{ viewer { partner { id } } }', {
      authorization: `Bearer ${credential}`,
    });
    expect(status).toBe(401);
    expect(body.errors[0].extensions.code).toBe('INVALID_API_KEY');
  });

  it('may be issued by a partner key for its own devices, not by a vendor key', async () => {
    const asPartner = await fixture.service.graphql(ISSUE, { 'x-api-key': 'demo-partner-key' }, { id: deviceId });
    expect(asPartner.body.errors).toBeUndefined();
    credential = asPartner.body.data.issueDeviceCredential.credential;
    const asVendor = await fixture.service.graphql(ISSUE, { 'x-api-key': 'demo-vendor-key' }, { id: deviceId });
    expect(asVendor.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const both = await fixture.service.graphql(
      'query($id: ID, $t: String) { device(id: $id, tag: $t) { id } }',
      { 'x-api-key': 'demo-operator-key' },
      { id: deviceId, t: DEMO_DEVICE_TAG },
    );
    expect(both.body.errors[0].extensions.code).toBe('INVALID_ARGUMENT');
  });
});

describe('the check-in', () => {
  it('answers the signed state: verified with jose against the published key set, its payload equal to data', async () => {
    const seenBefore = await lookupLastSeen();
    const device = await demoDevice();
    const answer = await checkin(fixture.service, credential, report());
    expect(answer.status).toBe(200);
    const { data, signature } = (await answer.json()) as { data: any; signature: string };
    const keySet = createRemoteJWKSet(new URL(`${fixture.service.baseUrl}/devices/v1/jwks.json`));
    const { payload, protectedHeader } = await compactVerify(signature, keySet);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(data);
    expect(protectedHeader.alg).toBe('EdDSA');
    const published = (await (await fixture.service.request('/devices/v1/jwks.json')).json()) as { keys: any[] };
    expect(published.keys.map((key) => key.kid)).toContain(decodeProtectedHeader(signature).kid);
    expect(published.keys.every((key) => key.d === undefined)).toBe(true);

    const now = Math.floor(Date.now() / 1000);
    expect(data.deviceTag).toBe(DEMO_DEVICE_TAG);
    // The demo order is open and paid ahead (docs/demo-data.md): its device may be used.
    expect(device.secureStatus).toBe('ACTIVE_AND_SECURED');
    expect(data.lockState).toBe('UNLOCKED');
    expect(Math.abs(data.issuedAt - now)).toBeLessThanOrEqual(5);
    expect(data.commands).toEqual([]);
    // offlineLockAt: the earlier of lockAt and now + 7 days (the default offlineLockDays).
    expect(data.lockAt).toBeGreaterThan(data.issuedAt);
    expect(data.offlineLockAt).toBe(Math.min(data.lockAt, data.issuedAt + 7 * 24 * HOUR));
    expect(data.nextCheckinAt).toBe(Math.min(data.issuedAt + 6 * HOUR, data.offlineLockAt));
    expect(data.reason).toBeNull();
    expect(data.message).toBeNull();
    const seenAfter = await lookupLastSeen();
    expect(seenAfter).not.toEqual(seenBefore);
    expect(seenAfter).toBe(data.issuedAt);
    expect((await demoDevice()).lastCheckin).toEqual({
      at: data.issuedAt,
      simNumber: '8901000000000000001',
      appVersion: '1.4.2',
    });
  });

  it("refuses another device's IMEI with 403, audited, changing nothing else", async () => {
    const before = await counts();
    const answer = await checkin(fixture.service, credential, report({ imei: '123456789012370' }));
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as any).error.code).toBe('DEVICE_MISMATCH');
    const after = await counts();
    expect(after).toEqual({ ...before, audit: before.audit + 1 });
    const refusal = await db()('audit_events').where({ action: 'device.checkin.refused' }).first();
    expect(refusal).toMatchObject({ actor_kind: 'device', subject_id: deviceId, details: { reason: 'IMEI_MISMATCH' } });
  });

  it('records another SIM, and answers LOCKED with SIM_MISMATCH once the partner enables SIM control', async () => {
    const enrolled = (await counts()).device!.enrolled_sim_number;
    expect(enrolled).toBe('8901000000000000001');
    const swapped = await checkin(fixture.service, credential, report({ simNumber: '8901999999999999999' }));
    const plain = ((await swapped.json()) as any).data;
    expect(plain.reason).not.toBe('SIM_MISMATCH');
    expect((await demoDevice()).lastCheckin.simNumber).toBe('8901999999999999999');
    expect((await counts()).device!.enrolled_sim_number).toBe(enrolled);

    const partnerId = String((await db()('devices').where({ id: deviceId }).first('partner_id')).partner_id);
    const update = `mutation($input: UpdatePartnerSettingsInput!) {
      updatePartnerSettings(input: $input) { settings { offlineLockDays simControlEnabled } } }`;
    const changed = await operator(update, { input: { partnerId, simControlEnabled: true, offlineLockDays: 2 } });
    expect(changed.updatePartnerSettings.settings).toEqual({ offlineLockDays: 2, simControlEnabled: true });
    const refused = await fixture.service.graphql(
      update,
      { 'x-api-key': 'demo-operator-key' },
      { input: { partnerId, offlineLockDays: 91 } },
    );
    expect(refused.body.errors[0].extensions.code).toBe('INVALID_PARTNER_SETTINGS');

    const locked = (
      (await (await checkin(fixture.service, credential, report({ simNumber: '8901999999999999999' }))).json()) as any
    ).data;
    expect(locked).toMatchObject({ lockState: 'LOCKED', reason: 'SIM_MISMATCH', message: expect.any(String) });
    expect(locked.nextCheckinAt).toBeLessThanOrEqual(locked.issuedAt + 15 * 60);
    const back = ((await (await checkin(fixture.service, credential, report())).json()) as any).data;
    expect(back.reason).not.toBe('SIM_MISMATCH');
    expect(back.lockState).toBe('UNLOCKED');
    expect(back.offlineLockAt).toBe(Math.min(back.lockAt, back.issuedAt + 2 * 24 * HOUR));
    await operator(update, { input: { partnerId, simControlEnabled: false, offlineLockDays: 7 } });
  });

  it('refuses hostile bodies with 4xx, writing nothing', async () => {
    const before = await counts();
    const hostile: Array<[unknown, RequestInit?]> = [
      ['not json'],
      ['{"imei":"123456789012345","imei":"123456789012345","appVersion":"1"}'],
      [[]],
      [null],
      [{}],
      [{ imei: DEMO_DEVICE_IMEI }],
      [{ imei: 123456789012345, appVersion: '1' }],
      [{ imei: `${DEMO_DEVICE_IMEI}00`, appVersion: '1' }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '' }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: 'x'.repeat(65) }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '1', simNumber: 7 }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '1', simNumber: 'x'.repeat(33) }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '1', acknowledged: 'all' }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '1', acknowledged: Array.from({ length: 101 }, (_, i) => String(i)) }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '1', acknowledged: [{ id: 1 }] }],
      [{ imei: DEMO_DEVICE_IMEI, appVersion: '1', pad: 'x'.repeat(70_000) }],
      ['[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]'],
      [JSON.stringify(report()), { headers: { 'content-type': 'text/plain', authorization: `Bearer ${credential}` } }],
      [JSON.stringify(report()), { method: 'PUT' }],
    ];
    for (const [body, init] of hostile) {
      const answer = await checkin(fixture.service, credential, body, init);
      const text = await answer.text();
      expect(answer.status, `${String(body).slice(0, 60)}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(JSON.parse(text).error.code).toMatch(/^[A-Z_]+$/);
    }
    expect(await counts()).toEqual(before);
  });

  it('tells the log of a device at most once an hour, and past lockAt answers LOCKED', async () => {
    const checkedIn = () => db()('events').where({ type: 'device.checked_in' }).select('data');
    const logged = (await checkedIn()).length;
    expect(logged).toBe(1); // every check-in so far fell within the first hour
    for (let i = 0; i < 3; i += 1) expect((await checkin(fixture.service, credential, report())).status).toBe(200);
    expect(await checkedIn()).toHaveLength(1);
    expect((await checkedIn())[0]!.data).toMatchObject({ device: { tag: DEMO_DEVICE_TAG }, appVersion: '1.4.2' });

    const partnerId = String((await db()('devices').where({ id: deviceId }).first('partner_id')).partner_id);
    const order = await operator('query($t: String!) { device(tag: $t) { financeOrder { lockAt } } }', {
      t: DEMO_DEVICE_TAG,
    });
    const lockAt = order.device.financeOrder.lockAt as number;
    expect(lockAt).toBeGreaterThan(Math.floor(Date.now() / 1000));
    const target = lockAt + HOUR;
    await operator('mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }', {
      input: { partnerId, now: target },
    });
    const later = ((await (await checkin(fixture.service, credential, report())).json()) as any).data;
    expect(await checkedIn()).toHaveLength(2);
    expect(later.issuedAt).toBeGreaterThanOrEqual(target);
    expect(await lookupLastSeen()).toBe(later.issuedAt);
    expect(later).toMatchObject({ lockState: 'LOCKED', reason: 'PAYMENT_OVERDUE', lockAt, offlineLockAt: lockAt });
    expect(later.nextCheckinAt).toBe(later.issuedAt + 15 * 60);
  });
});

describe('a door of its own service: rate limits and logs', () => {
  let service: TestService;
  let other: string;
  beforeAll(async () => {
    service = await startTestService(db(), {
      limits: { ...TEST_LIMITS, requestsPerKey: { limit: 3, windowSeconds: 3600 } },
      logger: createLogger('trace', { write: (line: string) => void logText.push(line) }),
    });
    const device = await db()('devices').where({ tag: 'DTSTBBE' }).first('id');
    // Issued through the seeded service: on Postgres the request counts live in the database, where the
    // operator key's earlier requests already count against this service's quota of 3.
    const issued = await fixture.service.graphql(
      ISSUE,
      { 'x-api-key': 'demo-operator-key' },
      { id: String(device.id) },
    );
    other = issued.body.data.issueDeviceCredential.credential;
  });
  afterAll(async () => service?.close());

  it("limits each device's check-ins: past its quota 429 with Retry-After, other devices unaffected", async () => {
    const body = { imei: '123456789012370', appVersion: '2.0.0' };
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await checkin(service, other, body)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await checkin(service, other, body);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as any).error.code).toBe('RATE_LIMITED');
    // The demo device's quota is its own (on Postgres the counts are shared with the first service's).
    const demo = await checkin(service, credential, report());
    expect([200, 429]).toContain(demo.status);
  });

  it('writes no credential in a log line, an audit entry or an event', async () => {
    await checkin(service, credential, report({ imei: '123456789012370' }));
    await checkin(service, `${credential.slice(0, -1)}x`, report());
    const log = logText.join('\n');
    expect(log).toContain('/devices/v1/checkin');
    for (const secret of [credential, other]) {
      expect(log).not.toContain(secret.slice(4));
      expect(JSON.stringify(await db()('audit_events').select())).not.toContain(secret.slice(4));
      expect(JSON.stringify(await db()('events').select('data'))).not.toContain(secret.slice(4));
    }
  });
});
