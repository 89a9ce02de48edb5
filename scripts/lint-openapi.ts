// npm run lint:openapi: openapi.json against Redocly's recommended rules (redocly.yaml), failing on a
// warning as on an error: the document is held to zero of both. Redocly is told to send no usage data
// and not to look for a newer version: this machine reaches only the npm registry.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Report {
  version: string;
  totals: { errors: number; warnings: number };
  problems: Array<{ ruleId: string; severity: string; message: string; location: Array<{ pointer?: string }> }>;
}

function lint(): string {
  try {
    return execFileSync(
      `${ROOT}node_modules/.bin/redocly`,
      ['lint', 'openapi.json', '--format=json', '--max-problems=1000'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
  } catch (error) {
    // Redocly exits 1 when it found errors; its report is on stdout all the same.
    const stdout = (error as { stdout?: string }).stdout;
    if (!stdout) throw error;
    return stdout;
  }
}

const report = JSON.parse(lint()) as Report;
for (const problem of report.problems) {
  process.stdout.write(
    `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ''}: ${problem.message}\n`,
  );
}
const { errors, warnings } = report.totals;
process.stdout.write(
  `openapi.json, Redocly ${report.version} recommended rules: ${errors} errors, ${warnings} warnings\n`,
);
process.exitCode = errors + warnings > 0 ? 1 : 0;
