// npm run db:migrate | db:rollback [-- --all] | db:seed
import { migrateLatest, rollback } from '../db/migrate.js';
import { describeDatabase } from '../db/open.js';
import { seedDemoData } from '../fixtures/demo.js';
import { runCli, UsageError } from './run.js';

const USAGE = 'usage: tsx src/cli/db.ts migrate | rollback [--all] | seed';
const COMMANDS = ['migrate', 'rollback', 'seed'] as const;

await runCli(
  USAGE,
  () => {
    const command = process.argv[2];
    if (!COMMANDS.includes(command as (typeof COMMANDS)[number])) throw new UsageError(`unknown command ${command ?? '(none)'}`);
    return { command: command as (typeof COMMANDS)[number], all: process.argv.slice(3).includes('--all') };
  },
  async (db, config, { command, all }) => {
    process.stdout.write(`database: ${describeDatabase(config)}\n`);
    if (command === 'migrate') {
      const applied = await migrateLatest(db);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
    } else if (command === 'rollback') {
      const undone = await rollback(db, all);
      process.stdout.write(undone.length ? `rolled back: ${undone.join(', ')}\n` : 'nothing to roll back\n');
    } else {
      await seedDemoData(db, { production: config.production });
      process.stdout.write('demo data loaded\n');
    }
  },
);
