// Unlock keys sealed at rest (decisions.md 35), on PGlite and on Postgres. A dump of the demo data with
// credentials issued through issueDeviceCredential and paid on holds no unlock key (pg_dump on Postgres;
// on PGlite, which has no pg_dump here, every row of every table as text), while the receipts' codes
// are accepted by a device that derives its key from its credential (test/support/offlineDevice.ts).
// Then the upgrade of a database whose keys are in clear: the release step (the database alone) seals
// nothing, a start seals them; and a rotation: the command reseals under the new first key, a start
// without a key that stored seals still name refuses in one line, and the migration does not roll back.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knex } from 'knex';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { MIGRATIONS, migrateLatest } from '../../src/db/migrate.js';
import { seedDemoData } from '../../src/fixtures/demo.js';
import { DEMO_CLERK_ID, DEMO_DEVICE_TAG, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { loadConfig } from '../../src/kernel/config.js';
import { createLogger } from '../../src/kernel/logger.js';
import { generateDeviceCredential, unlockKeyOfCredential } from '../../src/modules/deviceDoor/credentials.js';
import { type StartedService, startService } from '../../src/process/service.js';
import { runShutdownSteps } from '../../src/process/shutdown.js';
import { startupFailureLine } from '../../src/process/startupFailure.js';
import { finish } from '../support/childProcess.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';
import { useSeededService } from '../support/fixtures.js';
import { OfflineDevice } from '../support/offlineDevice.js';
import { startTestService } from '../support/service.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const OPERATOR = { 'x-api-key': 'demo-operator-key' };
const ISSUE = 'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }';
const PAY = `mutation($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { unlockCode } }`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An in-store payment of 1.00 on the demo order (the demo device's), through the graph: its unlock code. */
async function payInStore(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'demo-retail-key' },
    body: JSON.stringify({
      query: PAY,
      variables: {
        input: {
          merchantId: DEMO_MERCHANT_ID,
          salesClerkId: DEMO_CLERK_ID,
          financeOrderId: DEMO_ORDER_ID,
          amount: '1.00',
          currency: 'USD',
        },
      },
    }),
  });
  const body = (await response.json()) as {
    data?: { recordInStorePayment: { unlockCode: string } };
    errors?: unknown;
  };
  expect(body.errors).toBeUndefined();
  return body.data!.recordInStorePayment.unlockCode;
}

/** Every way an unlock key could be written down: hex (either case), base64, base64url. */
function spellingsOf(unlockKey: Buffer): string[] {
  const hex = unlockKey.toString('hex');
  return [hex, hex.toUpperCase(), unlockKey.toString('base64').replace(/=+$/, ''), unlockKey.toString('base64url')];
}

/** The database as a backup holds it: pg_dump's plain text on Postgres; every row of every table as text on PGlite. */
async function dumpOf(db: Db, url: string | null): Promise<string> {
  if (url !== null) {
    const dumped = await finish(spawn('pg_dump', ['--no-owner', `--dbname=${url}`]));
    expect(dumped.code, dumped.stderr).toBe(0);
    return dumped.stdout;
  }
  const tables: Array<{ table_name: string }> = await db('information_schema.tables')
    .select('table_name')
    .where({ table_schema: 'public', table_type: 'BASE TABLE' });
  const rows: string[] = [];
  for (const { table_name } of tables) {
    const result = await db.raw('select t::text as row from ?? as t', [table_name]);
    rows.push(...(result.rows as Array<{ row: string }>).map((row) => row.row));
  }
  return rows.join('\n');
}

describe('a dump of the demo data with issued credentials', () => {
  const fixture = useSeededService();

  it('holds no unlock key, and the codes of real receipts still verify on the devices', async () => {
    const { database, service } = fixture;
    const devices: Array<{ id: string; tag: string }> = await database
      .db('devices')
      .select('id', 'tag')
      .whereIn('tag', [DEMO_DEVICE_TAG, 'DTSTBBC', 'DTSTBBD', 'DTSTBBE']); // two partners' devices
    const issued: Array<{ credential: string; device: OfflineDevice }> = [];
    // The demo device twice: its first credential ends, and its row stays.
    for (const { id, tag } of [...devices, devices.find((device) => device.tag === DEMO_DEVICE_TAG)!]) {
      const { body } = await service.graphql(ISSUE, OPERATOR, { id });
      expect(body.errors).toBeUndefined();
      const credential: string = body.data.issueDeviceCredential.credential;
      issued.push({ credential, device: new OfflineDevice(credential, tag) });
    }
    expect(issued).toHaveLength(5);

    // Codes made from the sealed keys: in store, through the graph; and through a vendor's notification.
    const storeCode = await payInStore(service.baseUrl);
    const token = await service.request('/payments/v1/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
    });
    const accessToken = ((await token.json()) as { data: { access_token: string } }).data.access_token;
    const notified = await service.request('/payments/v1/notification', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify({
        paymentVendor: 'demo-vendor',
        amount: '1.00',
        currency: 'USD',
        reference: 'sealed-keys-1',
        deviceTag: 'DTSTBBD',
      }),
    });
    expect(notified.status).toBe(200);
    const vendorCode = ((await notified.json()) as { data: { unlockCode: string } }).data.unlockCode;

    const dump = await dumpOf(database.db, database.url);
    // The dump holds the credentials' rows (their hashes are there), and none of their keys in any spelling.
    for (const { credential, device } of issued) {
      expect(dump).toContain(sha256(credential));
      expect(dump).not.toContain(credential);
      for (const spelling of spellingsOf(device.unlockKey)) expect(dump).not.toContain(spelling);
    }

    // The live credentials' devices take the codes: the demo device's second credential, and DTSTBBD's.
    const demoDevice = issued.at(-1)!.device;
    expect(demoDevice.type(storeCode)).toBe('ACCEPTED');
    expect(issued.find(({ device }) => device.tag === 'DTSTBBD')!.device.type(vendorCode)).toBe('ACCEPTED');
    // The ended credential's key takes none.
    expect(issued[devices.findIndex((device) => device.tag === DEMO_DEVICE_TAG)]!.device.type(storeCode)).toBe(
      'REFUSED',
    );
  });
});

