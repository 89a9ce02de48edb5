// GET /graphiql: GraphiQL 3 (graphiql.js, after React, ReactDOM and graphql-ws, all loaded before this
// file) over the service's /graphql. Served as a file: the Content-Security-Policy allows no inline script.
const root = document.getElementById('graphiql');
const endpoint = new URL(root.dataset.endpoint, window.location.href);
const socketUrl = new URL(endpoint);
socketUrl.protocol = endpoint.protocol === 'https:' ? 'wss:' : 'ws:';

const DEFAULT_QUERY = `# GraphiQL, served by this service. The Headers tab below holds
# the X-Api-Key sent with every request (and, for a subscription,
# in the WebSocket's connection_init payload).
# Run: Ctrl-Enter (Cmd-Enter on a Mac).
#
# Live events, while a payment is recorded (e.g. over REST):
#   subscription { events { id type occurredAt data } }

query Start {
  viewer {
    kind
    partner { id name }
  }
  merchants(first: 10) { id name address { city } }
}
`;

/** The operation GraphiQL runs: the named one, or the document's only one. */
function chosenOperation(documentAST, operationName) {
  const operations = (documentAST?.definitions ?? []).filter((node) => node.kind === 'OperationDefinition');
  return operationName ? operations.find((node) => node.name?.value === operationName) : operations[0];
}

/**
 * A subscription over graphql-ws, as GraphiQL takes it (an observable). The service reads the
 * credential from the connection_init payload, so each subscription opens its own connection with the
 * headers the editor holds now; stopping it closes that connection.
 */
function subscribe(params, headers) {
  return {
    subscribe(observer) {
      const client = window.graphqlWs.createClient({
        url: socketUrl.href,
        connectionParams: headers ?? {},
        retryAttempts: 0,
      });
      const dispose = client.subscribe(params, {
        next: (value) => observer.next(value),
        // A refused connection arrives as a CloseEvent (4403 and the reason): shown as an error.
        error: (error) =>
          observer.error(
            error && typeof error.code === 'number'
              ? new Error(`the WebSocket closed with ${error.code}: ${error.reason || 'no reason given'}`)
              : error,
          ),
        complete: () => observer.complete(),
      });
      return {
        unsubscribe() {
          dispose();
          void client.dispose();
        },
      };
    },
  };
}

const overHttp = window.GraphiQL.createFetcher({ url: endpoint.href });

function fetcher(params, options) {
  if (chosenOperation(options?.documentAST, params.operationName)?.operation === 'subscription') {
    return subscribe(params, options?.headers);
  }
  return overHttp(params, options);
}

root.textContent = '';
window.ReactDOM.createRoot(root).render(
  window.React.createElement(window.GraphiQL, {
    fetcher,
    defaultQuery: DEFAULT_QUERY,
    defaultHeaders: root.dataset.headers,
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: 'headers',
  }),
);
