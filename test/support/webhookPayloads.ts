// A webhook post held to its description: openapi.json's `webhooks` entry of its event type
// (src/rest/openapiWebhooks.ts, docs/decisions.md 41), its headers and its body, with ajv. The test
// receiver checks every post it reads with it, so no payload delivered in the suites can drift from
// what the document publishes.
import Ajv2020Module from 'ajv/dist/2020.js';
import { openApiDocument } from './openapi.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const ajv = new Ajv2020({ strict: false, validateSchema: false, validateFormats: false, allErrors: true });
ajv.addSchema(openApiDocument, 'openapi.json');

/** What a suite posts: the service's own payloads, or stand-in data made up to test delivery itself. */
export type PayloadKind = 'described' | 'stand-ins';

interface HeaderParameter {
  name: string;
  in: string;
  required: boolean;
  schema: Record<string, unknown>;
}
interface WebhookEntry {
  post: {
    parameters: HeaderParameter[];
    requestBody: { content: { 'application/json': { schema: { $ref?: string } } } };
  };
}
const webhooks = (openApiDocument as unknown as { webhooks: Record<string, WebhookEntry> }).webhooks;

const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorOf(schema: Record<string, unknown>) {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** The body schema of a webhooks entry, as a reference into openapi.json (a JSON pointer: `/` is `~1`). */
const bodyOf = (name: string) => ({
  $ref: `openapi.json#/webhooks/${name.replaceAll('~', '~0').replaceAll('/', '~1')}/post/requestBody/content/application~1json/schema`,
});

const errorsOf = (validate: ReturnType<typeof ajv.compile>, value: unknown): string[] =>
  validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);

/**
 * What is wrong with one post, by its entry in openapi.json's webhooks (nothing: []). A STANDARD post
 * (webhook-id) is its type's entry, a PAYJOY_V1 post (x-payjoy-signature) payjoy_v1.transaction.created's.
 * With stand-ins, the data is not checked; the envelope and the headers still are.
 */
export function webhookPostProblems(headers: Record<string, string>, body: string, kind: PayloadKind): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return ['the body is not JSON'];
  }
  const payjoy = 'x-payjoy-signature' in headers;
  if (!payjoy && !('webhook-id' in headers)) return ['neither STANDARD (webhook-id) nor PAYJOY_V1 headers'];
  const name = payjoy ? 'payjoy_v1.transaction.created' : String((parsed as { type?: unknown }).type);
  const entry = Object.hasOwn(webhooks, name) ? webhooks[name]! : undefined;
  if (!entry) return [`no webhooks entry in openapi.json for ${name}`];
  const problems: string[] = [];
  for (const parameter of entry.post.parameters) {
    const value = headers[parameter.name.toLowerCase()];
    if (value === undefined) {
      if (parameter.required) problems.push(`header ${parameter.name} is missing`);
      continue;
    }
    for (const error of errorsOf(validatorOf(parameter.schema), value))
      problems.push(`header ${parameter.name}: ${error}`);
  }
  if (kind === 'described') {
    problems.push(...errorsOf(validatorOf(bodyOf(name)), parsed).map((error) => `${name} body ${error}`));
  } else if (!payjoy) {
    // The envelope around stand-in data: the type's own (a component), its data left unchecked.
    const bodyRef = entry.post.requestBody.content['application/json'].schema.$ref ?? '';
    const envelope = openApiDocument.components.schemas[bodyRef.split('/').pop()!] as Record<string, any>;
    const withAnyData = { ...envelope, properties: { ...envelope.properties, data: {} } };
    problems.push(...errorsOf(validatorOf(withAnyData), parsed).map((error) => `${name} envelope ${error}`));
  }
  if (!payjoy) {
    const timestamp = (parsed as { timestamp?: unknown }).timestamp;
    if (
      typeof timestamp !== 'string' ||
      Number.isNaN(Date.parse(timestamp)) ||
      new Date(timestamp).toISOString() !== timestamp
    )
      problems.push(`${name} timestamp ${JSON.stringify(timestamp)} is not an ISO 8601 time in UTC`);
  }
  return problems;
}
