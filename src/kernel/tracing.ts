// The trace of the work under way, for every layer, through the OpenTelemetry API alone: without the
// SDK (tracing off, src/telemetry/preload.ts) the API is a no-op, there is never an active span, and
// each helper here returns at once, so code that calls them costs nothing more when tracing is off.
import {
  type Attributes,
  context,
  isSpanContextValid,
  ProxyTracerProvider,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

const tracer = () => trace.getTracer('device-financing-service');

/** The provider of a process where no SDK was started: the API's no-op one. */
const NO_TRACING = new ProxyTracerProvider().getDelegate();

/** Whether an OpenTelemetry SDK was started in this process (src/telemetry/sdk.ts). */
export function tracingStarted(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_TRACING;
}

/**
 * The span of the work under way, when tracing is on: resolvers and plugins name what it does. It may
 * have ended (a field resolved inside its traced ancestor's span) and still be the parent of more.
 */
export function activeSpan(): Span | undefined {
  const span = trace.getActiveSpan();
  return span && isSpanContextValid(span.spanContext()) ? span : undefined;
}

/**
 * The W3C traceparent of the active span (null: tracing off or no span): stored with what a request
 * causes later (an event's webhook deliveries), so the later work continues the request's trace.
 */
export function activeTraceparent(): string | null {
  if (!activeSpan()) return null;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** Marks a span failed without an exception (an answer that is a failure: a webhook's 500, no answer). */
export function markFailed(span: Span | undefined, message: string): void {
  span?.setStatus({ code: SpanStatusCode.ERROR, message });
}

function endWith(span: Span, error?: unknown): void {
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : undefined });
  }
  span.end();
}

/**
 * Runs `work` in a client span continuing the trace of `traceparent` (stored when the work was
 * caused), handing it the headers that carry the span on (traceparent, tracestate). With no stored
 * traceparent (tracing was off then, or is off now) it just runs, with no headers.
 */
export async function continuingTrace<T>(
  traceparent: string | null | undefined,
  name: string,
  attributes: Attributes,
  work: (headers: Record<string, string>, span: Span | undefined) => Promise<T>,
): Promise<T> {
  if (!traceparent) return work({}, undefined);
  const parent = propagation.extract(ROOT_CONTEXT, { traceparent });
  const span = tracer().startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
  const active = trace.setSpan(parent, span);
  const headers: Record<string, string> = {};
  propagation.inject(active, headers);
  try {
    const result = await context.with(active, () => work(headers, span));
    endWith(span);
    return result;
  } catch (error) {
    endWith(span, error);
    throw error;
  }
}

/** Runs `work` in a new span, active while it runs (a child of the active one), ended once it settles. */
export function inActiveSpan<T>(name: string, attributes: Attributes, work: () => T | Promise<T>): Promise<T> {
  const span = tracer().startSpan(name, { attributes });
  return context.with(trace.setSpan(context.active(), span), async () => {
    try {
      const result = await work();
      endWith(span);
      return result;
    } catch (error) {
      endWith(span, error);
      throw error;
    }
  });
}

/** Sends the spans not yet exported (main.ts, before the process exits after draining). */
export async function flushTraces(): Promise<void> {
  const provider = trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
  await provider.getDelegate?.().forceFlush?.();
}

/** Runs `work` making no span (building the schema at start: its SDL parses are no request's work). */
export function untraced<T>(work: () => T): T {
  return context.with(suppressTracing(context.active()), work);
}
