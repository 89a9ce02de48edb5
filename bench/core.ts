// The bench's "core" list of layers (bench/core-server.ts, and bench/test/bench-core.test.ts which holds it to
// the service's answers): the service's own doors (the REST shim over the GraphQL pipeline, /graphql,
// the context and its loaders, the resolvers and domain modules, the same statements) with none of the
// layers the entry adds for operating it (src/serviceLayers.ts: no request log, request metrics,
// security headers, query-string limit, /healthz /readyz /metrics, or GraphQL cost, list-ceiling and
// tracing plugins). Its one layer says where the request limits are counted: this process's memory,
// whatever REDIS_URL says, so the measure has no shared store's round trip in it.
import type { AppLayer } from '../src/app.js';
import { memoryRateLimitStore } from '../src/pipeline/rateLimits/rateLimitStore.js';

export const CORE_LAYERS: readonly AppLayer[] = [{ rateLimitStore: async () => memoryRateLimitStore() }];
