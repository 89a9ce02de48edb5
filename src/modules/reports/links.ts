// A report's signed download link (docs/decisions.md 45): `/reports/v1/files/<id>?expires=<Unix
// seconds>&signature=<base64url HMAC-SHA256 of "<id>.<expires>">` under the run's own random key, valid
// 15 minutes of real time (never a sandbox clock's). Any api instance checks it from the run's row: no
// secret is configured, none rotated.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { reportLinkExpired, reportLinkInvalid } from '../../kernel/errors.js';
import type { ReportRunRow } from './rows.js';

export const REPORT_FILES_PATH = '/reports/v1/files';
/** How long a link is valid from its reading. */
export const LINK_LIFETIME_SECONDS = 15 * 60;

/** A new run's key for its links: 32 random bytes, never shown. */
export const newLinkKey = (): Buffer => randomBytes(32);

const signatureOf = (run: Pick<ReportRunRow, 'id' | 'link_key'>, expires: string): Buffer =>
  createHmac('sha256', run.link_key).update(`${run.id}.${expires}`).digest();

/** The run's file's link, valid LINK_LIFETIME_SECONDS from `now` (real time): path and query. */
export function signedFilePath(run: Pick<ReportRunRow, 'id' | 'link_key'>, now: Date): string {
  const expires = String(Math.floor(now.getTime() / 1000) + LINK_LIFETIME_SECONDS);
  return `${REPORT_FILES_PATH}/${run.id}?expires=${expires}&signature=${signatureOf(run, expires).toString('base64url')}`;
}

const UNIX_SECONDS = /^\d{1,12}$/;
const BASE64URL = /^[A-Za-z0-9_-]{43}$/;

/**
 * Checks a link's `expires` and `signature` against `run` (undefined: no run of that id) at `now`
 * (real time): REPORT_LINK_INVALID unless the signature is the run's for that id and expiry, compared
 * in constant time; then REPORT_LINK_EXPIRED once the expiry has passed. An unknown run is an invalid
 * link, never a 404: a link does not tell which ids exist.
 */
export function checkSignedLink(
  run: Pick<ReportRunRow, 'id' | 'link_key'> | undefined,
  expires: string,
  signature: string,
  now: Date,
): void {
  if (!run || !UNIX_SECONDS.test(expires) || !BASE64URL.test(signature)) throw reportLinkInvalid();
  // The text is compared, not the bytes it decodes to: the 43rd character carries 2 unused bits, so
  // four spellings decode to the same bytes, and a link altered there must not pass.
  const given = Buffer.from(signature, 'ascii');
  const expected = Buffer.from(signatureOf(run, expires).toString('base64url'), 'ascii');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw reportLinkInvalid();
  if (Math.floor(now.getTime() / 1000) >= Number(expires)) throw reportLinkExpired();
}
