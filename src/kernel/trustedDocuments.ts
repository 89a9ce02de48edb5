// The manifest of trusted documents (GRAPHQL_TRUSTED_DOCUMENTS, decisions.md 33): the operations a
// known client ships, by id, read and checked once at start. Two shapes are common and both are read:
// the map { "<id>": "<document>" } (graphql-codegen's client preset, GraphQL Yoga) and Apollo's
// persisted-query manifest. No library reads either for a server outside their own frameworks
// (Yoga's plugin, GraphOS), and each is a few lines of JSON.
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';

export interface TrustedDocuments {
  /** The manifest's file, as configured: messages name it. */
  readonly file: string;
  /** Each document's text by its id (as the client's tool wrote it; never recomputed). */
  readonly byId: ReadonlyMap<string, string>;
  /** Every trusted text: the manifest's, and the service's own operations added at start (trustingAlso). */
  readonly texts: ReadonlySet<string>;
}

const APOLLO_FORMAT = 'apollo-persisted-query-manifest';

/** The manifest's id -> text pairs, in either shape; a message naming what is wrong otherwise. */
function entriesOf(manifest: unknown): Array<[string, unknown]> | string {
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) {
    return 'must hold a JSON object: { "<id>": "<document>" } or an Apollo persisted-query manifest';
  }
  const record = manifest as Record<string, unknown>;
  if (!('format' in record)) return Object.entries(record);
  if (record.format !== APOLLO_FORMAT || record.version !== 1) {
    return `has "format" ${JSON.stringify(record.format)} version ${JSON.stringify(record.version)}; only "${APOLLO_FORMAT}" version 1 is read`;
  }
  if (!Array.isArray(record.operations)) return 'has no "operations" list';
  const entries: Array<[string, unknown]> = [];
  for (const [index, operation] of record.operations.entries()) {
    const { id, body } = (operation ?? {}) as { id?: unknown; body?: unknown };
    if (typeof id !== 'string') return `operations[${index}] has no string "id"`;
    entries.push([id, body]);
  }
  return entries;
}

/** The manifest in `text`; throws an Error whose message (one line) says what is wrong. */
export function parseTrustedDocuments(file: string, text: string): TrustedDocuments {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    throw new Error(`file ${file} is not JSON (${oneLine(error)})`);
  }
  const entries = entriesOf(manifest);
  if (typeof entries === 'string') throw new Error(`file ${file} ${entries}`);
  if (entries.length === 0) throw new Error(`file ${file} lists no document`);
  const byId = new Map<string, string>();
  for (const [id, document] of entries) {
    const where = `file ${file}, id ${JSON.stringify(id.slice(0, 80))}`;
    if (id.trim() === '') throw new Error(`file ${file} has an empty id`);
    if (typeof document !== 'string' || document.trim() === '') throw new Error(`${where}: the document is not a text`);
    const known = byId.get(id);
    if (known !== undefined && known !== document) throw new Error(`${where}: the id names two different documents`);
    try {
      parse(document);
    } catch (error) {
      throw new Error(`${where}: the document does not parse (${oneLine(error)})`);
    }
    byId.set(id, document);
  }
  return { file, byId, texts: new Set(byId.values()) };
}

/** GRAPHQL_TRUSTED_DOCUMENTS's manifest, read from its file; throws an Error (one line) when it cannot be used. */
export function readTrustedDocuments(file: string): TrustedDocuments {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new Error(`names a file that cannot be read: ${file} (${typeof code === 'string' ? code : oneLine(error)})`);
  }
  return parseTrustedDocuments(file, text);
}

/** The same manifest, trusting `texts` as well (the REST door's own operations). */
export const trustingAlso = (trusted: TrustedDocuments, texts: Iterable<string>): TrustedDocuments => ({
  ...trusted,
  texts: new Set([...trusted.texts, ...texts]),
});

const oneLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
