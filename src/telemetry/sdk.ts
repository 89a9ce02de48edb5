// The OpenTelemetry SDK of the service: one trace per request, from the HTTP server span through the
// express route, the GraphQL operation and its resolvers to every SQL statement. Started by
// preload.ts before the service's modules load (the instrumentations patch them as they load), or by
// a test with its own span processor (an in-memory exporter).
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { loggedPath, PROBE_PATHS, queryNamesOnly } from '../kernel/requestPath.js';
import { logDiagnostics } from './diagnostics.js';

export interface TracingOptions {
  /**
   * Where finished spans go. Absent: as the SDK reads the environment, by default batched to the OTLP
   * endpoint of OTEL_EXPORTER_OTLP_ENDPOINT over http/protobuf (OTEL_EXPORTER_OTLP_PROTOCOL,
   * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_* ... as the OpenTelemetry spec says).
   */
  spanProcessors?: SpanProcessor[];
}

export interface Tracing {
  /** Flushes the spans not yet exported and removes the instrumentations' patches. */
  shutdown(): Promise<void>;
}

function instrumentations() {
  return [
    new HttpInstrumentation({
      // Only the service's own door: the OTLP exporter's own posts and the webhook worker's (which
      // continues its own trace, modules/webhooks/worker.ts) make no HTTP client spans.
      disableOutgoingRequestInstrumentation: true,
      // Probes and scrapes make no trace: many a minute, worth nothing to follow.
      ignoreIncomingRequestHook: (request) => PROBE_PATHS.has(loggedPath(request.url ?? '')),
      // What the request's log line may say of its URL, no more: the query string carries keys and
      // locators (an IMEI, a phone number), so only its parameters' names are kept, and a credential
      // written into the path is masked (src/kernel/requestPath.ts). These override the instrumentation's own.
      startIncomingSpanHook: (request) => {
        const url = request.url ?? '/';
        const query = queryNamesOnly(url);
        return { 'url.path': loggedPath(url), ...(query === null ? {} : { 'url.query': query }) };
      },
    }),
    new ExpressInstrumentation({
      // Route handlers only: a span per middleware (helmet, cors, body parsers, the request id) or
      // router would outnumber the work.
      ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER],
      // A route's span is named after its path, as its log line's route is: "GET /v1/lookup-customer.php".
      spanNameHook: ({ request, route, layerType }, defaultName) =>
        layerType === ExpressLayerType.REQUEST_HANDLER && route
          ? `${(request as { method?: string }).method ?? ''} ${route}`.trim()
          : defaultName,
    }),
    new GraphQLInstrumentation({
      // A span per resolver of the root fields (the lookups, the payment mutation) and of their
      // answers' fields (an order, its payments): deeper resolvers (a device's model, an amount's
      // formatting) run inside their nearest traced ancestor's span, so their SQL spans land there.
      // Plain property reads make no span; the document is recorded without its literal values.
      ignoreTrivialResolveSpans: true,
      depth: 2,
      mergeItems: true,
      allowValues: false,
    }),
    new PgInstrumentation({
      // The statement text only (placeholders, never the bound values) and no span outside a trace.
      enhancedDatabaseReporting: false,
      requireParentSpan: true,
    }),
  ];
}

export function startTracing(options: TracingOptions = {}): Tracing {
  // The SDK's diagnostics go to the service's JSON log (src/telemetry/diagnostics.ts), from the first:
  // the instrumentations' constructors already write some. NodeSDK's constructor installs its console
  // logger (text on stdout) when it sees OTEL_LOG_LEVEL, so the variable is hidden from it while it runs.
  logDiagnostics(process.env);
  const otelLogLevel = process.env.OTEL_LOG_LEVEL;
  delete process.env.OTEL_LOG_LEVEL;
  try {
    return startSdk(options);
  } finally {
    if (otelLogLevel !== undefined) process.env.OTEL_LOG_LEVEL = otelLogLevel;
  }
}

function startSdk(options: TracingOptions): Tracing {
  const sdk = new NodeSDK({
    // The service's name unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says another.
    resource: resourceFromAttributes({ 'service.name': 'device-financing-service' }),
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    instrumentations: instrumentations(),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
