// The console in Debian's chromium, beyond the acceptance walk (decisions.md 46): the keyboard alone
// reaches every view and acts in it, each view's heading taking the focus; and the live view across a
// restart of the service: it says it is offline while the service is down, reconnects by itself to the
// service started again on the same port, shows the event committed while it was away (read back from
// Query.events), and hears the next one live, without a reload.
// Without /usr/bin/chromium the suite is skipped, saying how to install it; under CI=true it fails.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLERK_ID, DEMO_MERCHANT_ID, DEMO_ORDER_ID } from '../../src/fixtures/demoIds.js';
import { axeViolations, launchChromium, openRecorded, type RecordedVisit } from '../support/browser.js';
import { createTestDatabase, type TestDatabase } from '../support/db.js';
import { startTestService, type TestService } from '../support/service.js';

// What the functions run inside the page use of it (the project's TypeScript has no DOM library).
declare const document: {
  activeElement: {
    tagName: string;
    textContent: string | null;
    value?: string;
    getAttribute(name: string): string | null;
  } | null;
};

let database: TestDatabase;
let service: TestService;
let port: number;
let browser: Browser | undefined;
let unavailable: string | undefined;
let visit: RecordedVisit;

beforeAll(async () => {
  database = await createTestDatabase();
  service = await startTestService(database.db);
  port = Number(new URL(service.baseUrl).port);
  ({ browser, unavailable } = await launchChromium('test/console/console-resilience.test.ts'));
  // Opened here, not in a test: the first request bundles the console (once per process), which is no
  // step of the walk.
  if (browser) visit = await openRecorded(browser, `${service.baseUrl}/console`);
});
afterAll(async () => {
  await visit?.context.close();
  await browser?.close();
  await service?.close();
  await database?.destroy();
});

const page = (): Page => visit.page;

/** The focused element as a person hears it: its tag, its label or its text. */
function focused(): Promise<{ tag: string; name: string }> {
  return page().evaluate(() => {
    const element = document.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      name: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim(),
    };
  });
}

type Focus = { tag: string; name: string };

/**
 * Tab (or Shift+Tab, `backwards`) until the focus is where `wanted` says, by its name exactly or by a
 * test of the element, within `limit` presses; fails naming where it went.
 */
async function tabTo(
  wanted: string | ((focus: Focus) => boolean),
  options: { backwards?: boolean; limit?: number } = {},
) {
  const matches = typeof wanted === 'string' ? (focus: Focus) => focus.name === wanted : wanted;
  const passed: string[] = [];
  for (let presses = 0; presses < (options.limit ?? 80); presses += 1) {
    await page().keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab');
    const now = await focused();
    if (matches(now)) return;
    passed.push(`${now.tag}:${now.name.slice(0, 30)}`);
  }
  throw new Error(`${String(wanted)} not reached; passed ${passed.join(' | ')}`);
}

const element = (tag: string) => (focus: Focus) => focus.tag === tag;

/** The view's heading holds the focus once the view has opened (the console focuses it). */
async function expectHeadingFocused(text: string | RegExp): Promise<void> {
  await expect
    .poll(async () => focused(), { timeout: 10_000 })
    .toEqual({ tag: 'h1', name: expect.stringMatching(text) });
}

/** The header's word for the live feed's connection. */
const connection = () => page().locator('header .live-status').textContent();

async function recordPayment(on: TestService, amount: string): Promise<void> {
  const { body } = await on.graphql(
    `mutation Pay($input: RecordInStorePaymentInput!) { recordInStorePayment(input: $input) { payment { id } } }`,
    { 'x-api-key': 'demo-retail-key' },
    {
      input: {
        merchantId: DEMO_MERCHANT_ID,
        salesClerkId: DEMO_CLERK_ID,
        financeOrderId: DEMO_ORDER_ID,
        amount,
        currency: 'USD',
      },
    },
  );
  expect(body.errors).toBeUndefined();
}

/** The id of the partner's newest PAYMENT_RECORDED event, asked of `on`. */
async function newestPaymentEvent(on: TestService): Promise<string> {
  const { body } = await on.graphql(`{ events(first: 1, types: [PAYMENT_RECORDED]) { nodes { id } } }`, {
    'x-api-key': 'demo-partner-key',
  });
  expect(body.errors).toBeUndefined();
  return body.data.events.nodes[0].id;
}

