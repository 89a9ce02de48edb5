// Structured JSON logs, one object a line (docs/decisions.md, 28): ISO 8601 times, level names, and
// with tracing on the trace context under OpenTelemetry's names. Secrets never reach a log line:
// request lines carry the path without its query string (the partner key travels there), and these
// paths are redacted wherever they appear.
import pino, { type Logger } from 'pino';
import type { LogLevel } from './config.js';
import { activeSpan } from './tracing.js';

export const REDACTED_PATHS = [
  'key',
  'apiKey',
  'token',
  'access_token',
  'authorization',
  '*.key',
  '*.apiKey',
  '*.token',
  '*.access_token',
  '*.authorization',
  'headers.authorization',
  'headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  // What the auth module calls its secrets: a created key's secret, an access token, the signing secret.
  'secret',
  'accessToken',
  'signingSecret',
  '*.secret',
  '*.accessToken',
  '*.signingSecret',
];

/** What a log line written inside a span says of it: OpenTelemetry's fields for logs outside OTLP. */
export interface LoggedTraceContext {
  trace_id: string;
  span_id: string;
  /** Two hex digits: "01" when the trace is sampled. */
  trace_flags: string;
}

/** The active span's trace context, when tracing is on and a span is active (the request line reads it early). */
export function loggedTraceContext(): LoggedTraceContext | undefined {
  const span = activeSpan();
  if (!span) return undefined;
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: traceFlags.toString(16).padStart(2, '0') };
}

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // A line's own fields win over these (pino merges the mixin's first): the request line names its request's span.
      mixin: () => loggedTraceContext() ?? {},
    },
    destination,
  );
}
