// A pg_auto_failover formation for the failover suite (docs/operating.md#failover): a monitor, a primary
// and a secondary in synchronous replication, each `pg_autoctl ... --run` in a process group of its
// own on a free local port, under one temporary directory (data, pg_autoctl's configuration and state
// through XDG_*, logs), all as the `postgres` OS user (runuser when the tests run as root) like
// support/replica.ts. The monitor's health checks and the demote timeout are shortened (and the
// keepers' network partition timeout below it) so a failover takes seconds, not the defaults' minute.
// destroy() stops every process group and deletes the directory.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import knex from 'knex';
import { acceptsConnections, freePort } from './ports.js';

const run = promisify(execFile);

/** pg_autoctl, where Debian's postgresql-<major>-auto-failover puts it; null when it is not installed. */
export function pgAutoctl(): string | null {
  for (const path of ['/usr/bin/pg_autoctl', '/usr/lib/postgresql/15/bin/pg_autoctl'])
    if (existsSync(path)) return path;
  return null;
}

export interface FormationNode {
  name: string;
  port: number;
}

export interface NodeState {
  name: string;
  port: number;
  reported: string;
  assigned: string;
}

export interface AutoFailoverFormation {
  nodes: FormationNode[];
  /** libpq's multi-host URL of `database` over both nodes, for a session that takes writes. */
  failoverUrl: (database: string) => string;
  /** The URL of `database` on one node. */
  nodeUrl: (index: number, database: string) => string;
  /** The monitor's view of the nodes (pg_autoctl show state). */
  states: () => Promise<NodeState[]>;
  /** Resolves once node `index` takes writes (its session is not read-only), or throws after `timeoutMs`. */
  takesWrites: (index: number, timeoutMs: number) => Promise<void>;
  /** The node's machine gone: SIGKILL to its pg_autoctl (so nothing restarts Postgres) and its postmaster. */
  kill: (index: number) => Promise<void>;
  /** The monitor's event log, for a failing test's message. */
  events: () => Promise<string>;
  destroy: () => Promise<void>;
}

const asRoot = process.getuid?.() === 0;
const BIN_DIR = '/usr/lib/postgresql/15/bin';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, timeoutMs: number, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await done().catch(() => false)) return;
    await sleep(200);
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

