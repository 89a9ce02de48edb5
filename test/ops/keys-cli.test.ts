// Production from nothing: an operator bootstraps with the keys CLI (no demo keys exist), the new
// partner calls every partner endpoint, and revoking its key stops it at once. And the command line
// itself: --help, both spellings of an option's value, and every mistake refused with exit code 2.
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import knex from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateLatest } from '../../src/db/migrate.js';
import { createPostgresDatabase, onPostgres } from '../support/db.js';
import { listeningPort } from '../support/serviceProcess.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The service's secrets: the commands need none of them (decisions.md 27), the service all. */
const SERVICE_SECRETS = {
  TOKEN_SIGNING_SECRET: 'production-signing-secret-for-the-cli-test-0123',
  DEVICE_SIGNING_KEYS: `cli:${generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url')}`,
  DEVICE_UNLOCK_SEALING_KEYS: `cli:${randomBytes(32).toString('base64url')}`,
};
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  script = 'src/cli/keys.ts',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const keyIn = (output: string) => /^key: (\S+)$/m.exec(output)?.[1];
const keyIdIn = (output: string) => /key (\d+) \(/.exec(output)?.[1];

describe.skipIf(!onPostgres)('production bootstrap with the keys CLI (Postgres)', () => {
  it('creates an operator, a partner and its keys; the partner calls every endpoint; revoking stops it at once', async () => {
    const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
    cleanups.push(() => database.drop());
    const admin = knex({ client: 'pg', connection: database.url });
    await migrateLatest(admin); // an empty database: no demo data, no demo keys
    await admin.destroy();
    // The commands in production with the database alone.
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      LOG_LEVEL: 'warn',
    };

    const operator = await run(['create', '--kind', 'operator', '--new-operator', 'Operations'], env);
    expect(operator.code, operator.stderr).toBe(0);
    const partner = await run(['partner', '--name', 'Acme Phones', '--commission-bps', '250'], env);
    const partnerId = /partner (\d+) "Acme Phones" created/.exec(partner.stdout)?.[1];
    expect(partnerId).toBeDefined();
    const partnerKey = await run(['create', '--kind', 'partner', '--owner', partnerId!, '--label', 'back office'], env);
    const retailKey = await run(['create', '--kind', 'retail', '--owner', partnerId!, '--label', 'till 1'], env);
    const [pk, rk] = [keyIn(partnerKey.stdout)!, keyIn(retailKey.stdout)!];
    expect(pk).toMatch(/^dfs_pk_/);
    expect(rk).toMatch(/^dfs_rk_/);
    const listed = await run(['list', '--partner', partnerId!], env);
    expect(listed.stdout).not.toContain(pk);
    expect(listed.stdout.split('\n').filter((line) => line.includes(`partner ${partnerId}`))).toHaveLength(2);

    const service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { ...env, ...SERVICE_SECRETS, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    });
    children.push(service);
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      service.stdout.on('data', (chunk) => {
        output += chunk;
        const port = listeningPort(output); // production: the JSON line
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      service.on('close', (code) => reject(new Error(`service exited ${code}: ${output}`)));
    });
    const get = (path: string) =>
      fetch(`${baseUrl}${path}`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as any,
      }));

    // No demo key works in production.
    expect((await get('/v1/list-clerks.php?key=demo-partner-key')).status).toBe(401);
    // The new partner reaches every partner endpoint: authenticated and allowed (its data is empty).
    const now = Math.floor(Date.now() / 1000);
    const calls = [
      [`/v1/list-clerks.php?key=${pk}`, 200],
      [`/v1/list-merchants.php?key=${rk}`, 200],
      [`/v1/lookup-customer.php?key=${pk}&customerLocator=5550100`, 404],
      [`/v1/lookup-cart.php?key=${pk}&cartTag=NONE`, 404],
      [`/v1/list-transactions.php?key=${pk}&starttime=${now - 86_400}&endtime=${now}`, 200],
      [
        `/v1/record-customer-payment.php?key=${rk}&merchantId=1&salesClerkId=1&financeOrderId=1&amount=1.00&currency=USD`,
        404,
      ],
    ] as const;
    for (const [path, status] of calls) expect((await get(path)).status, path).toBe(status);
    expect((await get(`/v1/list-clerks.php?key=${pk}`)).body).toEqual({ valid: true, clerks: [] });

    const revoked = await run(['revoke', keyIdIn(partnerKey.stdout)!], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    // At once: the running service refuses the key on its very next request.
    const after = await get(`/v1/list-clerks.php?key=${pk}`);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('INVALID_API_KEY');
    expect((await get(`/v1/list-merchants.php?key=${rk}`)).status).toBe(200);
  });
});

