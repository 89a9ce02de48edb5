// npm run events:purge: purges the events older than EVENT_RETENTION_DAYS (the service does it every
// hour too): the months wholly past it, dropped, and strays of the default partition (decisions.md 25);
// says how many went.
import { purgeExpiredEvents } from '../modules/events/retention.js';
import { readArgs, runCli } from './run.js';

const USAGE =
  'usage: npm run events:purge   (drops the months of events wholly older than EVENT_RETENTION_DAYS, 30 by default)';

await runCli(
  USAGE,
  () => readArgs({}),
  async (db, config) => {
    const purged = await purgeExpiredEvents(db, new Date(), config.eventRetentionDays);
    process.stdout.write(`purged ${purged} event(s) older than ${config.eventRetentionDays} days\n`);
    return 0;
  },
);
