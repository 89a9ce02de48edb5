// The report files' door in the OpenAPI document (src/http/reportsDoor.ts, docs/decisions.md 45): a run's
// CSV by its signed link (ReportRun.downloadUrl) or with the partner's API key.
import {
  AppError,
  missingApiKey,
  notFound,
  rateLimited,
  reportFileExpired,
  reportLinkExpired,
  reportLinkInvalid,
} from '../kernel/errors.js';
import { errorAnswer, rendered } from './openapiExamples.js';
import { errorResponse, type Parameter, rateLimitedResponse, str, successHeaders } from './openapiSchemas.js';

export const REPORTS_TAG = 'Report files';

export const reportsTag = {
  name: REPORTS_TAG,
  description:
    "/reports/v1: the files of report runs (createReportRun on /graphql; docs/decisions.md 45, formats in docs/integrating.md#report-files), by the signed link ReportRun.downloadUrl gives (valid 15 minutes) or with the partner's API key. Errors: { error: { code, message } }.",
};

export const reportsSecuritySchemes = {
  reportsBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      "On /reports/v1/files, Authorization: Bearer with the partner's API key (or an access token it bought), for its own runs; a signed link needs none.",
  },
};

const reportsError = (description: string, error: AppError, summary: string) =>
  errorResponse('reports', description, rendered('reports', error, summary));

const EXAMPLE_CSV =
  'type,time,amount,currency,merchant.id,merchant.name,...\r\ncash,2026-06-10T15:30:00.000Z,18,USD,2000001,DEMO STORE,...\r\n';

const FILE_PARAMETERS: Parameter[] = [
  {
    name: 'id',
    in: 'path',
    required: true,
    description: "The run's id.",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'expires',
    in: 'query',
    required: false,
    description: "A signed link's expiry, Unix seconds (real time), as downloadUrl gives it.",
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'signature',
    in: 'query',
    required: false,
    description: "A signed link's signature (base64url HMAC-SHA256), as downloadUrl gives it.",
    schema: { type: 'string' },
  },
];

export const reportPaths = {
  '/reports/v1/files/{id}': {
    get: {
      operationId: 'downloadReportFile',
      tags: [REPORTS_TAG],
      summary: "A report run's file",
      description:
        "The CSV file of a SUCCEEDED report run (RFC 4180, UTF-8, CRLF, a fixed header row per type: docs/integrating.md#report-files), streamed, with its length and its SHA-256 as the ETag. Either the signed link of ReportRun.downloadUrl (expires and signature, valid 15 minutes of real time; no credential), or the partner's API key as Authorization: Bearer for one of its own runs. Another partner's run, or an unknown one, is 404 with the key; a link names one run and cannot be altered. The file is kept REPORT_RETENTION_DAYS (30) after the run succeeded, then 410.",
      security: [{ reportsBearer: [] }, {}],
      parameters: FILE_PARAMETERS,
      responses: {
        '200': {
          description: 'The file.',
          headers: {
            ...successHeaders,
            'Content-Disposition': { description: 'attachment; filename="<type>-<id>.csv"', schema: str() },
            ETag: { description: "The file's SHA-256 (hex), quoted.", schema: str() },
          },
          content: { 'text/csv; charset=utf-8': { schema: { type: 'string' }, example: EXAMPLE_CSV } },
        },
        '401': reportsError(
          'MISSING_API_KEY (no link and no key), INVALID_API_KEY or INVALID_ACCESS_TOKEN (a key that is not valid, or an Authorization header that is not "Bearer <key>").',
          missingApiKey(
            "a signed link (expires and signature) or the partner's API key",
            'Authorization header (Bearer)',
          ),
          'neither a link nor a key',
        ),
        '403': errorResponse(
          'reports',
          'REPORT_LINK_INVALID (a signature that does not match the run and expiry: altered, or not made here), REPORT_LINK_EXPIRED (the link is past its 15 minutes: read downloadUrl again), or FORBIDDEN (a retail, vendor or operator key: operators use downloadUrl).',
          {
            ...rendered('reports', reportLinkInvalid(), 'an altered link'),
            ...rendered('reports', reportLinkExpired(), 'a link past its 15 minutes'),
          },
        ),
        '404': reportsError(
          "RESOURCE_NOT_FOUND: with a key, no run of the key's partner has this id; or the run has no file (PENDING, RUNNING or FAILED).",
          notFound('report run', '123'),
          "another partner's run",
        ),
        '405': reportsError(
          'METHOD_NOT_ALLOWED: this path takes GET and HEAD only (see the Allow header).',
          new AppError('METHOD_NOT_ALLOWED', '/reports/v1/files/:id accepts GET or HEAD only, not POST'),
          'a POST',
        ),
        '410': reportsError(
          'REPORT_FILE_EXPIRED: the file was deleted REPORT_RETENTION_DAYS after the run succeeded (the run stays).',
          reportFileExpired('123', new Date('2026-07-10T15:30:00Z')),
          'a file past its retention',
        ),
        '429': rateLimitedResponse(
          'reports',
          'RATE_LIMITED: the key made more requests than its limit, or (a link, without a credential) the address made too many requests without one. Retry after Retry-After seconds.',
          rendered(
            'reports',
            rateLimited('too many requests without a credential from this address', 42),
            'an address past its quota',
          ),
        ),
        '503': errorAnswer('reports', 503, 'SERVICE_UNAVAILABLE: the database cannot be reached.'),
      },
    },
  },
};
