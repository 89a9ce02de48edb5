// createApp(deps) -> the express app with both doors: the REST shim (legacy route table) and
// /graphql. It never listens itself: main.ts and the tests do.
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { createContext, type Context, type ServiceDeps } from './context.js';
import { maskUnexpectedError } from './errors.js';
import { createLegacyHandler, sendLegacyError, sendUnexpectedError } from './rest/handler.js';
import { openApiDocument } from './rest/openapi.js';
import { LEGACY_ROUTES } from './rest/routes.js';
import type { Surface } from './rest/status.js';
import { buildSchema } from './schema.js';

export interface AppDeps extends ServiceDeps {
  production: boolean;
}

export interface App {
  app: express.Express;
  apollo: ApolloServer<Context>;
  /** Stops the GraphQL server; the caller closes the HTTP server and the database. */
  stop: () => Promise<void>;
}

// An incoming X-Request-ID is echoed only when it is safe to put in a header and a log line.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const assignRequestId: RequestHandler = (req, res, next) => {
  const incoming = req.get('x-request-id');
  const requestId = incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.locals.requestId = requestId;
  res.set('X-Request-ID', requestId);
  next();
};

function logRequests(deps: AppDeps): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      deps.logger.info(
        {
          requestId: res.locals.requestId,
          method: req.method,
          path: req.path, // never the query string: the partner key travels there
          status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        },
        'request',
      );
    });
    next();
  };
}

/** The GraphQL door's credential: X-Api-Key, or Authorization: Bearer <key or token>. */
function graphqlCredential(req: Request): string | undefined {
  const apiKey = req.get('x-api-key');
  if (apiKey) return apiKey;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return match?.[1];
}

const GRAPHQL_BODY_LIMIT = '256kb';

// body-parser's error types, said in words a client can act on.
const BODY_PROBLEMS: Record<string, string> = {
  'entity.parse.failed': 'the request body is not valid JSON',
  'entity.too.large': `the request body is larger than ${GRAPHQL_BODY_LIMIT}`,
  'charset.unsupported': 'the request body must be UTF-8',
  'encoding.unsupported': 'the request body has an unsupported Content-Encoding',
};

const surfaceOf = (path: string): Surface => (path.startsWith('/payments/') ? 'payments' : 'partner');

export async function createApp(deps: AppDeps): Promise<App> {
  const apollo = new ApolloServer<Context>({
    schema: buildSchema(),
    introspection: !deps.production,
    includeStacktraceInErrorResponses: false,
    // main.ts owns draining on SIGTERM; Apollo's own signal handler would race it.
    stopOnTerminationSignals: false,
    plugins: [
      deps.production
        ? ApolloServerPluginLandingPageDisabled()
        : ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }),
    ],
    formatError: (formatted, error) => {
      const masked = maskUnexpectedError(formatted, error);
      if (masked.errorId) deps.logger.error({ err: error, errorId: masked.errorId }, 'unexpected error in GraphQL');
      return masked.formatted;
    },
  });
  await apollo.start();

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(assignRequestId, logRequests(deps));

  // The legacy contract: each path answers its own method, and 405 with Allow for any other.
  for (const route of LEGACY_ROUTES) {
    const handle = createLegacyHandler({ service: deps, apollo }, route);
    app.all(route.path, (req, res, next) => {
      if (req.method === route.method) return handle(req, res, next);
      res.set('Allow', route.method);
      sendLegacyError(res, route.surface, 'METHOD_NOT_ALLOWED', `${route.path} accepts ${route.method} only, not ${req.method}`);
    });
  }

  app.get('/openapi.json', (_req, res) => {
    res.json(openApiDocument);
  });

  app.use(
    '/graphql',
    express.json({ limit: GRAPHQL_BODY_LIMIT }),
    expressMiddleware(apollo, {
      context: async ({ req, res }) =>
        createContext(deps, {
          credential: { value: graphqlCredential(req), expected: 'an API key', presentedAs: 'X-Api-Key header (or Authorization: Bearer)' },
          requestId: res.locals.requestId as string,
        }),
    }),
  );

  app.use((req, res) => {
    sendLegacyError(res, surfaceOf(req.path), 'RESOURCE_NOT_FOUND', `no endpoint ${req.method} ${req.path}`);
  });

  // Last resort: malformed bodies are the client's fault (4xx); anything else is masked.
  const onError: ErrorRequestHandler = (error, req, res, _next) => {
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status >= 400 && status < 500) {
      const message = BODY_PROBLEMS[String(error?.type)] ?? 'the request could not be read';
      res.status(status).json({ error: { code: 'BAD_REQUEST', message } });
      return;
    }
    sendUnexpectedError(res, surfaceOf(req.path), error, deps, req.path);
  };
  app.use(onError);

  return { app, apollo, stop: () => apollo.stop() };
}
