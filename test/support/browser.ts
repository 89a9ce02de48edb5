// The service's pages and its console in Debian's chromium (test/ops/browser.test.ts, test/console/): the
// browser, found or said missing; a context whose every request and WebSocket is recorded, anything but
// this machine aborted and counted as a failure, and the page's console errors kept; axe-core run inside
// the page.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const INSTALL_HINT = `no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) to run this suite`;
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The browser, or why there is none; under CI=true a missing browser throws (.ci/run installs it). */
export async function launchChromium(suite: string): Promise<{ browser?: Browser; unavailable?: string }> {
  if (existsSync(CHROMIUM))
    return { browser: await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }) };
  if (process.env.CI && !['0', 'false'].includes(process.env.CI)) throw new Error(`CI=true and ${INSTALL_HINT}`);
  process.stderr.write(`\n[${suite}] skipped: ${INSTALL_HINT}\n`);
  return { unavailable: INSTALL_HINT };
}

/** Whether a URL is this machine's (or the page's own data:, blob:, about:). */
export const isLocal = (url: string) => {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
};

export interface RecordedVisit {
  context: BrowserContext;
  page: Page;
  /** Every request the page made, as "METHOD url", in order. */
  requests: string[];
  /** Every WebSocket the page opened, by its URL. */
  sockets: string[];
  /** Every address the page's frame had. */
  addresses: string[];
  /** Requests (and WebSockets) to anywhere but this machine: each was aborted, and fails the test. */
  foreign: Set<string>;
  /** console.error messages and uncaught exceptions of the page. */
  errors: string[];
  /** Every message the page wrote to its console, of any level. */
  messages: string[];
}

/** A fresh context (no stored state, no CSP bypass) on `url`, everything it asks for recorded. */
export async function openRecorded(browser: Browser, url: string): Promise<RecordedVisit> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const visit: RecordedVisit = {
    context,
    page: null!,
    requests: [],
    sockets: [],
    addresses: [],
    foreign: new Set(),
    errors: [],
    messages: [],
  };
  await context.route('**/*', (route) => {
    const requested = route.request().url();
    if (isLocal(requested)) return route.continue();
    visit.foreign.add(requested);
    return route.abort('blockedbyclient');
  });
  await context.routeWebSocket(/.*/, (socket) => {
    visit.sockets.push(socket.url());
    if (isLocal(socket.url())) return socket.connectToServer();
    visit.foreign.add(socket.url());
    return socket.close();
  });
  context.on('request', (request) => {
    visit.requests.push(`${request.method()} ${request.url()}`);
    if (!isLocal(request.url())) visit.foreign.add(request.url());
  });
  const page = await context.newPage();
  visit.page = page;
  page.on('websocket', (socket) => {
    if (!visit.sockets.includes(socket.url())) visit.sockets.push(socket.url());
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) visit.addresses.push(frame.url());
  });
  page.on('console', (message) => {
    visit.messages.push(message.text());
    if (message.type() === 'error') visit.errors.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => visit.errors.push(`uncaught: ${error.message}`));
  const response = await page.goto(url);
  if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`);
  return visit;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// What the functions run inside the page use of it (the project's TypeScript has no DOM library).
declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: AxeViolation[] }> };
declare const document: unknown;
interface AxeViolation {
  id: string;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core's violations on the page as it stands, one line each. Its source is evaluated through the
 * DevTools protocol, which the page's policy does not govern (an injected <script> would be refused).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const { violations } = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.help}): ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`,
  );
}
