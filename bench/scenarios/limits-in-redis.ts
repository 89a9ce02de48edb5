// Phase limitsInRedis: the lookups with the limits counted in Redis, against the
// Postgres-counted ones of the same turns (both measured in the lookups' turns). Its process stops
// here, before the webhooks: every service process runs a webhook worker on this database, and a
// production one claims the phase's deliveries and refuses their http:// receiver. (Not measured when
// --only left the REST lookups out.)
import type { Measured } from '../load.js';
import { log, phase, round } from '../log.js';
import { procStatus, stopProcess } from '../processes.js';
import type { Bench } from '../services.js';

export interface LimitsInRedis {
  vmHwmBytes: number | null;
  store: string;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  inPostgresRequestsPerSecond: number;
  ratio: number | null;
}

export async function limitsInRedis(bench: Bench, results: readonly Measured[]): Promise<LimitsInRedis | null> {
  const inRedis = results.find((result) => result.name === 'redis-rest-lookup-customer');
  const inPostgres = results.find((result) => result.name === 'rest-lookup-customer');
  const { redisCounted, answering } = bench.services;
  const figures = await phase('limitsInRedis', async () => {
    try {
      if (!inRedis || !inPostgres) return null;
      const readiness = (await (await fetch(`http://127.0.0.1:${answering.redis.port}/readyz`)).json()) as {
        rateLimitStore?: string;
      };
      return {
        vmHwmBytes: procStatus(redisCounted.pid as number, 'VmHWM'),
        store: readiness.rateLimitStore ?? 'unknown',
        requestsPerSecond: inRedis.requestsPerSecond,
        p99Ms: inRedis.latencyMs.p99,
        non2xx: inRedis.non2xx,
        inPostgresRequestsPerSecond: inPostgres.requestsPerSecond,
        ratio: inPostgres.requestsPerSecond ? round(inRedis.requestsPerSecond / inPostgres.requestsPerSecond, 3) : null,
      };
    } finally {
      await stopProcess(redisCounted);
    }
  });
  if (figures)
    log(
      `REST lookup-customer with the limits in Redis (${figures.store}): ${figures.requestsPerSecond}/s against ${figures.inPostgresRequestsPerSecond}/s in Postgres in the same turns (×${figures.ratio})`,
    );
  return figures;
}
