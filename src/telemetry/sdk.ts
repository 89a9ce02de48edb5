// The OpenTelemetry SDK of the service: one trace per request, from the HTTP server span through the
// express route, the GraphQL operation and its resolvers to every SQL statement. Started by
// preload.ts before the service's modules load (the instrumentations patch them as they load), or by
// a test with its own span processor (an in-memory exporter).
//
// Traces only, built from the SDK's parts rather than @opentelemetry/sdk-node, which installs every
// exporter of traces, metrics and logs (gRPC, Zipkin, Prometheus...) for about 30 MB the service never
// loads (docs/decisions.md, section 31). The parts are those sdk-node assembles for traces, so the
// standard variables mean what they meant.
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { GraphQLInstrumentation } from '@opentelemetry/instrumentation-graphql';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import {
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { loggedPath, PROBE_PATHS, queryNamesOnly } from '../kernel/requestPath.js';
import { type OtlpProtocol, otlpProtocol } from '../kernel/tracingSettings.js';
import { logDiagnostics } from './diagnostics.js';

export interface TracingOptions {
  /**
   * Where finished spans go. Absent: batched (OTEL_BSP_*) to the OTLP endpoint of
   * OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT, with OTEL_EXPORTER_OTLP_HEADERS ...) over HTTP,
   * encoded as kernel/tracingSettings.ts otlpProtocol says; sampled as OTEL_TRACES_SAMPLER says, as the OpenTelemetry spec says.
   */
  spanProcessors?: SpanProcessor[];
}

function otlpExporter(protocol: OtlpProtocol): SpanExporter {
  // Each reads its endpoint, headers, timeout and compression from the standard variables itself.
  return protocol === 'http/json' ? new OtlpJsonTraceExporter() : new OtlpProtobufTraceExporter();
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

/**
 * Starts tracing: the provider registered globally (with async-hooks context and W3C trace-context and
 * baggage propagation), then the instrumentations.
 */
export function startTracing(options: TracingOptions = {}): Tracing {
  // The SDK's diagnostics go to the service's JSON log (src/telemetry/diagnostics.ts), from the first:
  // the instrumentations' constructors already write some.
  logDiagnostics(process.env);
  // The service's name unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says another: the
  // detected attributes win, as with sdk-node's default detectors.
  const resource = resourceFromAttributes({ 'service.name': 'device-financing-service' }).merge(
    detectResources({ detectors: [envDetector, processDetector, hostDetector] }),
  );
  // A protocol the service does not export in stops the process at its configuration, right after
  // the preload (loadConfig), with one line: nothing is exported before.
  const spanProcessors = options.spanProcessors ?? [
    new BatchSpanProcessor(otlpExporter(otlpProtocol() ?? 'http/protobuf')),
  ];
  // The sampler and span limits come from OTEL_TRACES_SAMPLER (and _ARG) and OTEL_SPAN_* by default.
  const provider = new NodeTracerProvider({ resource, spanProcessors });
  provider.register();
  const unregister = registerInstrumentations({ instrumentations: instrumentations() });
  return {
    shutdown: async () => {
      unregister();
      await provider.shutdown();
    },
  };
}
