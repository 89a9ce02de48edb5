// Tracing on, in this process, with an in-memory exporter: the span trees of a legacy lookup and of
// a legacy payment, from the HTTP server span through the route, the GraphQL operation and its
// resolvers to every SQL statement, all in the trace of the incoming traceparent; no span carries a
// bound value (the IMEI, the key); the request's log line names its trace; and the payment's webhook
// delivery, posted later by the worker to a real receiver, carries a traceparent of the same trace.
//
// The operation's span is graphql-jit's executor's and the resolvers' spans the instrumentation's
// (src/pipeline/graphqlExecutor.ts): the trees below are the ones graphql-js's execute would make.
//
// The SDK is started as src/telemetry/preload.ts starts it, before the service's modules load: they
// are imported below, after it. express is required once from CommonJS first: vitest imports the
// packages by file URL, which import-in-the-middle's hook does not match by name (under node --import
// the service's `import express from 'express'` is matched), and its exports are the same object.
import { createRequire, register } from 'node:module';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/app.js';
import {
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { startTracing } from '../../src/telemetry/sdk.js';
import type { TestDatabase } from '../support/db.js';
import type { Receiver } from '../support/receiver.js';
import type { TestService } from '../support/service.js';

const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
await waitForAllMessagesAcknowledged();
createRequire(import.meta.url)('express');

const { createLogger } = await import('../../src/kernel/logger.js');
const { startWebhookJobs } = await import('../../src/jobs/tasks.js');
const { tracingStarted } = await import('../../src/kernel/tracing.js');
const { serviceLayers } = await import('../../src/serviceLayers.js');
const { createTestDatabase } = await import('../support/db.js');
const { startReceiver } = await import('../support/receiver.js');
const { startTestService } = await import('../support/service.js');

const logText: string[] = [];
const logger = createLogger('info', { write: (line: string) => void logText.push(line) });
const logLines = () =>
  logText
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
const requestLines = () => logLines().filter((line) => line.msg === 'request');

let database: TestDatabase;
let service: TestService;
let receiver: Receiver;
let worker: { stop(): Promise<void> } | undefined;
beforeAll(async () => {
  database = await createTestDatabase();
  service = await startTestService(database.db, { logger });
  receiver = await startReceiver();
});
afterAll(async () => {
  await worker?.stop();
  await receiver?.close();
  await service?.close();
  await database?.destroy();
  await tracing.shutdown();
});

const IMEI = DEMO_DEVICE_IMEI;
/** An incoming W3C traceparent: the caller's trace and span. */
const callerTrace = (traceId: string) => ({
  traceId,
  spanId: 'b7ad6b7169203331',
  header: `00-${traceId}-b7ad6b7169203331-01`,
});

const isSql = (span: ReadableSpan) => /^(pg|pglite)\.query:/.test(span.name);
const spansOf = (traceId: string) =>
  exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);

/**
 * The tree under `root`, one line per span, indented by depth, in start order: SQL spans read "SQL"
 * (pg names a prepared statement's span by its name, PGlite's by its verb) and the transaction's
 * BEGIN/COMMIT and the notify after it (pg only, PGlite runs them outside knex's query events) are
 * left out, so the tree reads the same on both databases.
 */
function treeOf(spans: readonly ReadableSpan[], root: ReadableSpan): string[] {
  const lines: string[] = [];
  const walk = (span: ReadableSpan, depth: number) => {
    const text = String(span.attributes['db.query.text'] ?? '');
    if (isSql(span) && /^(BEGIN|COMMIT|select pg_notify)/.test(text)) return;
    // The pool opening a connection (the key's lookup and the address's failures run at once, so a
    // request may need a second one) is no statement of the request: shown or not by the pool's state.
    if (span.name === 'pg.connect') return;
    lines.push(`${'  '.repeat(depth)}${isSql(span) ? 'SQL' : span.name}`);
    spans
      .filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId)
      .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1])
      .forEach((child) => void walk(child, depth + 1));
  };
  walk(root, 0);
  return lines;
}

const childOf = (parent: ReadableSpan) => (span: ReadableSpan) =>
  span.parentSpanContext?.spanId === parent.spanContext().spanId;

