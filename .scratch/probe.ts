import { parse, validate, specifiedRules } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildSchema } from '../src/schema.js';
const schema = buildSchema();
const docs = [
  'mutation($e: EventType!) { createWebhookEndpoint(input: {url: "https://x.example", eventTypes: [$e]}) { endpoint { id } } }',
  'mutation($e: EventType!) { createWebhookEndpoint(input: {url: "https://x.example", eventTypes: $e}) { endpoint { id } } }',
  'query($f: String!) { transactions(start: 0, end: 1, filter: [$f, "type:cash", $f]) { nodes { id } } }',
  'query($f: String) { transactions(start: 0, end: 1, filter: [$f]) { nodes { id } } }',
  'query { transactions(start: 0, end: 1, filter: "type:cash") { nodes { id } } }',
  'query($v: Boolean = null) { __typename @skip(if: $v) }',
  'query { a: __typename b: __typename ...F } fragment F on Query { __typename }',
];
for (const text of docs) {
  const doc = parse(text);
  const errs = validate(schema, doc, specifiedRules);
  let r: any;
  try { r = compileQuery(schema, doc); } catch (e) { r = { thrown: String(e) }; }
  console.log(errs.length ? 'INVALID ' + errs[0].message : 'valid', '|', isCompiledQuery(r) ? 'compiled' : JSON.stringify(r.errors?.map((e: any) => e.message) ?? r), '|', text);
}
