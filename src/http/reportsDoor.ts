// The report files' door (docs/decisions.md 45): GET /reports/v1/files/<run id>, with a signed link's
// `expires` and `signature` (made by ReportRun.downloadUrl, checked from the run's row by any instance),
// or with the partner's API key (`Authorization: Bearer`) for its own runs. The file is answered as CSV,
// streamed from its stored chunks a few at a time. Errors are rendered by the one renderer, in this
// door's body ({ error: { code, message } }).
import express, { type Request, type Response } from 'express';
import { AppError, notFound, reportFileExpired, reportLinkInvalid } from '../kernel/errors.js';
import { isDatabaseId } from '../kernel/ids.js';
import { principalForLog, requirePartnerTenant } from '../modules/auth/principal.js';
import { checkSignedLink, REPORT_FILES_PATH } from '../modules/reports/links.js';
import { fileChunks, reportRunOf } from '../modules/reports/queries.js';
import type { ReportRunRow } from '../modules/reports/rows.js';
import { createContext, type ServiceDeps } from '../pipeline/context.js';
import { bearerCredential } from './credentials.js';
import { allowOnly, READ_METHODS, sendError, sendUnexpectedError } from './errorResponses.js';
import { setRateLimitHeaders } from './rateLimitHeaders.js';

const ROUTE = `${REPORT_FILES_PATH}/:id`;
/** Chunks read per statement while streaming: 1 MiB at most held at once. */
const CHUNKS_PER_READ = 4;

/** Resolves once the answer can take more, or the client has gone. */
const drained = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });

/** A query parameter given once, or undefined; given twice it is no link of ours. */
function single(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw reportLinkInvalid();
  return value;
}

/** The run the request may read: by its signed link, else the partner key's own (404 for any other). */
async function runOfRequest(service: ServiceDeps, req: Request, res: Response): Promise<ReportRunRow> {
  const id = String(req.params.id ?? '');
  const expires = single(req, 'expires');
  const signature = single(req, 'signature');
  // Either way under the request limits: a link is a request without a credential, counted by address.
  const ctx = await createContext(service, {
    credential: {
      value:
        expires === undefined && signature === undefined
          ? bearerCredential(req.get('authorization'), 'API key')
          : undefined,
      expected: "a signed link (expires and signature) or the partner's API key",
      presentedAs: 'Authorization header (Bearer)',
    },
    requestId: (res.locals.requestId as string | undefined) ?? '',
    clientAddress: req.ip ?? null,
    onQuota: (quota) => setRateLimitHeaders(res, quota),
  });
  res.locals.principal = principalForLog(ctx.auth.principal);
  if (expires !== undefined || signature !== undefined) {
    const run = isDatabaseId(id) ? await reportRunOf(service.db, null, id) : undefined;
    checkSignedLink(run, expires ?? '', signature ?? '', service.now());
    return run!;
  }
  const partnerId = requirePartnerTenant(ctx, ['partner']);
  const run = isDatabaseId(id) ? await reportRunOf(service.db, partnerId, id) : undefined;
  if (!run) throw notFound('report run', id);
  return run;
}

/** The run's file, or why there is none: not made (404), or deleted past its retention (410). */
function requireFile(run: ReportRunRow, now: Date): void {
  if (run.state !== 'SUCCEEDED')
    throw new AppError('RESOURCE_NOT_FOUND', `report run ${run.id} has no file: it is ${run.state}`, {
      resource: 'report file',
    });
  if (run.expires_at && run.expires_at <= now) throw reportFileExpired(run.id, run.expires_at);
}

async function download(service: ServiceDeps, req: Request, res: Response): Promise<void> {
  const run = await runOfRequest(service, req, res);
  requireFile(run, service.now());
  const first = await fileChunks(service.db, run, 0, CHUNKS_PER_READ);
  // Its chunks gone before the retention's hour came round to the run: deleted all the same.
  if (first.length === 0 && Number(run.byte_size) > 0) throw reportFileExpired(run.id, run.expires_at ?? new Date());
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${run.type.toLowerCase()}-${run.id}.csv"`,
    'Content-Length': String(run.byte_size),
    ETag: `"${run.sha256}"`,
    'Cache-Control': 'private, no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  let chunks = first;
  while (chunks.length > 0 && !res.destroyed) {
    for (const chunk of chunks) if (!res.write(chunk.bytes)) await drained(res);
    if (chunks.length < CHUNKS_PER_READ) break;
    chunks = await fileChunks(service.db, run, chunks[chunks.length - 1]!.seq + 1, CHUNKS_PER_READ);
  }
  res.end();
}

export function createReportsDoor(service: ServiceDeps): express.Router {
  const router = express.Router();
  router.all(ROUTE, allowOnly(ROUTE, READ_METHODS), (req, res) => {
    res.locals.route = ROUTE;
    download(service, req, res).catch((error: unknown) => {
      // Past the headers only the connection can say it failed: the client sees a short body.
      if (res.headersSent) return void res.destroy(error instanceof Error ? error : undefined);
      if (error instanceof AppError) return sendError(res, 'reports', error);
      sendUnexpectedError(res, 'reports', error, service, ROUTE);
    });
  });
  return router;
}
