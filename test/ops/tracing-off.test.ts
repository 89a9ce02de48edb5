// Tracing off, as the service runs without OTEL_EXPORTER_OTLP_ENDPOINT: the preload registers and
// patches nothing (shown in child processes started as npm start starts the service, with and without
// the endpoint), and in a service with no SDK no span is made: no trace id in the request's log line,
// an incoming traceparent is neither followed nor stored with the payment's event, and the webhook POST
// carries none.
import { execFile } from 'node:child_process';
import http from 'node:http';
import { promisify } from 'node:util';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../src/app.js';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import type { JobLoop } from '../../src/jobs/loop.js';
import { startWebhookJobs } from '../../src/jobs/tasks.js';
import { createLogger } from '../../src/kernel/logger.js';
import { activeTraceparent, tracingStarted } from '../../src/kernel/tracing.js';
import { serviceLayers } from '../../src/serviceLayers.js';
import { useSeededService } from '../support/fixtures.js';
import { type Receiver, startReceiver } from '../support/receiver.js';
import { startTestService, type TestService } from '../support/service.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** What the preload left behind in a process started as npm start starts the service. */
async function afterPreload(env: Record<string, string>): Promise<{ sdk: boolean; httpPatched: boolean }> {
  const probe = [
    "import http from 'node:http';",
    "import { tracingStarted } from './src/kernel/tracing.ts';",
    "const httpPatched = typeof http.Server.prototype.emit.__wrapped === 'boolean';",
    'console.log(JSON.stringify({ sdk: tracingStarted(), httpPatched }));',
  ].join('\n');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--import', './src/telemetry/preload.ts', '--input-type=module', '-e', probe],
    { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } },
  );
  return JSON.parse(stdout);
}

describe('the preload', () => {
  it('registers and patches nothing without OTEL_EXPORTER_OTLP_ENDPOINT', async () => {
    expect(await afterPreload({})).toEqual({ sdk: false, httpPatched: false });
  });

  it('starts the SDK and patches before the service loads with it (the check above can see tracing on)', async () => {
    // Nothing is exported: the probe ends before the first batch, and nothing listens there anyway.
    const on = await afterPreload({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
      OTEL_BSP_SCHEDULE_DELAY: '60000',
    });
    expect(on).toEqual({ sdk: true, httpPatched: true });
  });
});

describe('tracing off', () => {
  const fixture = useSeededService();
  const logText: string[] = [];
  let service: TestService;
  let receiver: Receiver;
  let worker: JobLoop | undefined;
  beforeAll(async () => {
    service = await startTestService(fixture.database.db, {
      logger: createLogger('info', { write: (line: string) => void logText.push(line) }),
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await service?.close();
  });

  it('has no SDK, no patched module, no active span', () => {
    expect(tracingStarted()).toBe(false);
    expect((http.Server.prototype.emit as { __wrapped?: boolean }).__wrapped).toBeUndefined();
    expect(trace.getActiveSpan()).toBeUndefined();
    expect(activeTraceparent()).toBeNull();
  });

  it('puts no tracing plugin in the GraphQL pipeline: its layer is there, empty', () => {
    const tracing = serviceLayers({} as AppDeps).find((layer) => layer.name === 'tracing');
    expect(tracing?.graphqlPlugins).toEqual([]);
  });

  it('writes no trace id in the log line, stores no traceparent, and sends none with the webhook', async () => {
    const endpoint = await service.graphql(
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } } }`,
      { 'x-api-key': 'demo-partner-key' },
      { input: { url: receiver.url('/untraced'), eventTypes: ['PAYMENT_RECORDED'] } },
    );
    expect(endpoint.body.data.createWebhookEndpoint.endpoint.id).toBeTruthy();
    const response = await service.request(
      `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=18.00&currency=USD`,
      { headers: { traceparent: TRACEPARENT, 'x-request-id': 'untraced-payment' } },
    );
    expect(response.status).toBe(200);

    const lines = logText
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.msg === 'request');
    const line = lines.find((entry) => entry.requestId === 'untraced-payment');
    expect(line).toMatchObject({ route: '/v1/record-customer-payment.php', status: 200 });
    expect(lines.filter((entry) => 'trace_id' in entry || 'span_id' in entry)).toEqual([]);

    const event = await fixture.database.db('events').where({ type: 'payment.recorded' }).first();
    expect(event.traceparent).toBeNull();

    worker = startWebhookJobs({
      db: fixture.database.db,
      logger: createLogger('silent'),
      now: () => new Date(),
      production: false,
      settings: { scheduleMs: [30], jitter: 0, pollMs: 20, timeoutMs: 2000 },
    });
    for (let tries = 0; tries < 200 && receiver.received.length === 0; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(receiver.received[0]?.path).toBe('/untraced');
    expect(receiver.received[0]?.headers).not.toHaveProperty('traceparent');
  });
});
