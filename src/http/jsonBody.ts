// The JSON body of a payments request, read losslessly (src/kernel/losslessJson.ts): numbers keep their
// source text for the money rules, a member name given twice is refused, nesting is bounded. Every
// failure is an ordinary taxonomy error, rendered by the door.
import express, { type Request, type Response } from 'express';
import { AppError, invalidRequestBody } from '../kernel/errors.js';
import { JsonTextError, parseLosslessJson } from '../kernel/losslessJson.js';

const BODY_LIMIT = '64kb';
// The bytes as sent (gzip or deflate undone), decoded and parsed below: express.json would parse with
// JSON.parse, which rounds every number to a double before anything can read its text.
const readBytes = express.raw({ limit: BODY_LIMIT, type: () => true });
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
const NOT_UTF8 = 'must be UTF-8 JSON, not compressed';

/** The declared charset, when there is one, is UTF-8 (RFC 8259 8.1: JSON between systems is UTF-8). */
function declaresUtf8(req: Request): boolean {
  const charset = CHARSET.exec(req.get('content-type') ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** Bytes as UTF-8 text (a byte order mark dropped); undefined when they are not UTF-8. */
function utf8Text(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The JSON body of a payments request, numbers as lossless-json numbers. A wrong media type, a charset
 * other than UTF-8, bad JSON, a repeated member name, nesting past 32 levels or a body over the limit
 * is a 4xx. An empty body reads as {} (as express.json read it), so its required fields are named.
 */
export function readJsonBody(req: Request, res: Response): Promise<unknown> {
  if (!req.is('application/json')) {
    return Promise.reject(
      new AppError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be JSON, sent with Content-Type: application/json'),
    );
  }
  if (!declaresUtf8(req)) return Promise.reject(invalidRequestBody(NOT_UTF8));
  return new Promise((resolve, reject) => {
    readBytes(req, res, (error?: unknown) => {
      if (error) {
        const type = (error as { type?: string }).type;
        if (type === 'entity.too.large') return reject(invalidRequestBody(`is larger than ${BODY_LIMIT}`));
        if (type === 'encoding.unsupported') return reject(invalidRequestBody(NOT_UTF8));
        return reject(invalidRequestBody('is not valid JSON'));
      }
      // No body at all (no Content-Length, no Transfer-Encoding): nothing was read.
      if (!Buffer.isBuffer(req.body)) return resolve(undefined);
      if (req.body.length === 0) return resolve({});
      const text = utf8Text(req.body);
      if (text === undefined) return reject(invalidRequestBody(NOT_UTF8));
      try {
        resolve(parseLosslessJson(text));
      } catch (parseError) {
        if (parseError instanceof JsonTextError) return reject(invalidRequestBody(parseError.message));
        reject(parseError);
      }
    });
  });
}
