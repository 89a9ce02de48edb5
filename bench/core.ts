// The bench's lists of layers for bench/core-server.ts (BENCH_LAYERS): the "core" (bench/test/bench-core.test.ts
// holds it to the service's answers): the service's own doors (the REST shim over the GraphQL pipeline,
// /graphql, the context and its loaders, the resolvers and domain modules, the same statements) with
// none of the layers the entry adds for operating it (src/serviceLayers.ts: no request log, request
// metrics, security headers, query-string limit, /healthz /readyz /metrics, or GraphQL cost,
// list-ceiling and tracing plugins). Its one layer says where the request limits are counted: this
// process's memory, whatever REDIS_URL says, so the measure has no shared store's round trip in it.
// And, for the profile of the layers (scenarios/layers.ts, docs/decisions.md 47), the service's own
// list whole or without one named layer: a layer's cost is what switching it off alone saves.
import type { AppDeps, AppLayer } from '../src/app.js';
import { memoryRateLimitStore } from '../src/pipeline/rateLimits/rateLimitStore.js';
import { type ServiceLayerSettings, serviceLayers } from '../src/serviceLayers.js';

export const CORE_LAYERS: readonly AppLayer[] = [{ rateLimitStore: async () => memoryRateLimitStore() }];

/** The service's layers by name, in their order (src/serviceLayers.ts; bench-core.test.ts holds the two equal). */
export const SERVICE_LAYER_NAMES = [
  'request-log',
  'operations',
  'shared-limits',
  'document-limits',
  'tracing',
] as const;

/** BENCH_LAYERS: `core` (or unset), `service`, or `service-without:<a layer's name>`. */
export function benchLayers(
  spec: string | undefined,
  deps: AppDeps,
  settings: ServiceLayerSettings,
): readonly AppLayer[] {
  if (!spec || spec === 'core') return CORE_LAYERS;
  const service = serviceLayers(deps, settings);
  if (spec === 'service') return service;
  const without = spec.startsWith('service-without:') ? spec.slice('service-without:'.length) : null;
  if (without === null || !service.some((layer) => layer.name === without))
    throw new Error(
      `BENCH_LAYERS is core, service or service-without:<one of ${service.map((layer) => layer.name).join(', ')}>, got "${spec}"`,
    );
  return service.filter((layer) => layer.name !== without);
}