describe('the console from the keyboard alone', () => {
  it('signs in, opens every view from the menu with the view heading focused, and acts in one', async ({ skip }) => {
    if (unavailable) return skip(unavailable);
    await expectHeadingFocused('Console');
    await tabTo(element('input'), { limit: 3 });
    await page().keyboard.type('demo-partner-key');
    await page().keyboard.press('Enter');
    await expectHeadingFocused('Portfolio');

    // Back from the view's heading through the header: the menu's links, then the skip link first of all.
    await tabTo('Skip to the view', { backwards: true, limit: 12 });
    for (const view of ['Live', 'Devices', 'Sandbox', 'Portfolio']) {
      await tabTo(view, { backwards: true, limit: 12 });
      await page().keyboard.press('Enter');
      await expectHeadingFocused(view);
    }

    // A button of a view, pressed by a key: the sandbox's clock a day on.
    await tabTo('Sandbox', { backwards: true, limit: 12 });
    await page().keyboard.press('Enter');
    await expectHeadingFocused('Sandbox');
    await tabTo('A day on');
    await page().keyboard.press('Enter');
    await expect
      .poll(() => page().getByRole('status').allTextContents(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining('Partner time is now')]));

    // From the devices list to an order, and a command sent, all by keys.
    await tabTo('Devices', { backwards: true, limit: 20 });
    await page().keyboard.press('Enter');
    await expectHeadingFocused('Devices');
    await tabTo(`Order ${DEMO_ORDER_ID}`);
    await page().keyboard.press('Enter');
    await expectHeadingFocused(`Order ${DEMO_ORDER_ID}`);
    await tabTo(element('select'));
    // A closed select takes the arrow keys: from its first entry (Lock now) down to Show a message.
    await page().keyboard.press('ArrowDown');
    await page().keyboard.press('ArrowDown');
    expect(await page().evaluate(() => document.activeElement?.value)).toBe('SHOW_MESSAGE');
    await tabTo(element('textarea'), { limit: 3 });
    await page().keyboard.type('Sent from the keyboard');
    await tabTo('Send command', { limit: 3 });
    await page().keyboard.press('Enter');
    await expect
      .poll(() => page().getByRole('status').allTextContents(), { timeout: 10_000 })
      .toEqual(expect.arrayContaining([expect.stringContaining('Command sent')]));
    expect(await axeViolations(page()), 'axe after a command sent by keys').toEqual([]);
  });
});

describe('the live view across a restart of the service', () => {
  it('says it is offline, comes back by itself, shows what it missed and hears the next event live', async ({
    skip,
  }) => {
    if (unavailable) return skip(unavailable);
    await page().goto(`${service.baseUrl}/console#/live`);
    await page().getByRole('heading', { level: 1, name: 'Live' }).waitFor({ timeout: 10_000 });
    await expect.poll(connection, { timeout: 15_000 }).toContain('Live');

    await service.close();
    await expect.poll(connection, { timeout: 15_000 }).toContain('Offline: reconnecting');

    // While it is down, another instance on another port takes a payment: its event is committed
    // where the console cannot hear it.
    const other = await startTestService(database.db);
    let missed: string;
    try {
      await recordPayment(other, '1.00');
      missed = await newestPaymentEvent(other);
    } finally {
      await other.close();
    }

    // The service again, where the page knew it: the console reconnects within its longest wait (10 s).
    service = await startTestService(database.db, { port });
    await expect.poll(connection, { timeout: 30_000 }).toContain('Live');
    await expect
      .poll(() => page().locator(`ol[aria-label="Events"] li[data-event-id="${missed}"]`).count(), { timeout: 15_000 })
      .toBe(1);

    // And the subscription is live again: the next payment shows without a reload.
    await recordPayment(service, '2.00');
    const next = await newestPaymentEvent(service);
    expect(next).not.toBe(missed);
    await expect
      .poll(() => page().locator(`ol[aria-label="Events"] li[data-event-id="${next}"]`).count(), { timeout: 15_000 })
      .toBe(1);
    expect([...visit.foreign], 'requests to another machine').toEqual([]);
  });
});