/** Waits for the spans of a request: the server span ends after the answer is sent. */
async function serverSpan(traceId: string): Promise<ReadableSpan> {
  for (let tries = 0; tries < 100; tries++) {
    const found = spansOf(traceId).find((span) => span.kind === SpanKind.SERVER);
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no server span in trace ${traceId}`);
}

/** No attribute of any span of the trace holds one of `secrets`. */
function expectNoneHeld(spans: readonly ReadableSpan[], secrets: readonly string[]) {
  const held = spans.flatMap((span) =>
    Object.entries(span.attributes)
      .filter(([, value]) => secrets.some((secret) => JSON.stringify(value).includes(secret)))
      .map(([name]) => `${span.name}: ${name}`),
  );
  expect(held).toEqual([]);
}

describe('tracing on', () => {
  it('is started in this process, and its layer puts the tracing plugin in the GraphQL pipeline', () => {
    expect(tracingStarted()).toBe(true);
    const tracing = serviceLayers({} as AppDeps).find((layer) => layer.name === 'tracing');
    expect(tracing?.graphqlPlugins).toHaveLength(1);
  });

  it('traces a lookup from the HTTP door to every SQL statement, under the incoming traceparent', async () => {
    const caller = callerTrace('0af7651916cd43dd8448eb211c80319c');
    const response = await service.request(`/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${IMEI}`, {
      headers: { traceparent: caller.header },
    });
    expect(response.status).toBe(200);
    const server = await serverSpan(caller.traceId);
    const spans = spansOf(caller.traceId);

    // The caller's span is the parent of the whole request.
    expect(server.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(server.name).toBe('GET /v1/lookup-customer.php');
    expect(server.attributes).toMatchObject({
      'http.route': '/v1/lookup-customer.php',
      'http.response.status_code': 200,
    });
    expect(treeOf(spans, server)).toEqual([
      'GET /v1/lookup-customer.php', // HTTP server span
      '  GET /v1/lookup-customer.php', // the legacy route (express)
      '    SQL', // the key (on Postgres with the request limits' counts, in the same statement)
      '    graphql.parse',
      '    graphql.validate',
      '    query LookupCustomer', // the route's operation
      '      graphql.resolve customer',
      '        SQL', // every locator rule in one statement
      '        graphql.resolve customer.financeOrder',
      '          SQL', // the orders with their devices
      '          SQL', // the payments
    ]);
    const route = spans.find(childOf(server))!;
    expect(route.attributes).toMatchObject({
      'http.route': '/v1/lookup-customer.php',
      'graphql.operation.name': 'LookupCustomer',
      'graphql.operation.type': 'query',
    });
    // With jit the operation's span is the executor's own (named as the instrumentation names its
    // own), and the resolvers' spans are still the instrumentation's, under it.
    const operation = spans.find((span) => span.name === 'query LookupCustomer')!;
    expect(operation.attributes).toMatchObject({ 'graphql.operation.name': 'LookupCustomer' });
    expect(operation.attributes['graphql.executor']).toBe('jit');
    expect(service.executorStats.jitExecutions).toBeGreaterThan(0);

    // Statements with placeholders, never their values; the query string keeps its names only.
    const statements = spans.filter(isSql).map((span) => String(span.attributes['db.query.text']));
    expect(statements).toHaveLength(4);
    expect(statements.every((sql) => /\$1\b/.test(sql))).toBe(true);
    expect(server.attributes['url.query']).toBe('key=&customerLocator=');
    expectNoneHeld(spans, [IMEI, 'demo-partner-key']);

    // The request's log line names its trace and its server span, as OpenTelemetry's log conventions name them.
    const line = requestLines().find((entry) => entry.path === '/v1/lookup-customer.php');
    expect(line).toMatchObject({ trace_id: caller.traceId, span_id: server.spanContext().spanId, trace_flags: '01' });
    expect(line).not.toHaveProperty('traceId');
  });

  it("traces a payment, and its webhook delivery's POST continues the payment's trace", async () => {
    const endpoint = await service.graphql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
      { 'x-api-key': 'demo-partner-key' },
      { input: { url: receiver.url('/payments'), eventTypes: ['PAYMENT_RECORDED'] } },
    );
    expect(endpoint.body.data.createWebhookEndpoint.endpoint.id).toBeTruthy();

    const caller = callerTrace('4bf92f3577b34da6a3ce929d0e0e4736');
    const response = await service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=18.00&currency=USD`,
      { headers: { traceparent: caller.header } },
    );
    expect(response.status).toBe(200);
    const server = await serverSpan(caller.traceId);
    expect(server.parentSpanContext?.spanId).toBe(caller.spanId);
    expect(treeOf(spansOf(caller.traceId), server)).toEqual([
      'GET /v1/record-customer-payment.php',
      '  GET /v1/record-customer-payment.php',
      '    SQL', // the key (on Postgres with the request limits' counts, in the same statement)
      '    graphql.parse',
      '    graphql.validate',
      '    mutation RecordCustomerPayment',
      '      graphql.resolve recordInStorePayment', // the payment, in two statements:
      '        SQL', // the read: the merchant and the clerk, the order, the Idempotency-Key's record
      '        SQL', // the write: the balance, the payment, its ledger and its events (the trigger enqueues the deliveries)
      '        graphql.resolve recordInStorePayment.remainingBalance',
      '        graphql.resolve recordInStorePayment.payment',
    ]);
    const resolver = spansOf(caller.traceId).find((span) => span.name === 'graphql.resolve recordInStorePayment')!;
    const eventInsert = spansOf(caller.traceId).find((span) =>
      String(span.attributes['db.query.text']).includes('insert into events'),
    )!;
    expect(eventInsert.parentSpanContext?.spanId).toBe(resolver.spanContext().spanId);
    expectNoneHeld(spansOf(caller.traceId), ['demo-retail-key', 'golden']);

    // The event kept the traceparent of the span that wrote it.
    const event = await database.db('events').where({ type: 'payment.recorded' }).orderBy('sequence', 'desc').first();
    expect(event.traceparent).toBe(`00-${caller.traceId}-${resolver.spanContext().spanId}-01`);

    // The worker posts the delivery later, in a span of the same trace, and sends it on.
    worker = startWebhookJobs({
      db: database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000 },
    });
    // The span ends once the receiver's answer is read, after the receiver has recorded the request.
    const deliverySpan = () => spansOf(caller.traceId).find((span) => span.name === 'webhook delivery');
    for (let tries = 0; tries < 200 && !deliverySpan(); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const [post] = receiver.received;
    expect(post?.path).toBe('/payments');
    const delivery = deliverySpan();
    expect(delivery?.kind).toBe(SpanKind.CLIENT);
    expect(delivery?.parentSpanContext?.spanId).toBe(resolver.spanContext().spanId);
    expect(delivery?.attributes).toMatchObject({ 'http.response.status_code': 200, 'webhook.delivered': true });
    expect(post?.headers.traceparent).toBe(`00-${caller.traceId}-${delivery?.spanContext().spanId}-01`);
  });

  it("keeps a device's credential out of every span: its issue and its check-ins", async () => {
    const issueTrace = callerTrace('5cf92f3577b34da6a3ce929d0e0e4737');
    const device = await service.graphql(`query { device(tag: "${DEMO_DEVICE_TAG}") { id } }`, {
      'x-api-key': 'demo-operator-key',
    });
    const issued = await service.graphql(
      'mutation($id: ID!) { issueDeviceCredential(deviceId: $id) { credential } }',
      { 'x-api-key': 'demo-operator-key', traceparent: issueTrace.header },
      { id: device.body.data.device.id },
    );
    const credential: string = issued.body.data.issueDeviceCredential.credential;
    expect(credential).toMatch(/^dvc_/);
    const checkinTrace = callerTrace('6df92f3577b34da6a3ce929d0e0e4738');
    const response = await service.request('/devices/v1/checkin', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${credential}`,
        traceparent: checkinTrace.header,
      },
      body: JSON.stringify({
        imei: IMEI,
        simNumber: '8901000000000000001',
        appVersion: '1.0.0',
        nonce: 'tracing-checkin-nonce-1',
      }),
    });
    expect(response.status).toBe(200);
    await serverSpan(issueTrace.traceId);
    await serverSpan(checkinTrace.traceId);
    const spans = [...spansOf(issueTrace.traceId), ...spansOf(checkinTrace.traceId)];
    expect(spans.filter(isSql).length).toBeGreaterThan(0);
    // The credential, and its body without the prefix (a span might hold it cut or re-encoded).
    expectNoneHeld(spans, [credential, credential.slice('dvc_'.length, 'dvc_'.length + 16)]);
  });

  it('starts a new trace for a request without a traceparent, and names it in the log line', async () => {
    const response = await service.request(`/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${IMEI}`, {
      headers: { 'x-request-id': 'traced-without-parent' },
    });
    expect(response.status).toBe(200);
    const line = requestLines().find((entry) => entry.requestId === 'traced-without-parent');
    expect(line?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    const server = await serverSpan(line.trace_id);
    expect(server.parentSpanContext).toBeUndefined();
    expect(line.span_id).toBe(server.spanContext().spanId);
  });

  it('names the trace and the span on every line logged inside a request, not only its request line', async () => {
    const caller = callerTrace('7ef92f3577b34da6a3ce929d0e0e4739');
    const partner = await database.db('partners').where({ name: 'Demo Retail' }).first();
    const created = await service.graphql(
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { apiKey { id } } }',
      { 'x-api-key': 'demo-operator-key', traceparent: caller.header },
      { input: { kind: 'RETAIL', partnerId: String(partner.id), label: 'traced' } },
    );
    const id = created.body.data.createApiKey.apiKey.id;
    await serverSpan(caller.traceId);
    // Written by the resolver (src/modules/apiKeys/resolvers.ts), inside the resolver's span.
    const line = logLines().find((entry) => entry.msg === 'api key created' && String(entry.apiKeyId) === id);
    const resolver = spansOf(caller.traceId).find((span) => span.name === 'graphql.resolve createApiKey');
    expect(resolver).toBeDefined();
    expect(line).toMatchObject({
      trace_id: caller.traceId,
      span_id: resolver!.spanContext().spanId,
      trace_flags: '01',
    });
    // And a line written outside any span has none.
    logger.info('outside any request');
    expect(logLines().find((entry) => entry.msg === 'outside any request')).not.toHaveProperty('trace_id');
  });
});
