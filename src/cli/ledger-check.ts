// npm run ledger:check: verifies the ledger of the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR); exits 1 with a report when anything is off.
import { checkLedger, formatLedgerReport } from '../ledger/check.js';
import { runCli } from './run.js';

await runCli('usage: npm run ledger:check', () => undefined, async (db) => {
  const report = await checkLedger(db);
  process.stdout.write(formatLedgerReport(report));
  return report.problems.length === 0 ? 0 : 1;
});
