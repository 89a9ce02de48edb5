// npm run ledger:check: verifies the ledger of the configured database (DATABASE_URL, or the
// embedded one under DATA_DIR); exits 1 with a report when anything is off.
import { openDatabase } from '../db/open.js';
import { checkLedger, formatLedgerReport } from '../ledger/check.js';
import { loadConfigOrExit } from './fail.js';

const db = openDatabase(loadConfigOrExit());
try {
  const report = await checkLedger(db);
  process.stdout.write(formatLedgerReport(report));
  process.exitCode = report.problems.length === 0 ? 0 : 1;
} finally {
  await db.destroy();
}
