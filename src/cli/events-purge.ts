// npm run events:purge: deletes the events older than EVENT_RETENTION_DAYS (the service does it every
// hour too) and says how many went.
import { purgeExpiredEvents } from '../modules/events/retention.js';
import { readArgs, runCli } from './run.js';

const USAGE = 'usage: npm run events:purge   (deletes events older than EVENT_RETENTION_DAYS, 30 by default)';

await runCli(
  USAGE,
  () => readArgs({}),
  async (db, config) => {
    const purged = await purgeExpiredEvents(db, new Date(), config.eventRetentionDays);
    process.stdout.write(`purged ${purged} event(s) older than ${config.eventRetentionDays} days\n`);
    return 0;
  },
);
