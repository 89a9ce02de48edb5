// What a /graphql request without any credential may make the service do: parse its document under
// the token limit, and nothing more, unless the document buys an access token (whose API key is its
// argument). Anything else is 401 MISSING_API_KEY before validation or cost, so nobody without a key
// can make the service analyse a document (docs/decisions.md, section 11).
import { type DocumentNode, Kind, parse } from 'graphql';

/** The parts of a GraphQL request over HTTP that decide it, as Apollo reads them (POST body or GET search). */
export interface KeylessRequest {
  /** The document's text; anything else (absent, not a string, given twice) is Apollo's own 400. */
  query: unknown;
  /** Whether it names an automatic persisted query: a document someone else may have sent. */
  persistedQuery: boolean;
}

/**
 * Whether a document may run without a credential: exactly one definition, a mutation, whose root
 * selections are all `createAccessToken` fields (aliases allowed); no fragment, so nothing spreads.
 */
export function buysAccessToken(document: DocumentNode): boolean {
  if (document.definitions.length !== 1) return false;
  const [operation] = document.definitions;
  return (
    operation?.kind === Kind.OPERATION_DEFINITION &&
    operation.operation === 'mutation' &&
    operation.selectionSet.selections.every(
      (selection) => selection.kind === Kind.FIELD && selection.name.value === 'createAccessToken',
    )
  );
}

/**
 * Whether a request without a credential is refused (401 MISSING_API_KEY) rather than served. A
 * document that does not parse, or no document at all, is left to Apollo's own 400; a persisted
 * query without its text is refused, since its document is not in the request to check.
 */
export function refusedWithoutCredential(request: KeylessRequest, maxTokens: number): boolean {
  if (typeof request.query !== 'string' || request.query === '') return request.persistedQuery;
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens, noLocation: true });
  } catch {
    return false; // Apollo parses it again, under the same limit, and says why it does not parse
  }
  return !buysAccessToken(document);
}
