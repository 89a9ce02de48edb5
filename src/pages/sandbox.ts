// GET /graphql in a browser, outside production: Apollo Sandbox, Apollo's own page, which loads Sandbox
// from Apollo's CDN. Without internet that page shows only Apollo's "you might be offline" note, so the
// note here also links GraphiQL, which the service serves itself (pages/router.ts) and works offline.
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';

/** What the offline note adds: where the graph can be explored without Apollo's CDN. */
const SANDBOX_OFFLINE_LINK =
  '<p>GraphiQL works offline: it is served by this service, at <a href="/graphiql">/graphiql</a>, ' +
  'with the X-Api-Key header prefilled with demo-partner-key.</p>';

// The note Apollo shows until Sandbox loads (it fades in after a second, and Sandbox covers it once it
// loaded); anything else would show beneath Sandbox's frame or above it.
const FALLBACK_NOTE = /(<div class="fallback">[\s\S]*?)(<\/div>)/;

/** Apollo's page with the GraphiQL link in its offline note; at the top of the body if the note moved. */
export function withGraphiqlLink(html: string): string {
  if (FALLBACK_NOTE.test(html)) return html.replace(FALLBACK_NOTE, `$1  ${SANDBOX_OFFLINE_LINK}\n$2`);
  return html.replace(/<body>/, `<body>\n${SANDBOX_OFFLINE_LINK}`);
}

/** Apollo's Sandbox landing page (embedded, no cookies sent), with the GraphiQL link when offline. */
export function sandboxLandingPage(): ApolloServerPlugin {
  const apollo = ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false });
  return {
    async serverWillStart(service) {
      const listener = await apollo.serverWillStart?.(service);
      const render = listener?.renderLandingPage;
      if (!render) throw new Error("Apollo's Sandbox plugin renders no landing page");
      return {
        ...listener,
        async renderLandingPage() {
          const page = await render();
          // A fresh nonce on every load: Apollo's html() is called per request, and so is this one.
          const html = async () => withGraphiqlLink(typeof page.html === 'string' ? page.html : await page.html());
          return { ...page, html };
        },
      };
    },
  };
}
