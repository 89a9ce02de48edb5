// What the starting service says (decisions.md 27): for a person outside production, plain text (the line
// before a slow preparation of the database; the banner: URLs, demo keys); in production one JSON line
// among the others ("preparing the database", "listening").
import { getHeapStatistics } from 'node:v8';
import type { Logger } from 'pino';
import type { Db } from '../db/knex.js';
import { describeDatabase } from '../db/open.js';
import { activeDemoKeys } from '../fixtures/demo.js';
import type { Config } from '../kernel/config.js';

/** The work about to be done on the database: pending migrations, and whether the demo data set follows. */
interface Preparation {
  migrations: number;
  demoData: boolean;
}

/** Said once, before migrations or the demo data set, which may take seconds (tens on a busy machine). */
export function announcePreparing(config: Config, logger: Logger, work: Preparation): void {
  if (config.production) {
    logger.info({ migrations: work.migrations, demoData: work.demoData }, 'preparing the database');
    return;
  }
  const migrations = `applying ${work.migrations} migration${work.migrations === 1 ? '' : 's'}`;
  const steps = [
    ...(work.migrations > 0 ? [migrations] : []),
    ...(work.demoData ? [work.migrations > 0 ? 'then loading the demo data set' : 'loading the demo data set'] : []),
  ];
  process.stdout.write(`preparing the database: ${steps.join(', ')} ...\n`);
}

export async function announceListening(config: Config, logger: Logger, started: { db: Db; port: number }) {
  const { port } = started;
  const database = describeDatabase(config);
  if (config.production) {
    logger.info({ host: config.host, port, role: config.role, database }, 'listening');
  } else {
    const base = `http://localhost:${port}`;
    const first = `device-financing service listening on ${config.host}:${port} (${database})`;
    const lines =
      config.role === 'worker'
        ? [`${first}, role worker`, `  jobs, and only:    ${base}/healthz  ${base}/readyz  ${base}/metrics`]
        : [
            config.role === 'all' ? first : `${first}, role ${config.role}`,
            `  start here:        ${base}/graphiql  (also / and /docs)`,
            ...(config.consoleEnabled
              ? [`  console:           ${base}/console  (sign in with a partner or an operator key)`]
              : []),
            `  GraphQL:           ${base}/graphql  (Apollo Sandbox in a browser, from Apollo's CDN: needs internet)`,
            `  partner interface: ${base}/v1/list-clerks.php?key=...`,
            `  payments:          ${base}/payments/v1/token`,
            ...(await demoKeyLines(started.db)),
          ];
    process.stdout.write(`${[...lines, ''].join('\n')}`);
  }
  // The heap's ceiling is set where the process starts (npm start: --max-old-space-size=1024); the GraphQL
  // backstop (pipeline/documentLimits/listItemCeiling.ts) answers 503 before an answer can reach it.
  logger.info({ heapLimitMb: Math.round(getHeapStatistics().heap_size_limit / 2 ** 20) }, 'heap limit');
}

async function demoKeyLines(db: Db): Promise<string[]> {
  const demoKeys = await activeDemoKeys(db);
  if (demoKeys.length === 0) return [];
  return ['  demo keys:', ...demoKeys.map(({ key, kind, owner }) => `    ${key.padEnd(20)} ${kind} key of ${owner}`)];
}
