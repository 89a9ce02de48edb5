// A real streaming replica of the test Postgres server (TEST_DATABASE_URL), for the read-replica suite:
// pg_basebackup -R -X stream into a temporary directory, and a second postmaster on a free port, both
// as the `postgres` OS user (runuser when the tests run as root). The primary's pg_hba.conf must allow
// replication connections from 127.0.0.1 (.ci/allow-replication adds the line). Stopped and deleted
// by destroy().
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import knex from 'knex';
import { freePort } from './ports.js';

const run = promisify(execFile);
/** How long caughtUp waits for the standby to replay what the primary has written. */
const CATCH_UP_MS = 180_000;

export interface StreamingReplica {
  port: number;
  /** The URL of `database` on the replica (same user as the primary's URL). */
  url: (database: string) => string;
  /** A superuser session on the replica's `postgres` database (pause and resume replay, read positions). */
  admin: knex.Knex;
  pauseReplay: () => Promise<void>;
  resumeReplay: () => Promise<void>;
  /** Resolves once the replica has replayed everything the primary had written when it was called. */
  caughtUp: () => Promise<void>;
  /** pg_ctl stop -m fast: every session is cut, as when the replica's machine goes away. */
  stop: () => Promise<void>;
  /** Starts the stopped replica again (it resumes streaming where it was). */
  start: () => Promise<void>;
  destroy: () => Promise<void>;
}

const asRoot = process.getuid?.() === 0;

/** Runs a Postgres program as the postgres OS user. */
async function asPostgres(binDir: string, program: string, args: string[]): Promise<string> {
  const path = join(binDir, program);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  const { stdout } = await run(file, argv, { timeout: 120_000 });
  return stdout;
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

// Settings a hot standby must have at least as high as its primary, or recovery stops.
const AT_LEAST_PRIMARY = [
  'max_connections',
  'max_worker_processes',
  'max_wal_senders',
  'max_prepared_transactions',
  'max_locks_per_transaction',
];

export async function startStreamingReplica(primaryUrl: string): Promise<StreamingReplica> {
  const primary = new URL(primaryUrl);
  const adminPrimary = knex({ client: 'pg', connection: primaryUrl, pool: { min: 0, max: 1 } });
  let settings: Record<string, string>;
  let major: number;
  try {
    const rows = await adminPrimary('pg_settings')
      .select('name', 'setting')
      .whereIn('name', [...AT_LEAST_PRIMARY, 'server_version_num']);
    settings = Object.fromEntries(rows.map((row: { name: string; setting: string }) => [row.name, row.setting]));
    major = Math.floor(Number(settings.server_version_num) / 10_000);
  } finally {
    await adminPrimary.destroy();
  }
  const binDir = `/usr/lib/postgresql/${major}/bin`;
  if (!existsSync(join(binDir, 'pg_basebackup'))) throw new Error(`no Postgres ${major} binaries in ${binDir}`);

  // Under /tmp itself, not the run's TMPDIR: the postgres user must be able to reach it.
  const dir = mkdtempSync('/tmp/dfs-replica-');
  const dataDir = join(dir, 'data');
  const port = await freePort();
  const { uid, gid } = await postgresIds();
  if (asRoot) chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
  // Whose replica this is: .ci/run stops and removes a replica whose test process died without destroy().
  writeFileSync(join(dir, 'owner.pid'), `${process.pid}\n`);

  const pgCtl = (...args: string[]) => asPostgres(binDir, 'pg_ctl', ['-D', dataDir, ...args]);
  let running = false;
  const start = async () => {
    await pgCtl('-l', join(dir, 'postgres.log'), '-w', '-t', '60', 'start');
    running = true;
  };
  const stop = async () => {
    if (!running) return;
    await pgCtl('-m', 'fast', '-w', 'stop');
    running = false;
  };

  let admin: knex.Knex | undefined;
  try {
    await asPostgres(binDir, 'pg_basebackup', [
      '-h',
      primary.hostname,
      '-p',
      primary.port || '5432',
      '-U',
      decodeURIComponent(primary.username) || 'postgres',
      '-D',
      dataDir,
      '-R', // standby.signal and primary_conninfo: a standby streaming from the primary
      '-X',
      'stream',
      '-c',
      'fast',
    ]);
    const conf = [
      `port = ${port}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'hot_standby = on',
      'hot_standby_feedback = on',
      'shared_buffers = 16MB',
      ...AT_LEAST_PRIMARY.map((name) => `${name} = ${settings[name]}`),
    ];
    writeFileSync(join(dataDir, 'postgresql.conf'), `${conf.join('\n')}\n`);
    writeFileSync(join(dataDir, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
    writeFileSync(join(dataDir, 'pg_ident.conf'), '');
    if (asRoot)
      for (const file of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) chownSync(join(dataDir, file), uid, gid);
    await start();

    const url = (database: string) => {
      const replica = new URL(primaryUrl);
      replica.hostname = '127.0.0.1';
      replica.port = String(port);
      replica.pathname = `/${database}`;
      return replica.toString();
    };
    // Silent: its connection is cut, by design, whenever a test stops the replica.
    const quiet = () => undefined;
    admin = knex({
      client: 'pg',
      connection: url('postgres'),
      pool: { min: 0, max: 1 },
      log: { warn: quiet, error: quiet, deprecate: quiet, debug: quiet },
    });
    const session = admin;
    return {
      port,
      url,
      admin: session,
      pauseReplay: async () => {
        await session.raw('select pg_wal_replay_pause()');
      },
      resumeReplay: async () => {
        await session.raw('select pg_wal_replay_resume()');
      },
      caughtUp: async () => {
        const probe = knex({ client: 'pg', connection: primaryUrl, pool: { min: 0, max: 1 } });
        try {
          const { rows } = await probe.raw('select pg_current_wal_lsn()::text as lsn');
          const target = rows[0].lsn as string;
          // The standby replays the whole cluster's WAL: on a busy machine the other suites' writes
          // (every test database lives in this one cluster) come first, so a generous wait, by the clock.
          const deadline = performance.now() + CATCH_UP_MS;
          while (performance.now() < deadline) {
            const replayed = await session.raw('select pg_last_wal_replay_lsn() >= ?::pg_lsn as done', [target]);
            if (replayed.rows[0].done) return;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          throw new Error(`the replica did not replay ${target} within ${CATCH_UP_MS / 1000} s`);
        } finally {
          await probe.destroy();
        }
      },
      stop,
      start,
      destroy: async () => {
        await session.destroy();
        await stop().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await admin?.destroy();
    await stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
