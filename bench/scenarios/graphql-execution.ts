// Phase graphqlExecution: GraphQL execution of a 5,000-row page (bench/graphql-execution.ts:
// execution only, the page's SQL excluded), graphql-js against jit, in a process of its own as the
// service runs (compiled, NODE_ENV=production: graphql-js reads it when it loads) on this run's database.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { GraphqlExecutionFigures } from '../graphql-execution.js';
import { log, phase } from '../log.js';
import { compiled } from '../processes.js';
import type { Bench } from '../services.js';
import { ROOT } from '../settings.js';

/** The figures as results.json records them, and the target's summary of them. */
export interface GraphqlExecution {
  figures: GraphqlExecutionFigures;
  cpuMs: number;
  executor: string;
}

export async function graphqlExecution(bench: Bench): Promise<GraphqlExecution> {
  const { fromSource, serviceV8Flags } = bench.settings;
  const figures = await phase('graphqlExecution', async () => {
    const out = mkdtempSync(join(os.tmpdir(), 'dfs-graphql-execution-'));
    try {
      const entry = 'bench/graphql-execution.ts';
      const script = fromSource ? ['--import', 'tsx', entry] : [compiled(entry)];
      await new Promise<void>((done, reject) =>
        execFile(
          process.execPath,
          [
            ...serviceV8Flags,
            ...script,
            '--database-url',
            bench.database.url,
            '--partner-key',
            bench.workload.partnerKey,
            '--out',
            out,
            '--runs',
            String(bench.settings.graphqlExecution.runs),
            '--warmup',
            String(bench.settings.graphqlExecution.warmup),
          ],
          { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production' } },
          (error, _stdout, stderr) =>
            error ? reject(new Error(`bench/graphql-execution.ts failed: ${stderr || error.message}`)) : done(),
        ),
      );
      return JSON.parse(readFileSync(join(out, 'graphql-execution.json'), 'utf8')) as GraphqlExecutionFigures;
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
  const cpuMs = figures.executors.jit.cpuMs.median;
  const graphqlJs = figures.executors['graphql-js'].cpuMs.median;
  log(
    `GraphQL execution of a ${figures.rows}-row page (CPU, median of ${figures.runs}): jit ${cpuMs} ms, graphql-js ${graphqlJs} ms`,
  );
  return { figures, cpuMs, executor: `jit; graphql-js ${graphqlJs} ms` };
}
