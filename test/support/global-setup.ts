// Says which database the suite runs on, so a log of the run shows it.
export default function setup(): void {
  const url = process.env.TEST_DATABASE_URL;
  const where = url ? `Postgres (${new URL(url).host}), a fresh database per test file` : 'embedded PGlite, in memory, one per test file';
  process.stdout.write(`\n[test database] ${where}\n`);
}
