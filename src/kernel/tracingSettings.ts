// What the environment says of tracing, read by the telemetry preload before any other module of the
// service loads: so this file imports nothing. A module the preload loads ahead of the instrumentations
// (graphql, through the configuration's trusted-documents manifest) would never be patched by them.

type Env = Record<string, string | undefined>;

/**
 * Tracing is on when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or the traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and OTEL_SDK_DISABLED is not "true". The telemetry preload
 * asks this before anything else loads; everything else in OTEL_* is the SDK's own to read.
 */
export function tracingEnabled(env: Env = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The OTLP encodings over HTTP the service exports spans in, the spec's default first (docs/decisions.md, section 31). */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The variable naming the traces' OTLP protocol, as the OpenTelemetry spec reads them: the signal's own first. */
export const otlpProtocolVariable = (env: Env) =>
  env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';

/**
 * The traces' OTLP protocol (http/protobuf unless set); null for one the service does not export in
 * (grpc: its exporter and gRPC are not installed). loadConfig refuses that while tracing is on.
 */
export function otlpProtocol(env: Env = process.env): OtlpProtocol | null {
  const raw = env[otlpProtocolVariable(env)]?.trim() || 'http/protobuf';
  return (OTLP_PROTOCOLS as readonly string[]).includes(raw) ? (raw as OtlpProtocol) : null;
}
