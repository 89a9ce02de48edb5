// A real PgBouncer (Debian's /usr/sbin/pgbouncer) in front of the test Postgres server
// (TEST_DATABASE_URL), in transaction pooling: every database of that server through it on a free
// port, trust authentication, run as the `postgres` OS user (PgBouncer refuses to run as root), its
// ini, log and pid files in a temporary directory under /tmp that destroy() removes. `poolSize` is
// PgBouncer's default_pool_size: the server connections each database and user share.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { acceptsConnections, freePort } from './ports.js';

export const PGBOUNCER = '/usr/sbin/pgbouncer';

export interface PgBouncer {
  port: number;
  /** The URL of `database` through PgBouncer (the server's user, as TEST_DATABASE_URL names it). */
  url: (database: string) => string;
  /** A row of PgBouncer's SHOW STATS for `database` (its admin console): what went through it. */
  stats: (database: string) => Promise<{ transactions: number; queries: number }>;
  destroy: () => Promise<void>;
}

const asRoot = process.getuid?.() === 0;

export async function startPgBouncer(serverUrl: string, options: { poolSize?: number } = {}): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER)) throw new Error(`no ${PGBOUNCER}: apt-get install pgbouncer`);
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username) || 'postgres';
  // Under /tmp itself, not the run's TMPDIR: the postgres user must be able to reach it.
  const dir = mkdtempSync('/tmp/dfs-pgbouncer-');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      // Every database of the server, by the name the client asks for.
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      `admin_users = ${user}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 10}`,
      'max_client_conn = 500',
      // SHOW STATS' totals are refreshed every stats_period seconds (60 by default).
      'stats_period = 1',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`);
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    for (const path of [dir, ini, join(dir, 'users.txt')]) chownSync(path, uid, gid);
  }
  chmodSync(dir, 0o700);
  // Whose PgBouncer this is: .ci/run stops and removes one whose test process died without destroy().
  writeFileSync(join(dir, 'owner.pid'), `${process.pid}\n`);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER, ini]] : [PGBOUNCER, [ini]];
  const child: ChildProcess = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const destroy = async () => {
    if (running) {
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let attempt = 0; !(await acceptsConnections(port)); attempt++) {
      if (!running || attempt > 200) throw new Error(`pgbouncer did not start on port ${port}:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch (error) {
    await destroy();
    throw error;
  }
  const url = (database: string) => {
    const through = new URL(serverUrl);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    through.pathname = `/${database}`;
    return through.toString();
  };
  return {
    port,
    url,
    stats: async (database) => {
      // The admin console answers the simple query protocol only: a query without parameters.
      const admin = new pg.Client({ connectionString: url('pgbouncer') });
      await admin.connect();
      try {
        const { rows } = await admin.query('show stats');
        const row = rows.find((candidate) => candidate.database === database);
        return {
          transactions: Number(row?.total_xact_count ?? 0),
          queries: Number(row?.total_query_count ?? 0),
        };
      } finally {
        await admin.end();
      }
    },
    destroy,
  };
}
