// --profile (phase profiles): each hot door on its own process under the CPU
// profiler, counted from the end of its warm-up to the end of its run (bench/profile.ts), beside the
// bare baselines' doors. Each profile is kept for Chrome DevTools' Performance panel (or speedscope):
// bench/profiles/<door>.cpuprofile.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { run, type Scenario, settle } from '../load.js';
import { log, phase } from '../log.js';
import { BASELINE_READY, SERVICE_READY, startProcess, stopProcess } from '../processes.js';
import { type ProfileSummary, summariseProfile } from '../profile.js';
import type { Bench } from '../services.js';

/** The doors --profile profiles, by scenario name: the service's and, to set beside them, the bare baselines'. */
const PROFILED_DOORS = [
  'baseline-lookup-customer',
  'baseline-record-customer-payment',
  'baseline-list-transactions-1-day',
  'rest-lookup-customer',
  'graphql-lookup-customer',
  'redis-rest-lookup-customer',
  'rest-record-customer-payment',
  'rest-list-transactions-1-day',
  'rest-list-transactions-10-000-rows',
] as const;

export function profileDoors(bench: Bench, scenarios: readonly Scenario[]): Promise<Record<string, ProfileSummary>> {
  return phase('profiles', async () => {
    const summaries: Record<string, ProfileSummary> = {};
    for (const name of PROFILED_DOORS) {
      const scenario = scenarios.find((candidate) => candidate.name === name);
      if (!scenario) continue;
      const summary = await profileDoor(bench, scenario);
      summaries[name] = summary;
      log(
        `profile of ${scenario.label}: ${summary.busyMsPerRequest} ms of main-thread CPU per request; ${summary.byOwner
          .slice(0, 8)
          .map((share) => `${share.name} ${share.percent}%`)
          .join(', ')}`,
      );
    }
    return summaries;
  });
}

/** The profiled process's environment: the bare code's, or the service's, counting its limits in Redis for a Redis door. */
function environmentOf(services: Bench['services'], scenario: Scenario): Record<string, string> {
  if (scenario.target === 'baseline') return services.baselineEnvironment;
  const inRedis: Record<string, string> = scenario.target === 'redis' ? { REDIS_URL: services.redisUrl } : {};
  return services.serviceEnvironment(`profile-${scenario.name}`, inRedis);
}

async function profileDoor(bench: Bench, scenario: Scenario): Promise<ProfileSummary> {
  const { name } = scenario;
  const { settings, services } = bench;
  const dir = mkdtempSync(join(os.tmpdir(), 'dfs-profile-'));
  try {
    // The profile's clock starts with the process: the span is measured from its spawning.
    const spawnedAt = performance.now();
    const { child, port } = await startProcess(
      settings,
      `${scenario.target} (profile of ${name})`,
      scenario.target === 'baseline' ? 'bench/baseline-server.ts' : 'src/main.ts',
      environmentOf(services, scenario),
      scenario.target === 'baseline' ? BASELINE_READY : SERVICE_READY,
      undefined,
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=500'],
    );
    await settle(bench, port);
    if (settings.warmup > 0) await run({ ...scenario.options(port), duration: settings.warmup });
    await settle(bench, port);
    const fromMs = performance.now() - spawnedAt;
    const result = await run(scenario.options(port));
    const toMs = performance.now() - spawnedAt;
    await stopProcess(child); // the profile is written as the process exits
    const file = readdirSync(dir).find((entry) => entry.endsWith('.cpuprofile'));
    if (!file) throw new Error(`the profiled service of ${name} wrote no .cpuprofile`);
    const summary = summariseProfile(join(dir, file), result.requests.total, { fromMs, toMs });
    mkdirSync(join(settings.outDir, 'profiles'), { recursive: true });
    copyFileSync(join(dir, file), join(settings.outDir, 'profiles', `${name}.cpuprofile`));
    return summary;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
