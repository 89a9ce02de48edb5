// npm run db:migrate | db:rollback [-- --all] | db:seed
import { describeDatabase, openDatabase } from '../db/open.js';
import { migrateLatest, rollback } from '../db/migrate.js';
import { SeedRefused, seedDemoData } from '../db/seed.js';
import { loadConfigOrExit } from './fail.js';

const USAGE = 'usage: tsx src/cli/db.ts migrate | rollback [--all] | seed';

async function run(command: string | undefined, flags: string[]): Promise<number> {
  if (command !== 'migrate' && command !== 'rollback' && command !== 'seed') {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  }
  const config = loadConfigOrExit();
  const db = openDatabase(config);
  try {
    process.stdout.write(`database: ${describeDatabase(config)}\n`);
    if (command === 'migrate') {
      const applied = await migrateLatest(db);
      process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'already up to date\n');
    } else if (command === 'rollback') {
      const undone = await rollback(db, flags.includes('--all'));
      process.stdout.write(undone.length ? `rolled back: ${undone.join(', ')}\n` : 'nothing to roll back\n');
    } else {
      await seedDemoData(db, { production: config.production });
      process.stdout.write('demo data loaded\n');
    }
    return 0;
  } catch (error) {
    if (error instanceof SeedRefused) {
      process.stderr.write(`refused: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

process.exitCode = await run(process.argv[2], process.argv.slice(3));
