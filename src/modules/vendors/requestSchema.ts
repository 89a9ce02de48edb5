// Each vendor's notification body is described by a JSON Schema stored with the vendor
// (decisions.md 6). It is compiled once per schema version and checked before anything is written.
import { createHash } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import Ajv2020Module from 'ajv/dist/2020.js';
import { linearRegExp, UnsupportedPattern } from './linearRegExp.js';

const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
// strict: false accepts vendor-specific annotation keywords; allErrors lists every problem at once.
// `pattern` and `patternProperties` (and `propertyNames` through `pattern`) run on a linear-time engine
// (linearRegExp.ts). `format` is an annotation only: ajv has no formats without ajv-formats, which the
// service does not load, so no format runs a regex; validateFormats: false says so (and stops ajv
// warning on the console about each "unknown" format).
const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false, code: { regExp: linearRegExp } });
const compiled = new Map<string, ValidateFunction>();

function validatorFor(schema: object): ValidateFunction {
  const key = createHash('sha256').update(JSON.stringify(schema)).digest('hex');
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

/** Whether a schema is one the service can check notifications against; the reason if not. */
export function schemaProblem(schema: unknown): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return 'requestSchema must be a JSON object';
  try {
    validatorFor(schema);
    return null;
  } catch (error) {
    if (error instanceof UnsupportedPattern) return `requestSchema ${error.message}`;
    return `requestSchema is not a valid JSON Schema: ${(error as Error).message}`;
  }
}

const BRANCH = /\/(oneOf|anyOf|not)\//;

/** For a oneOf whose branches each require a field: the fields, for "exactly one of ..." wording. */
function alternativeFields(schema: object, schemaPath: string): string[] | null {
  let node: unknown = schema;
  for (const part of schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean))
    node = (node as Record<string, unknown>)?.[part];
  if (!Array.isArray(node)) return null;
  const fields = node
    .map((branch) => (branch as { required?: unknown }).required)
    .map((req) => (Array.isArray(req) && req.length === 1 ? String(req[0]) : null));
  return fields.every((field) => field !== null) ? (fields as string[]) : null;
}

function describe(schema: object, error: ErrorObject): string {
  const field = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : null;
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `${field ? `${field}.` : ''}${missing} is a required field`;
  }
  if (error.keyword === 'oneOf' || error.keyword === 'anyOf') {
    const fields = alternativeFields(schema, error.schemaPath);
    if (fields) return `exactly one of ${fields.join(', ')} is required`;
    return `${field ?? 'the notification'} is not of an allowed type or format`;
  }
  return `${field ?? 'the notification'} ${error.message ?? 'is not valid'}`;
}

/** The problems of a notification body against its vendor's schema; empty when it conforms. */
export function notificationProblems(schema: object, body: unknown): string[] {
  const validate = validatorFor(schema);
  if (validate(body)) return [];
  // Errors from inside oneOf/anyOf/not branches explain why each alternative failed: noise for a
  // vendor. The error of the oneOf itself says what is wrong.
  const errors = (validate.errors ?? []).filter((error) => !BRANCH.test(error.schemaPath));
  return [...new Set(errors.map((error) => describe(schema, error)))];
}
