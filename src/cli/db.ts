// npm run db:migrate | db:rollback [-- --all] | db:seed | db:distribute
// built (npm run build): node dist/src/cli/db.js migrate | rollback [--all] | seed | distribute
import { distributeTables } from '../db/distribution.js';
import { migrateLatest, rollback } from '../db/migrate.js';
import { describeDatabase } from '../db/open.js';
import { seedDemoData } from '../fixtures/demo.js';
import { readArgs, runCli, UsageError } from './run.js';

const USAGE = `usage: npm run db:migrate | db:rollback [-- --all] | db:seed | db:distribute
       node dist/src/cli/db.js migrate | rollback [--all] | seed | distribute      (built: npm run build)`;
const COMMANDS = ['migrate', 'rollback', 'seed', 'distribute'] as const;
type Command = (typeof COMMANDS)[number];
const isCommand = (word: string | undefined): word is Command => COMMANDS.includes(word as Command);

await runCli(
  USAGE,
  () => {
    const { values, positionals } = readArgs({ options: { all: { type: 'boolean' } }, allowPositionals: true });
    const [command, ...extra] = positionals;
    if (!isCommand(command)) throw new UsageError(`unknown command ${command ?? '(none)'}`);
    if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
    if (values.all && command !== 'rollback') throw new UsageError('--all goes with rollback only');
    return { command, all: values.all ?? false };
  },
  async (db, config, { command, all }) => {
    process.stdout.write(`database: ${describeDatabase(config)}\n`);
    if (command === 'migrate') {
      const applied = await migrateLatest(db);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
    } else if (command === 'rollback') {
      const undone = await rollback(db, all);
      process.stdout.write(undone.length ? `rolled back: ${undone.join(', ')}\n` : 'nothing to roll back\n');
    } else if (command === 'distribute') {
      // On Citus only (decisions.md 48): elsewhere there is nothing to distribute, and that is not an error.
      const placed = await distributeTables(db);
      if (!placed) process.stdout.write('citus is not installed in this database: nothing to distribute\n');
      else {
        process.stdout.write(`reference tables: ${placed.reference.join(', ') || 'none new'}\n`);
        process.stdout.write(`distributed by partner_id: ${placed.distributed.join(', ') || 'none new'}\n`);
        if (placed.placedBefore.length) process.stdout.write(`placed before: ${placed.placedBefore.join(', ')}\n`);
      }
    } else {
      await seedDemoData(db, { production: config.production });
      process.stdout.write('demo data loaded\n');
    }
  },
);