export async function startAutoFailover(): Promise<AutoFailoverFormation> {
  const autoctl = pgAutoctl();
  if (!autoctl) throw new Error('pg_autoctl is not installed (apt-get install postgresql-15-auto-failover)');
  // Under /tmp itself, not the run's TMPDIR: the postgres user must reach it.
  const dir = mkdtempSync('/tmp/dfs-failover-');
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  if (asRoot) chownSync(dir, Number(uid.stdout), Number(gid.stdout));
  chmodSync(dir, 0o700);
  // Whose formation this is: .ci/run stops and removes one whose test process died without destroy().
  writeFileSync(join(dir, 'owner.pid'), `${process.pid}\n`);
  // pg_autoctl keeps its configuration and state under XDG_* (by default in the postgres user's home).
  const env = [`XDG_CONFIG_HOME=${dir}/xdg/config`, `XDG_DATA_HOME=${dir}/xdg/data`, `XDG_RUNTIME_DIR=${dir}/xdg/run`];
  const command = (args: string[]): [string, string[]] =>
    asRoot
      ? ['runuser', ['-u', 'postgres', '--', 'env', ...env, autoctl, ...args]]
      : ['env', [...env, autoctl, ...args]];
  const autoctlRun = async (...args: string[]) => (await run(...command(args), { timeout: 30_000 })).stdout;

  const groups: ChildProcess[] = [];
  const pgdata = (name: string) => join(dir, name);
  /** `pg_autoctl create ... --run` in a process group of its own (its Postgres too), its output in <name>.log. */
  const launch = (name: string, args: string[]) => {
    const log = openSync(join(dir, `${name}.log`), 'a');
    const [file, argv] = command([...args, '--pgdata', pgdata(name), '--pgctl', join(BIN_DIR, 'pg_ctl'), '--run']);
    const child = spawn(file, argv, { detached: true, stdio: ['ignore', log, log] });
    groups[groups.length] = child;
    return child;
  };
  const killGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {}
  };
  const postmasterPid = (name: string): number | null => {
    const file = join(pgdata(name), 'postmaster.pid');
    return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : null;
  };

  const destroy = async () => {
    for (const child of groups) killGroup(child, 'SIGTERM'); // pg_autoctl stops its Postgres (fast)
    await until('the formation stopping', 15_000, async () =>
      groups.every((child) => child.exitCode !== null || child.signalCode !== null),
    ).catch(() => undefined);
    for (const child of groups) killGroup(child, 'SIGKILL');
    for (const name of ['monitor', 'node1', 'node2']) {
      const pid = postmasterPid(name);
      if (pid) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {}
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const monitorPort = await freePort();
    // Made here, not by pg_autoctl: two of its processes making the same folder at once fail ("File exists").
    for (const folder of ['xdg', 'xdg/config', 'xdg/data', 'xdg/run']) {
      mkdirSync(join(dir, folder), { recursive: true });
      if (asRoot) chownSync(join(dir, folder), Number(uid.stdout), Number(gid.stdout));
    }
    launch('monitor', [
      'create',
      'monitor',
      '--pgport',
      String(monitorPort),
      '--hostname',
      '127.0.0.1',
      '--auth',
      'trust',
      '--no-ssl',
    ]);
    const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
    const states = async (): Promise<NodeState[]> => {
      const rows = JSON.parse(await autoctlRun('show', 'state', '--pgdata', pgdata('monitor'), '--json')) as Array<
        Record<string, unknown>
      >;
      return rows.map((row) => ({
        name: String(row.nodename),
        port: Number(row.nodeport),
        reported: String(row.current_group_state),
        assigned: String(row.assigned_group_state),
      }));
    };
    // Asked only once the monitor's Postgres listens: `show state` before then races the monitor's own
    // creation of its state folders.
    await until(
      'the monitor starting',
      60_000,
      async () => (await acceptsConnections(monitorPort)) && (await states()).length === 0,
    );
    // Seconds, not the defaults' 20 s unhealthy + 30 s demote timeout; the old primary's keeper demotes
    // itself (network_partition_timeout) before the monitor gives up waiting for it.
    const monitor = knex({
      client: 'pg',
      connection: `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`,
      pool: { min: 0, max: 1 },
    });
    try {
      for (const [name, value] of [
        ['health_check_period', 1000],
        ['health_check_timeout', 1000],
        ['health_check_max_retries', 1],
        ['health_check_retry_delay', 500],
        ['node_considered_unhealthy_timeout', 3000],
        ['primary_demote_timeout', 5000],
      ] as const) {
        await monitor.raw(`alter system set pgautofailover.${name} = ${value}`);
      }
      await monitor.raw('select pg_reload_conf()');
    } finally {
      await monitor.destroy();
    }

    const nodes: FormationNode[] = [];
    for (const name of ['node1', 'node2']) {
      const port = await freePort();
      nodes.push({ name, port });
      // prettier-ignore
      launch(name, [
        'create',
        'postgres',
        '--pgport',
        String(port),
        '--hostname',
        '127.0.0.1',
        '--listen',
        '127.0.0.1',
        '--name',
        name,
        '--auth',
        'trust',
        '--no-ssl',
        '--monitor',
        monitorUrl,
      ]);
      // The second node is created once the first is the primary: it then starts as its standby.
      const goal = name === 'node1' ? ['single'] : ['primary', 'secondary'];
      await until(`${name} joining`, 90_000, async () => {
        const now = await states();
        return goal.every((state, index) => now[index]?.reported === state && now[index]?.assigned === state);
      });
      await autoctlRun('config', 'set', '--pgdata', pgdata(name), 'timeout.network_partition_timeout', '3');
      await autoctlRun('reload', '--pgdata', pgdata(name));
    }

    const nodeUrl = (index: number, database: string) =>
      `postgres://postgres@127.0.0.1:${nodes[index]!.port}/${database}`;
    return {
      nodes,
      failoverUrl: (database) =>
        `postgres://postgres@${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}/${database}?target_session_attrs=read-write`,
      nodeUrl,
      states,
      takesWrites: (index, timeoutMs) =>
        until(`${nodes[index]!.name} taking writes`, timeoutMs, async () => {
          const probe = knex({ client: 'pg', connection: nodeUrl(index, 'postgres'), pool: { min: 0, max: 1 } });
          try {
            const { rows } = await probe.raw('show transaction_read_only');
            return rows[0].transaction_read_only === 'off';
          } finally {
            await probe.destroy();
          }
        }),
      kill: async (index) => {
        const name = nodes[index]!.name;
        const pid = postmasterPid(name);
        killGroup(groups[index + 1]!, 'SIGKILL');
        if (pid) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {}
        }
      },
      events: () => autoctlRun('show', 'events', '--pgdata', pgdata('monitor'), '--count', '30'),
      destroy,
    };
  } catch (error) {
    const logs = ['monitor', 'node1', 'node2']
      .map((name) => join(dir, `${name}.log`))
      .filter((file) => existsSync(file))
      .map((file) => `${file}:\n${readFileSync(file, 'utf8').split('\n').slice(-15).join('\n')}`)
      .join('\n');
    await destroy();
    throw new Error(`${(error as Error).message}\n${logs}`);
  }
}
