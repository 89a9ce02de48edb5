// The browser pages in a real browser: Debian's chromium driven by playwright-core, against the whole
// service on a free port over the demo data. Nothing may leave the machine: every request to anything
// but 127.0.0.1 or localhost is aborted, and any such attempt fails the test, as does any console error.
// Without /usr/bin/chromium the suite is skipped, saying how to install it; under CI=true it fails.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { isLocal, launchChromium } from '../support/browser.js';
import { useSeededService } from '../support/fixtures.js';

// What the functions run inside the page use of it (the project's TypeScript has no DOM library).
declare const document: { querySelector(selector: string): any };

const fixture = useSeededService();
const service = () => fixture.service;

let browser: Browser | undefined;
let unavailable: string | undefined;

beforeAll(async () => {
  ({ browser, unavailable } = await launchChromium('test/ops/browser.test.ts'));
});

afterAll(async () => {
  await browser?.close();
});

interface Visit {
  context: BrowserContext;
  page: Page;
  /** Requests (and WebSockets) to anywhere but this machine: each was aborted, and fails the test. */
  foreign: Set<string>;
  /** console.error messages and uncaught exceptions of the page. */
  errors: string[];
}

/** A fresh browser context (no stored state) on `path`, every non-local request refused and recorded. */
async function visit(path: string): Promise<Visit> {
  const context = await browser!.newContext();
  const foreign = new Set<string>();
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (isLocal(url)) return route.continue();
    foreign.add(url);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(/.*/, (socket) => {
    if (isLocal(socket.url())) return socket.connectToServer();
    foreign.add(socket.url());
    return socket.close();
  });
  // Whatever slips past the routes (a request the page made that was not routed) is seen here.
  context.on('request', (request) => {
    if (!isLocal(request.url())) foreign.add(request.url());
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  const response = await page.goto(`${service().baseUrl}${path}`);
  expect(response?.status()).toBe(200);
  return { context, page, foreign, errors };
}

/** What every page must end with: nothing asked of another machine, no error in its console. */
async function leave(visited: Visit): Promise<void> {
  try {
    expect([...visited.foreign], 'requests to another machine').toEqual([]);
    expect(visited.errors, 'console errors').toEqual([]);
  } finally {
    await visited.context.close();
  }
}

describe('the pages in a real browser (chromium)', () => {
  it('/ links every page and endpoint, each answering, and lists the demo keys', async ({ skip }) => {
    if (unavailable) return skip(unavailable);
    const visited = await visit('/');
    const { page } = visited;
    try {
      await expect.poll(() => page.title()).toBe('Device-financing service');
      const hrefs = await page.locator('main a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect(hrefs).toEqual(
        expect.arrayContaining(['/docs', '/graphiql', '/graphql', '/openapi.json', '/healthz', '/readyz']),
      );
      // Each link answers 200 (Apollo Sandbox's page is fetched, not opened: it loads from Apollo's CDN).
      for (const href of new Set(hrefs)) {
        const answer = await page.request.get(`${service().baseUrl}${href}`, { headers: { accept: 'text/html' } });
        expect(answer.status(), href!).toBe(200);
      }
      const keys = await page.locator('table.keys tbody tr td:first-child').allTextContents();
      expect(keys).toEqual([
        'demo-partner-key',
        'demo-retail-key',
        'other-partner-key',
        'other-retail-key',
        'demo-vendor-key',
        'other-vendor-key',
        'demo-operator-key',
      ]);
      await expect
        .poll(() => page.locator('table.keys tr', { hasText: 'demo-retail-key' }).textContent())
        .toContain('record-customer-payment');

      // Following links in the browser: /healthz, then back, then /docs.
      await page.getByRole('link', { name: '/healthz' }).click();
      await page.waitForURL('**/healthz');
      expect(JSON.parse((await page.locator('body').textContent())!)).toEqual({ status: 'ok' });
      await page.goBack();
      await page.getByRole('link', { name: '/docs', exact: true }).click();
      await page.waitForURL('**/docs');
      await page.getByText('List clerks').first().waitFor();
    } finally {
      await leave(visited);
    }
  });

  it('/docs renders the REST reference from /openapi.json, and "Try it out" answers from this service', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const visited = await visit('/docs');
    const { page } = visited;
    try {
      await page.locator('.opblock').first().waitFor();
      const summaries = await page.locator('.opblock-summary-description').allTextContents();
      expect(summaries).toEqual(
        expect.arrayContaining([
          'Create an access token',
          'Create a payment notification',
          'List clerks',
          'List merchants',
          'Look up a customer',
          'Look up a cart',
          'List transactions',
          'Record an in-store payment',
        ]),
      );
      const paths = await page.locator('.opblock-summary-path').allTextContents();
      expect(paths.map((path) => path.replace(/\u200b/g, ''))).toContain('/v1/list-clerks.php');

      // The demo partner's key, given once for the partnerKey scheme (the key query parameter).
      await page.locator('.auth-wrapper .authorize').click();
      const partnerKey = page.locator('.dialog-ux .auth-container', { hasText: 'partnerKey' });
      await partnerKey.locator('input').fill('demo-partner-key');
      await partnerKey.getByRole('button', { name: 'Apply credentials' }).click();
      await page.locator('.dialog-ux .close-modal').click();

      // GET /v1/list-clerks.php with it, sent from the page to this service.
      const operation = page.locator('.opblock', { has: page.locator('[data-path="/v1/list-clerks.php"]') });
      await operation.locator('.opblock-summary').click();
      await operation.getByRole('button', { name: 'Try it out' }).click();
      await operation.getByRole('button', { name: 'Execute' }).click();
      const answer = operation.locator('.live-responses-table');
      await expect.poll(() => answer.textContent(), { timeout: 10_000 }).toContain('DemoClerk1');
      expect(await operation.locator('.request-url').textContent()).toContain(service().baseUrl);
    } finally {
      await leave(visited);
    }
  });

  it('/graphiql runs a query with the prefilled X-Api-Key header, and a subscription over WebSocket', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    const visited = await visit('/graphiql');
    const { page } = visited;
    const sent: string[] = [];
    page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sent.push(String(payload))));
    try {
      await page.locator('.graphiql-container').waitFor();
      // The headers editor is open and holds the demo partner's key.
      const headers = page.locator('.graphiql-editor-tool .graphiql-editor').last();
      await expect.poll(() => headers.textContent()).toContain('"X-Api-Key": "demo-partner-key"');
      expect(await headers.isVisible()).toBe(true);
      const result = page.locator('.result-window');
      const run = page.locator('.graphiql-execute-button');

      // The query the page opens with runs as it stands.
      await run.click();
      await expect.poll(() => resultText(page), { timeout: 10_000 }).toContain('"viewer"');
      expect(JSON.parse((await resultText(page))!)).toEqual({
        data: {
          viewer: { kind: 'PARTNER', partner: { id: expect.any(String), name: 'Demo Retail' } },
          merchants: [
            { id: DEMO_MERCHANT_ID, name: 'DEMO', address: { city: 'Tallahassee' } },
            { id: '999888', name: 'DEMO1', address: { city: 'San Mateo' } },
            { id: '1000201', name: 'DEMO2', address: { city: 'San Francisco' } },
          ],
        },
      });

      // The query editor is CodeMirror: its text set as a paste would, then given the moment GraphiQL
      // takes (a 100 ms debounce) to read the operation's name and kind from it before it can run.

      const setQuery = async (operationName: string, query: string) => {
        await page.evaluate((text) => {
          const editor = document.querySelector('.graphiql-query-editor .CodeMirror');
          editor.CodeMirror.setValue(text);
        }, query);
        await page.waitForFunction(
          (name) => document.querySelector('.graphiql-query-editor .CodeMirror').CodeMirror.operationName === name,
          operationName,
        );
      };
      await setQuery(
        'Merchants',
        'query Merchants { viewer { kind partner { name } } merchants(first: 3) { id name } }',
      );
      await run.click();
      await expect.poll(() => result.textContent(), { timeout: 10_000 }).toContain('"name": "DEMO1"');
      const shown = JSON.parse((await resultText(page))!);
      expect(shown).toEqual({
        data: {
          viewer: { kind: 'PARTNER', partner: { name: 'Demo Retail' } },
          merchants: [
            { id: DEMO_MERCHANT_ID, name: 'DEMO' },
            { id: '999888', name: 'DEMO1' },
            { id: '1000201', name: 'DEMO2' },
          ],
        },
      });

      // A subscription: live once the service counts its subscriber; a payment recorded over REST appears.
      await setQuery('Live', 'subscription Live { events(types: [PAYMENT_RECORDED]) { type data } }');
      await run.click();
      await vi.waitFor(() => expect(service().listeningSubscribers()).toBe(1), { timeout: 10_000 });
      const init = sent.map((frame) => JSON.parse(frame)).find((message) => message.type === 'connection_init');
      expect(init?.payload).toEqual({ 'X-Api-Key': 'demo-partner-key' });
      const payment = await service().request(
        `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}` +
          `&financeOrderId=${DEMO_ORDER_ID}&amount=1.00&currency=USD`,
      );
      expect(payment.status).toBe(200);
      const paymentId = ((await payment.json()) as { payment: { id: number } }).payment.id;
      await expect.poll(() => result.textContent(), { timeout: 10_000 }).toContain('PAYMENT_RECORDED');
      const event = JSON.parse((await resultText(page))!);
      expect(event.data.events.type).toBe('PAYMENT_RECORDED');
      // payment.recorded speaks the graph's dialect: its ids are strings (docs/decisions.md 41).
      expect(event.data.events.data.payment.id).toBe(String(paymentId));
      // Stopping it closes its connection: the service hears no subscriber any more.
      await run.click();
      await vi.waitFor(() => expect(service().listeningSubscribers()).toBe(0), { timeout: 10_000 });
    } finally {
      await leave(visited);
    }
  });
});

/** The result panel's text as GraphiQL holds it (CodeMirror renders only the visible lines). */
function resultText(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const editor = document.querySelector('.result-window .CodeMirror');
    return editor ? (editor.CodeMirror.getValue() as string) : null;
  });
}
