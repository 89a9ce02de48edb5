// How a request presents its credential, read the same way at every door (REST, /graphql, WebSocket,
// devices): one parser of the Authorization header, one error for a header it cannot read. What the
// credential is worth is the auth module's to say (createContext), not the door's.
import { invalidAccessToken } from '../kernel/errors.js';

// One word after "Bearer" and nothing else (RFC 6750 section 2.1), spaces only.
const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/**
 * The credential an Authorization header carries: undefined when there is none (or it is blank); any
 * other shape is 401 INVALID_ACCESS_TOKEN at every door, never silently taken for no credential.
 * `what` names what the door takes after "Bearer", for the message.
 */
export function bearerCredential(header: string | undefined, what: string): string | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const match = BEARER.exec(header);
  if (!match) throw invalidAccessToken(`the Authorization header must be "Bearer <${what}>"`);
  return match[1];
}

/** The GraphQL doors' credential (HTTP and WebSocket): X-Api-Key, else Authorization: Bearer <key or token>. */
export function graphqlCredential(apiKey: string | undefined, authorization: string | undefined): string | undefined {
  if (apiKey) return apiKey;
  return bearerCredential(authorization, 'API key or access token');
}
