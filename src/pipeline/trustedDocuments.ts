// Persisted operations (decisions.md 33): no automatic persisted queries, and, with a manifest of
// trusted documents (GRAPHQL_TRUSTED_DOCUMENTS), the rule that callers other than operators run only
// its documents. One function decides for both doors that take a client's document (/graphql over
// HTTP, through the plugin below, and the WebSocket door); the REST door's own operations are in the
// trusted texts (createApp), so its routes pass the same rule.
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { AppError, withHttpStatus } from '../kernel/errors.js';
import type { TrustedDocuments } from '../kernel/trustedDocuments.js';
import type { Principal } from '../modules/auth/principal.js';
import type { Context } from './context.js';

/** A request as the rule reads it: its text, and the extensions that may name its document by id. */
interface DocumentRequest {
  query?: string;
  extensions?: Record<string, unknown> | null;
}

/**
 * The id a request names its document by: Apollo Client's `extensions.persistedQuery.sha256Hash`, or
 * GraphQL over HTTP's `documentId` (the HTTP door moves it into the extensions, where Apollo keeps it).
 * A persistedQuery without a string hash names the empty id, which no manifest holds.
 */
function documentIdOf(extensions: DocumentRequest['extensions']): string | undefined {
  if (!extensions) return undefined;
  if (typeof extensions.documentId === 'string') return extensions.documentId;
  const persisted = extensions.persistedQuery;
  if (persisted === undefined || persisted === null) return undefined;
  const hash = (persisted as { sha256Hash?: unknown }).sha256Hash;
  return typeof hash === 'string' ? hash : '';
}

const requestError = (code: string, message: string) =>
  new GraphQLError(message, { extensions: { code, http: { status: 400 } } });

/**
 * The text the request runs, or a GraphQLError to answer instead (with its HTTP status): an id is
 * looked up in the manifest (without one, ids are not taken at all); then, with a manifest, a caller
 * that is not an operator runs only a trusted text. `undefined`: no text and no id (Apollo's own 400).
 */
export function documentToRun(
  trusted: TrustedDocuments | null,
  principal: Principal | null,
  request: DocumentRequest,
): string | undefined {
  let text = request.query;
  const id = documentIdOf(request.extensions);
  if (id !== undefined) {
    if (!trusted) {
      throw requestError(
        'PERSISTED_QUERY_NOT_SUPPORTED',
        "this service keeps no automatic persisted queries: send the document's text in `query`",
      );
    }
    const known = trusted.byId.get(id);
    const sentText = text !== undefined && text !== '';
    // An id the manifest does not hold, sent with a text: the text decides (Apollo Client's link
    // resends the text with its own hash after PERSISTED_QUERY_NOT_FOUND).
    if (known === undefined && !sentText) {
      throw requestError(
        'PERSISTED_QUERY_NOT_FOUND',
        `no trusted document has the id ${JSON.stringify(id.slice(0, 80))}: send one of the manifest's ids, or the document's text`,
      );
    }
    if (known !== undefined && sentText && text !== known) {
      throw requestError(
        'BAD_REQUEST',
        `the text sent is not the document of the id ${JSON.stringify(id.slice(0, 80))}`,
      );
    }
    text = known ?? text;
  }
  if (trusted && principal?.kind !== 'operator' && text !== undefined && text !== '' && !trusted.texts.has(text)) {
    throw withHttpStatus(
      new AppError(
        'DOCUMENT_NOT_TRUSTED',
        "only trusted documents (GRAPHQL_TRUSTED_DOCUMENTS) run for this caller: send one of the manifest's documents, by its id or its exact text; operator keys run any document",
      ),
    );
  }
  return text;
}

/**
 * Applies documentToRun to every operation of the Apollo pipeline (both doors' HTTP requests), before
 * Apollo reads the request: an id becomes its text, so Apollo (its own persisted queries off) parses
 * the manifest's document. A refusal is answered once the operation is resolved, the one place where
 * Apollo answers a plugin's error with its status (an error thrown earlier is its 500); until then the
 * request carries a stand-in document instead of the client's, so the client's is never parsed.
 */
export function trustedDocumentsPlugin(trusted: TrustedDocuments | null): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ request, contextValue }) {
      let refusal: GraphQLError | undefined;
      try {
        const text = documentToRun(trusted, contextValue.auth.principal, request);
        if (documentIdOf(request.extensions) === undefined) return;
        request.query = text;
      } catch (error) {
        if (!(error instanceof GraphQLError)) throw error;
        refusal = error;
        request.query = STAND_IN;
      }
      const { persistedQuery: _persisted, documentId: _id, ...others } = request.extensions ?? {};
      request.extensions = others;
      if (!refusal) return;
      const answered = refusal;
      return {
        async didResolveOperation() {
          throw answered;
        },
      };
    },
  };
}

/** What Apollo parses in place of a refused request's document: the smallest valid one. */
const STAND_IN = '{ __typename }';
