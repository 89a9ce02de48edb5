// Production from nothing: an operator bootstraps with the keys CLI (no demo keys exist), the new
// partner calls every partner endpoint, and revoking its key stops it at once.
import { spawn, type ChildProcess } from 'node:child_process';
import knex from 'knex';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, onPostgres } from './support/db.js';
import { migrateLatest } from '../src/db/migrate.js';

const ROOT = new URL('../', import.meta.url).pathname;
const SECRET = 'production-signing-secret-for-the-cli-test-0123';
const children: ChildProcess[] = [];
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/keys.ts', ...args], { cwd: ROOT, env });
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
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', DATABASE_URL: database.url, TOKEN_SIGNING_SECRET: SECRET, LOG_LEVEL: 'warn' };

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

    const service = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: ROOT, env: { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' } });
    children.push(service);
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      service.stdout.on('data', (chunk) => {
        output += chunk;
        const port = /listening on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
        if (port) resolve(`http://127.0.0.1:${port}`);
      });
      service.on('close', (code) => reject(new Error(`service exited ${code}: ${output}`)));
    });
    const get = (path: string) => fetch(`${baseUrl}${path}`).then(async (response) => ({ status: response.status, body: (await response.json()) as any }));

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
      [`/v1/record-customer-payment.php?key=${rk}&merchantId=1&salesClerkId=1&financeOrderId=1&amount=1.00&currency=USD`, 404],
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