/** The knex migrator over the service's own list (src/db/migrate.ts), for a step down. */
const MIGRATOR: Knex.MigratorConfig = {
  migrationSource: {
    getMigrations: async () => Object.keys(MIGRATIONS).sort(),
    getMigrationName: (name: string) => name,
    getMigration: async (name: string) => MIGRATIONS[name]!,
  },
};
const SEALED_MIGRATION = '20261128210200_sealed_unlock_keys';

/** Rolls the migrations back, newest first, through `name` (the release before it): the names undone. */
async function undoThrough(db: Knex, name: string): Promise<string[]> {
  const undone: string[] = [];
  while (!undone.includes(name)) {
    const [, names] = (await db.migrate.down(MIGRATOR)) as [number, string[]];
    if (names.length === 0) break;
    undone.push(...names);
  }
  return undone;
}

const sealingKey = () => randomBytes(32).toString('base64url');
const U1 = `u1:${sealingKey()}`;
const U2 = `u2:${sealingKey()}`;
const U3 = `u3:${sealingKey()}`;

describe('the upgrade of clear keys, and a rotation', () => {
  /** The service's database: a Postgres database of its own, or an embedded one in a folder (a start opens it by itself). */
  let where: Record<string, string>;
  /** The devices given a credential by the release before sealing: the device, and its key as that release stored it. */
  const devices: OfflineDevice[] = [];

  /** `fresh`: an embedded folder starts from the suite's migrated image (only a new folder can). */
  const open = (fresh = false): Db =>
    onPostgres
      ? createDb({ databaseUrl: where.DATABASE_URL!, dataDir: null, poolMax: 2 })
      : createDb({
          databaseUrl: null,
          dataDir: join(where.DATA_DIR!, 'pglite'),
          ...(fresh && process.env.PGLITE_MIGRATED_IMAGE
            ? { embeddedImage: new Blob([readFileSync(process.env.PGLITE_MIGRATED_IMAGE)]) }
            : {}),
        });
  async function withDb<T>(work: (db: Db) => Promise<T>, fresh = false): Promise<T> {
    const db = open(fresh);
    try {
      return await work(db);
    } finally {
      await db.destroy();
    }
  }
  const credentialRows = (db: Db) =>
    db('device_credentials').select('key_hash', 'unlock_key', 'unlock_key_sealed').orderBy('id');

  /** A command of src/cli/ as a child process, with only the given environment besides the database's. */
  const command = (script: string, args: string[], env: Record<string, string>) =>
    finish(
      spawn(process.execPath, ['--import', 'tsx', script, ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...where, ...env },
      }),
    );

  /**
   * Stops a service started in this process. Its embedded folder's lock stays this process's until it
   * exits (src/db/dataDirLock.ts), so it is let go here for the commands run next.
   */
  async function stop(service: StartedService): Promise<void> {
    expect(await runShutdownSteps(service.shutdownSteps(), { timeoutMs: 30_000, logger: createLogger('silent') })).toBe(
      'done',
    );
    if (!onPostgres) rmSync(join(where.DATA_DIR!, 'pglite.lock'), { force: true });
  }

  /** The service in this process (src/process/service.ts), role all, with these sealing keys. */
  async function start(sealingKeys: string) {
    const config = loadConfig(
      { ...where, DEVICE_UNLOCK_SEALING_KEYS: sealingKeys, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent' },
      { role: 'all' },
    );
    return { config, started: startService(config, createLogger('silent')) };
  }

  it('the release step, with the database alone, keeps the clear keys; payments still make codes from them', {
    timeout: 300_000,
  }, async () => {
    if (onPostgres) {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => database.drop());
      where = { DATABASE_URL: database.url };
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'dfs-sealed-keys-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      where = { DATA_DIR: dir };
    }
    // The database as the release before left it: migrated to its last migration, demo data, and
    // credentials whose unlock keys it stored in clear.
    await withDb(async (db) => {
      await migrateLatest(db);
      await seedDemoData(db, { production: false });
      expect(await undoThrough(db, SEALED_MIGRATION)).toContain(SEALED_MIGRATION);
      for (const tag of [DEMO_DEVICE_TAG, 'DTSTBBE']) {
        const row = await db('devices').where({ tag }).first('id', 'partner_id');
        const credential = generateDeviceCredential();
        devices.push(new OfflineDevice(credential, tag));
        await db('device_credentials').insert({
          partner_id: row.partner_id,
          device_id: row.id,
          key_hash: sha256(credential),
          unlock_key: unlockKeyOfCredential(credential),
        });
      }
    }, true);

    // The release step as an operator runs it: in production on Postgres, with DATABASE_URL and no secret.
    const migrated = await command('src/cli/db.ts', ['migrate'], onPostgres ? { NODE_ENV: 'production' } : {});
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('applied: 20261128210200_sealed_unlock_keys');

    await withDb(async (db) => {
      const rows = await credentialRows(db);
      expect(rows.map((row) => [row.unlock_key, row.unlock_key_sealed])).toEqual(
        devices.map((device) => [device.unlockKey.toString('hex'), null]),
      );
      // Not sealed yet, and the codes go on: a payment makes its code from the clear key.
      const service = await startTestService(db);
      try {
        expect(devices[0]!.type(await payInStore(service.baseUrl))).toBe('ACCEPTED');
      } finally {
        await service.close();
      }
    });
  });

  it('a start seals every clear key under the first sealing key, and the codes after it verify', {
    timeout: 300_000,
  }, async () => {
    const { started } = await start(U1);
    const service = await started;
    try {
      // The worker's job at start (the role all runs it): no key left in clear.
      await vi.waitFor(
        async () => {
          const rows = await credentialRows(service.db);
          expect(rows.map((row) => row.unlock_key)).toEqual([null, null]);
        },
        { timeout: 60_000, interval: 100 },
      );
      const rows = await credentialRows(service.db);
      for (const [index, row] of rows.entries()) {
        expect(row.unlock_key_sealed).toMatch(/^v1\.u1\./);
        for (const spelling of spellingsOf(devices[index]!.unlockKey))
          expect(JSON.stringify(row)).not.toContain(spelling);
      }
      expect(devices[0]!.type(await payInStore(`http://127.0.0.1:${service.port}`))).toBe('ACCEPTED');
    } finally {
      await stop(service);
    }
  });

  it('rotates: the command reseals under the new first key; a start without a key stored seals name refuses', {
    timeout: 300_000,
  }, async () => {
    const resealed = await command('src/cli/keys.ts', ['seal-unlock-keys'], {
      DEVICE_UNLOCK_SEALING_KEYS: `${U2},${U1}`,
    });
    expect(resealed.code, resealed.stderr).toBe(0);
    expect(resealed.stdout).toContain('sealed 0 from clear, resealed 2 under "u2"');
    expect(resealed.stdout).toContain('none left in clear or under another key');
    await withDb(async (db) => {
      for (const row of await credentialRows(db)) expect(row.unlock_key_sealed).toMatch(/^v1\.u2\./);
    });

    // Without the key the seals need: one line naming it, nothing started.
    const refused = await start(U3);
    const error = await refused.started.then(
      () => expect.fail('the start should have been refused'),
      (failure: unknown) => failure,
    );
    if (!onPostgres) rmSync(join(where.DATA_DIR!, 'pglite.lock'), { force: true }); // the refused start's
    expect(startupFailureLine(error, refused.config)).toBe(
      'startup error: stored unlock keys are sealed under key(s) DEVICE_UNLOCK_SEALING_KEYS does not list: "u2" (2); list those keys again (after the first) until npm run keys -- seal-unlock-keys has resealed them',
    );

    // Another key under the seals' id: refused too, before any payment could fail on it.
    const impostor = await start(`u2:${sealingKey()}`);
    const wrongKey = await impostor.started.then(
      () => expect.fail('the start should have been refused'),
      (failure: unknown) => failure,
    );
    if (!onPostgres) rmSync(join(where.DATA_DIR!, 'pglite.lock'), { force: true });
    expect(startupFailureLine(wrongKey, impostor.config)).toBe(
      'startup error: the key(s) "u2" of DEVICE_UNLOCK_SEALING_KEYS do not open the unlock keys stored under their id; give each id the key that sealed them (another key needs another id)',
    );

    // The old key dropped: the new one alone opens every seal.
    const { started } = await start(U2);
    const service = await started;
    try {
      expect(devices[0]!.type(await payInStore(`http://127.0.0.1:${service.port}`))).toBe('ACCEPTED');
    } finally {
      await stop(service);
    }

    // The release before cannot read a sealed key: its migration does not roll back.
    await withDb(async (db) => {
      await expect(db.migrate.down({ ...MIGRATOR, name: SEALED_MIGRATION })).rejects.toThrow(
        /2 device credential\(s\) hold their unlock key sealed only/,
      );
    });
  });
});