describe('the keys command line', () => {
  let env: NodeJS.ProcessEnv;
  let partnerId: string;
  beforeAll(async () => {
    env = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' };
    if (onPostgres) {
      const database = await createPostgresDatabase(process.env.TEST_DATABASE_URL!);
      cleanups.push(() => database.drop());
      env.DATABASE_URL = database.url;
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'dfs-keys-cli-'));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      env.DATA_DIR = dataDir;
    }
    const migrated = await run(['migrate'], env, 'src/cli/db.ts');
    expect(migrated.code, migrated.stderr).toBe(0);
    const partner = await run(['partner', '--name=Acme Phones', '--commission-bps=250'], env);
    expect(partner.code, partner.stderr).toBe(0);
    partnerId = /partner (\d+) "Acme Phones" created/.exec(partner.stdout)![1]!;
  });

  /** Exit code 2, nothing on stdout, and on stderr the one-line message followed by the usage. */
  function expectUsageError(result: { code: number | null; stdout: string; stderr: string }, message: string): void {
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    const [first, ...rest] = result.stderr.split('\n');
    expect(first).toBe(message);
    expect(rest.join('\n')).toMatch(/^usage: npm run keys -- create --kind /);
  }

  it('prints its usage on stdout for --help and -h, anywhere on the line, with exit code 0', async () => {
    for (const args of [['--help'], ['create', '--kind', 'partner', '-h']]) {
      const result = await run(args, env);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/^usage: npm run keys -- create --kind partner\|retail\|vendor\|operator /);
      expect(result.stdout).toContain('npm run keys -- revoke ID');
      expect(result.stderr).toBe('');
    }
  });

  it("takes an option's value after = or as the next argument", async () => {
    const spelled = [
      ['create', '--kind=partner', `--owner=${partnerId}`, '--label=back office'],
      ['create', '--kind', 'retail', '--owner', partnerId, '--label', 'till 1'],
    ];
    for (const args of spelled) {
      const result = await run(args, env);
      expect(result.code, result.stderr).toBe(0);
    }
    const listed = await run([`--partner=${partnerId}`, 'list'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout.split('\n').filter((line) => line.includes(`partner ${partnerId}`));
    const kindAndLabel = rows.map((row) => row.split('\t')).map(([, kind, , , label]) => `${kind}: ${label}`);
    expect(kindAndLabel.sort()).toEqual(['partner: back office', 'retail: till 1']);
  });

  it('refuses an unknown option, a missing value, an option of another command and a stray argument with exit code 2', async () => {
    const owner = `--owner=${partnerId}`;
    expectUsageError(
      await run(['create', '--kind=partner', owner, '--colour', 'blue'], env),
      "Unknown option '--colour'",
    );
    expectUsageError(await run(['create', owner, '--kind'], env), "Option '--kind <value>' argument missing");
    expectUsageError(
      await run(['create', '--kind', owner], env),
      "Option '--kind' argument is ambiguous. Did you forget to specify the option argument for '--kind'?",
    );
    expectUsageError(await run(['list', '--kind=partner'], env), '--kind does not go with list');
    expectUsageError(await run(['revoke', '1', '2'], env), 'unexpected argument 2');
    expectUsageError(await run(['rotate'], env), 'unknown command rotate');
    expectUsageError(await run([], env), 'unknown command (none)');
    // Nothing was written by any of them: the partner still holds the two keys of the test above.
    const listed = await run(['list', '--partner', partnerId], env);
    expect(listed.stdout.split('\n').filter((line) => line.includes(`partner ${partnerId}`))).toHaveLength(2);
  });

  it('keeps exit code 1 for a refusal', async () => {
    const result = await run(['revoke', '999999'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('refused: no API key with id "999999" was found\n');
  });
});
