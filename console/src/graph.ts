// The console's one way to the service's data: POST /graphql with the person's key (decisions.md 46).
// A small function rather than a GraphQL client library: the console re-reads each view when it is
// opened and keeps no normalised cache, so a client's cache, links and exchanges would add weight and
// nothing it uses. Errors come back as the graph words them: its message and its code.

/** An error the graph answered (or the network's, said in the same words). */
export class GraphError extends Error {
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.name = 'GraphError';
    this.code = code;
  }
}

interface GraphAnswer<TData> {
  data?: TData | null;
  errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } }>;
}

/** The answer's data, or the first error as a GraphError: the console shows it and changes nothing. */
export async function ask<TData, TVariables extends object = Record<string, never>>(
  key: string,
  document: string,
  variables?: TVariables,
): Promise<TData> {
  let response: Response;
  try {
    response = await fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Api-Key': key },
      body: JSON.stringify({ query: document, variables: variables ?? {} }),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new GraphError('The service cannot be reached: check that it is running, then try again.', 'OFFLINE');
  }
  let answer: GraphAnswer<TData>;
  try {
    answer = (await response.json()) as GraphAnswer<TData>;
  } catch {
    throw new GraphError(`The service answered ${response.status} without a GraphQL answer.`, 'UNEXPECTED_ANSWER');
  }
  const first = answer.errors?.[0];
  if (first) throw new GraphError(first.message, first.extensions?.code ?? 'ERROR');
  if (answer.data == null) throw new GraphError('The service answered without data.', 'UNEXPECTED_ANSWER');
  return answer.data;
}

/**
 * A fresh idempotency key (32 hex digits). crypto.randomUUID exists only in a secure context (HTTPS or
 * localhost), and the console is also opened over plain HTTP on a LAN address; getRandomValues is
 * there in every context.
 */
export function freshIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
