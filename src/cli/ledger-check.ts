// npm run ledger:check: verifies the ledger of the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR); exits 1 with a report when anything is off.
import { checkLedger, formatLedgerReport } from '../ledger/check.js';
import { readArgs, runCli } from './run.js';

const USAGE = 'usage: npm run ledger:check   (built: node dist/src/cli/ledger-check.js)';

await runCli(
  USAGE,
  () => readArgs({}),
  async (db, config) => {
    const report = await checkLedger(db, { retentionDays: config.eventRetentionDays });
    process.stdout.write(formatLedgerReport(report));
    return report.problems.length === 0 ? 0 : 1;
  },
);
