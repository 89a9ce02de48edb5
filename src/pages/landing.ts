// GET /: where an integrator starts. It links every page and endpoint meant for a browser and, outside
// production only, lists the demo keys that work on this database, with what each is for.
import { escapeHtml, LANDING_ASSETS, renderPage } from './html.js';

/** A demo key as the demo data set names it (src/fixtures/demo.ts, DEMO_KEYS). */
export interface DemoKey {
  key: string;
  kind: string;
  owner: string;
}

/** What a key of each kind opens, in a line. */
const KIND_USES: Record<string, string> = {
  partner:
    'the partner query interface (/v1/*.php?key=...) and GraphQL: its own merchants, clerks, customers, finance ' +
    'orders, carts, transactions and events (also live, over a subscription)',
  retail:
    'the same lookups without carts and transactions, and in-store payments ' +
    '(/v1/record-customer-payment.php, GraphQL recordInStorePayment)',
  vendor:
    'traded for an access token (POST /payments/v1/token), which notifies the payments the vendor collected ' +
    '(POST /payments/v1/notification)',
  operator: 'GraphQL: every partner, and provisioning (partners, keys, payment vendors, webhooks)',
};

interface LandingPage {
  production: boolean;
  /** Whether /graphiql is served (outside production, when GraphiQL is installed: router.ts). */
  graphiql: boolean;
  /** The demo keys present and not revoked; null when they could not be read (the database is down). */
  demoKeys: readonly DemoKey[] | null;
}

interface Link {
  href: string;
  what: string;
}

function links(production: boolean, graphiql: boolean): Link[] {
  return [
    {
      href: '/docs',
      what: 'API reference of the REST interfaces (the partner query interface and the payments interface)',
    },
    { href: '/openapi.json', what: 'the OpenAPI 3.1 document the reference is rendered from, for API tools' },
    ...(production
      ? []
      : [
          ...(graphiql
            ? [
                {
                  href: '/graphiql',
                  what: 'GraphiQL, served by this service (works offline): the X-Api-Key header is prefilled with demo-partner-key; subscriptions over WebSocket',
                },
              ]
            : []),
          {
            href: '/graphql',
            what: "Apollo Sandbox, loaded from Apollo's CDN (needs internet): set X-Api-Key in its connection settings",
          },
        ]),
    { href: '/healthz', what: 'liveness: answers while the process runs' },
    { href: '/readyz', what: 'readiness: the database answers and its migrations are current' },
  ];
}

function renderDemoKeys(demoKeys: readonly DemoKey[] | null): string {
  if (demoKeys === null) {
    return '<p>The demo keys could not be read: the database did not answer (see <a href="/readyz">/readyz</a>).</p>';
  }
  if (demoKeys.length === 0) {
    return '<p>No demo key is active on this database. <code>npm run db:seed</code> loads the demo data set into an empty one.</p>';
  }
  const rows = demoKeys.map(
    ({ key, kind, owner }) =>
      `<tr><td><code>${escapeHtml(key)}</code></td><td>${escapeHtml(`${kind} key of ${owner}`)}</td>` +
      `<td>${escapeHtml(KIND_USES[kind] ?? '')}</td></tr>`,
  );
  return [
    '<p>The demo data set has two partners, Demo Retail and Other Retail: one partner&#39;s keys never see the',
    'other&#39;s records. Send a key as <code>X-Api-Key</code> (GraphQL) or <code>?key=</code> (the partner',
    'query interface), e.g. <a href="/v1/list-clerks.php?key=demo-partner-key">/v1/list-clerks.php?key=demo-partner-key</a>.</p>',
    '<table class="keys">',
    '<thead><tr><th>key</th><th>whose</th><th>for</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
  ].join('\n');
}

export function renderLandingPage(page: LandingPage): string {
  const items = links(page.production, page.graphiql).map(
    ({ href, what }) => `<li><a href="${escapeHtml(href)}">${escapeHtml(href)}</a>: ${escapeHtml(what)}</li>`,
  );
  const body = [
    '<main class="landing">',
    '<h1>Device-financing service</h1>',
    '<p>Phones sold on credit in retail stores, repaid in small amounts in store or through payment vendors. Two',
    'doors: the legacy REST interfaces (<code>/v1/*.php</code>, <code>/payments/v1/*</code>) and GraphQL',
    '(<code>POST /graphql</code>, subscriptions over WebSocket at the same address).</p>',
    '<h2>Pages and endpoints</h2>',
    '<ul class="links">',
    ...items,
    '</ul>',
    ...(page.production ? [] : ['<h2>Demo keys</h2>', renderDemoKeys(page.demoKeys)]),
    '<p>More in the repository: <code>README.md</code>.</p>',
    '</main>',
  ];
  return renderPage({ ...LANDING_ASSETS, title: 'Device-financing service', body: body.join('\n') });
}
