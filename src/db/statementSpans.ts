// SQL spans of the embedded database. On Postgres the pg instrumentation makes a span of every
// statement; PGlite runs in this process, without pg, so its statements are followed through knex's
// own query events instead: one span per statement, its text with placeholders ($1 ...) and never the
// bound values, under the span that sent it. Attached only when tracing was started (createDb).
import { type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Knex } from 'knex';
import { activeSpan } from '../kernel/tracing.js';

interface QueryEvent {
  sql: string;
  __knexQueryUid: string;
}

/** The statement's verb (SELECT, INSERT, WITH ...), as the pg instrumentation names its spans. */
const verbOf = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';

export function traceEmbeddedStatements(db: Knex): void {
  const tracer = trace.getTracer('device-financing-service/pglite');
  const open = new Map<string, Span>();
  const end = (query: QueryEvent, error?: unknown) => {
    const span = open.get(query.__knexQueryUid);
    if (!span) return;
    open.delete(query.__knexQueryUid);
    if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as Error)?.message) });
    span.end();
  };
  db.on('query', (query: QueryEvent) => {
    // No statement span outside a trace, as the pg instrumentation's requireParentSpan. The active
    // span may have ended (a field resolved inside its traced ancestor's span): it is still the parent.
    if (!activeSpan()) return;
    const span = tracer.startSpan(`pglite.query:${verbOf(query.sql)}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'postgresql', 'db.query.text': query.sql },
    });
    open.set(query.__knexQueryUid, span);
  });
  db.on('query-response', (_response: unknown, query: QueryEvent) => end(query));
  db.on('query-error', (error: unknown, query: QueryEvent) => end(query, error));
}
