// The device door (docs/decisions.md 19), played by a device: an operator issues its credential (shown
// once, audited without it); a typo is refused unread; the device checks in and verifies the answer's
// signature with `jose` against the published key set (not with the service's own signing code); its
// lastSeen moves in lookup-customer; another device's IMEI is refused and audited; a changed SIM is
// recorded, and locks where the partner enabled SIM control; check-ins are rate limited per device; a
// hostile body changes nothing; the credential appears in no log line, audit entry or event; the log
// tells of a device's check-ins at most once an hour; past lockAt the device is told LOCKED. Each answer
// is bound to its request (decisions.md 34): the request's nonce echoed, the device's sequence, the
// JWS typ; a sandbox clock reset leaves the sequence and the log moving. revokeDeviceCredential ends a
// credential without issuing another; revoking the API key that issued one does not end it.
import { randomBytes } from 'node:crypto';
import { compactVerify, createRemoteJWKSet, decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { createLogger } from '../../src/kernel/logger.js';
import { couldBeDeviceCredential, deviceOfCredential } from '../../src/modules/deviceDoor/credentials.js';
import { useSeededService } from '../support/fixtures.js';
import { startTestService, TEST_LIMITS, type TestService } from '../support/service.js';

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

/** A fresh nonce, as the guide's agent draws one: 24 random bytes, 32 base64url characters. */
const freshNonce = () => randomBytes(24).toString('base64url');

const report = (extra: Record<string, unknown> = {}) => ({
  imei: DEMO_DEVICE_IMEI,
  simNumber: '8901000000000000001',
  appVersion: '1.4.2',
  nonce: freshNonce(),
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
    .first('last_seen_at', 'last_checkin_at', 'last_sim_number', 'enrolled_sim_number', 'checkin_sequence');
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

  it('refuses an Authorization header that is not Bearer with the one error of every door, writing nothing', async () => {
    const before = await counts();
    for (const authorization of [`Basic ${credential}`, 'Bearer', `Bearer ${credential} extra`]) {
      const answer = await checkin(fixture.service, null, report(), {
        headers: { 'content-type': 'application/json', authorization },
      });
      expect(answer.status).toBe(401);
      expect(await answer.json()).toEqual({
        error: {
          code: 'INVALID_ACCESS_TOKEN',
          message: 'the Authorization header must be "Bearer <device credential>"',
        },
      });
    }
    expect(await counts()).toEqual(before);
  });

  it("answers another method with every door's 405: Allow, in the door's body", async () => {
    for (const [path, method, allow, takes] of [
      ['/devices/v1/checkin', 'GET', 'POST', 'POST'],
      ['/devices/v1/jwks.json', 'POST', 'GET, HEAD', 'GET or HEAD'],
    ] as const) {
      const answer = await fixture.service.request(path, { method });
      expect(answer.status).toBe(405);
      expect(answer.headers.get('allow')).toBe(allow);
      expect(await answer.json()).toEqual({
        error: { code: 'METHOD_NOT_ALLOWED', message: `${path} accepts ${takes} only, not ${method}` },
      });
    }
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
    expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'dfs-checkin+jws' });
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

  it('binds each answer to its request: the nonce echoed, a sequence one higher per answer, under the signature', async () => {
    const keySet = createRemoteJWKSet(new URL(`${fixture.service.baseUrl}/devices/v1/jwks.json`));
    const answers: Array<{ sent: string; data: any; payload: any; signature: string }> = [];
    for (let i = 0; i < 3; i += 1) {
      const sent = freshNonce();
      const answer = await checkin(fixture.service, credential, report({ nonce: sent }));
      expect(answer.status).toBe(200);
      const { data, signature } = (await answer.json()) as { data: any; signature: string };
      const { payload } = await compactVerify(signature, keySet);
      answers.push({ sent, data, payload: JSON.parse(new TextDecoder().decode(payload)), signature });
    }
    for (const { sent, data, payload } of answers) {
      expect(payload).toEqual(data);
      expect(payload.nonce).toBe(sent);
    }
    const [first, second, third] = answers.map(({ payload }) => payload.sequence as number);
    expect(Number.isInteger(first)).toBe(true);
    expect([second! - first!, third! - second!]).toEqual([1, 1]);
    expect(new Set(answers.map(({ signature }) => signature)).size).toBe(3);
    expect(Number((await counts()).device!.checkin_sequence)).toBe(third);
  });

  it('gives concurrent check-ins of one device distinct, consecutive sequences (taken under its row lock)', async () => {
    const before = Number((await counts()).device!.checkin_sequence);
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const answer = await checkin(fixture.service, credential, report());
        expect(answer.status).toBe(200);
        return ((await answer.json()) as any).data.sequence as number;
      }),
    );
    expect(answers.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6].map((step) => before + step));
    expect(Number((await counts()).device!.checkin_sequence)).toBe(before + 6);
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
      // The request's nonce (decisions.md 34): required, 16 to 128 base64url characters.
      [{ ...report(), nonce: undefined }],
      [report({ nonce: null })],
      [report({ nonce: 'too-short-15chr' })],
      [report({ nonce: 'n'.repeat(129) })],
      [report({ nonce: 'a nonce with spaces in it' })],
      [report({ nonce: 'padded+base64/not/base64url==' })],
      [report({ nonce: 1234567890123456 })],
    ];
    for (const [body, init] of hostile) {
      const answer = await checkin(fixture.service, credential, body, init);
      const text = await answer.text();
      expect(answer.status, `${String(body).slice(0, 60)}: ${text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(JSON.parse(text).error.code).toMatch(/^[A-Z_]+$/);
      if (typeof body === 'object' && body !== null && 'nonce' in body && !('pad' in body))
        expect(JSON.parse(text).error, text).toEqual({
          code: 'INVALID_REQUEST_BODY',
          message: expect.stringMatching(/nonce/),
        });
    }
    const missing = await checkin(fixture.service, credential, { ...report(), nonce: undefined });
    expect(((await missing.json()) as any).error.message).toBe('the request body needs nonce, fresh for each check-in');
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

  it('after resetSandboxClock: issuedAt goes back, the sequence does not, and the log hears of the device again', async () => {
    const checkedIn = () => db()('events').where({ type: 'device.checked_in' }).count({ n: '*' });
    const ahead = ((await (await checkin(fixture.service, credential, report())).json()) as any).data;
    const logged = Number((await checkedIn())[0]!.n);
    const partnerId = String((await db()('devices').where({ id: deviceId }).first('partner_id')).partner_id);
    await operator('mutation($p: ID!) { resetSandboxClock(partnerId: $p) { now } }', { p: partnerId });
    const back = ((await (await checkin(fixture.service, credential, report())).json()) as any).data;
    expect(back.issuedAt).toBeLessThan(ahead.issuedAt - 24 * HOUR);
    expect(back.sequence).toBe(ahead.sequence + 1);
    expect(back.lockState).toBe('UNLOCKED');
    // The last event's time is days ahead of the partner's now: the hour rule would have waited that long.
    expect(Number((await checkedIn())[0]!.n)).toBe(logged + 1);
    const again = ((await (await checkin(fixture.service, credential, report())).json()) as any).data;
    expect(again.sequence).toBe(back.sequence + 1);
    expect(Number((await checkedIn())[0]!.n)).toBe(logged + 1);
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
    const body = () => ({ imei: '123456789012370', appVersion: '2.0.0', nonce: freshNonce() });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await checkin(service, other, body())).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await checkin(service, other, body());
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

describe('revokeDeviceCredential (decisions.md 34)', () => {
  const REVOKE = 'mutation($id: ID!) { revokeDeviceCredential(deviceId: $id) { revoked device { id tag } } }';
  const revocations = () => db()('audit_events').where({ action: 'device.credential.revoke' }).orderBy('id');

  async function payInStore(idempotencyKey: string): Promise<{ unlockCode: string | null }> {
    const { body } = (await fixture.service.graphql(
      'mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { unlockCode } }',
      { 'x-api-key': 'demo-retail-key' },
      {
        input: {
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: DEMO_ORDER_ID,
          amount: '1.00',
          currency: 'USD',
          idempotencyKey,
        },
      },
    )) as { body: Body };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    return body.data.recordInStorePayment;
  }

  it("is refused to vendor keys and for another partner's device, writing nothing", async () => {
    const before = await counts();
    const asVendor = await fixture.service.graphql(REVOKE, { 'x-api-key': 'demo-vendor-key' }, { id: deviceId });
    expect(asVendor.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const theirs = await fixture.service.graphql(REVOKE, { 'x-api-key': 'other-partner-key' }, { id: deviceId });
    expect(theirs.body.errors[0].extensions.code).toBe('RESOURCE_NOT_FOUND');
    expect(await counts()).toEqual(before);
    expect((await checkin(fixture.service, credential, report())).status).toBe(200);
  });

  it('ends the live credential without issuing another: 401 at the door, no unlock code; again, revoked false and nothing written', async () => {
    expect((await payInStore('door-revoke-before')).unlockCode).toMatch(/^[0-9]{15}$/);
    const { body } = await fixture.service.graphql(REVOKE, { 'x-api-key': 'demo-retail-key' }, { id: deviceId });
    expect(body.errors).toBeUndefined();
    expect(body.data.revokeDeviceCredential).toEqual({ revoked: true, device: { id: deviceId, tag: DEMO_DEVICE_TAG } });
    const [revocation] = await revocations();
    expect(revocation).toMatchObject({
      actor_kind: 'partner',
      subject_kind: 'device',
      subject_id: deviceId,
      details: {},
    });
    expect(revocation!.actor_key_id).not.toBeNull();
    const refused = await checkin(fixture.service, credential, report());
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as any).error.code).toBe('INVALID_DEVICE_CREDENTIAL');
    expect(await db()('device_credentials').where({ device_id: deviceId }).whereNull('ended_at')).toEqual([]);
    expect((await payInStore('door-revoke-after')).unlockCode).toBeNull();

    const before = await counts();
    const again = await operator(REVOKE, { id: deviceId });
    expect(again.revokeDeviceCredential).toEqual({ revoked: false, device: { id: deviceId, tag: DEMO_DEVICE_TAG } });
    expect(await counts()).toEqual(before);
    expect(await revocations()).toHaveLength(1);

    credential = await issue(deviceId);
    expect((await checkin(fixture.service, credential, report())).status).toBe(200);
  });

  it('a credential outlives the API key that issued it: revoking the key does not end the credential', async () => {
    const created = await operator(
      'mutation { createApiKey(input: { kind: RETAIL, partnerId: "1", label: "a till" }) { secret apiKey { id } } }',
    );
    const { secret, apiKey } = created.createApiKey as { secret: string; apiKey: { id: string } };
    const issued = await fixture.service.graphql(ISSUE, { 'x-api-key': secret }, { id: deviceId });
    expect(issued.body.errors).toBeUndefined();
    credential = issued.body.data.issueDeviceCredential.credential;
    await operator('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: apiKey.id });
    const refusedKey = await fixture.service.graphql(ISSUE, { 'x-api-key': secret }, { id: deviceId });
    expect(refusedKey.status).toBe(401);
    expect((await checkin(fixture.service, credential, report())).status).toBe(200);
    // The trail names the key behind each credential issued, for ending them one by one after a leak.
    const issues = await db()('audit_events').where({ action: 'device.credential.issue', actor_key_id: apiKey.id });
    expect(issues.map((row) => row.subject_id)).toEqual([deviceId]);
  });
});
