// Report runs through the service's doors (docs/decisions.md 45), on PGlite and Postgres: who may ask
// and read; the window's refusals; a TRANSACTIONS file equal row for row to list-transactions of the
// same window (3,000 bulk transactions and the demo's: several 256 KiB chunks, streamed); its download by
// the signed link (altered or expired refused; a sandbox clock far ahead does not expire it) and by the
// partner key (another partner's run 404, and null in reportRun). The rest of a run's life:
// report-lifecycle.test.ts; the workers' claims: report-workers.test.ts.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES } from '../../src/modules/reports/chunkedFile.js';
import { TRANSACTION_COLUMNS } from '../../src/modules/reports/transactionsFile.js';
import { addBulkOrders } from '../support/bulk.js';
import { useSeededService } from '../support/fixtures.js';
import {
  CREATE_REPORT_RUN,
  graphqlData,
  graphqlRefusal,
  OPERATOR,
  PARTNER,
  REPORT_RUN,
  reportWorker,
} from '../support/reports.js';
import { startTestService } from '../support/service.js';

const fixture = useSeededService();
const db = () => fixture.database.db;
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

let worker: Awaited<ReturnType<typeof reportWorker>>;
beforeAll(async () => {
  worker = await reportWorker(db());
});
afterAll(async () => {
  await worker?.close();
});

const create = (headers: Record<string, string>, input: Record<string, unknown>) =>
  graphqlData(fixture.service, headers, CREATE_REPORT_RUN, { input }).then((data) => data.createReportRun);
const refusal = (headers: Record<string, string>, input: Record<string, unknown>) =>
  graphqlRefusal(fixture.service, headers, CREATE_REPORT_RUN, { input });
const readRun = (headers: Record<string, string>, id: string) =>
  graphqlData(fixture.service, headers, REPORT_RUN, { id }).then((data) => data.reportRun);

/** Parses the file (RFC 4180, as written: CRLF records, quoted fields) into records of fields. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    i += 1;
    if (quoted && c === '"' && next === '"') {
      field += '"';
      i += 1;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) field += c;
    else if (c === '"') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && next === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  expect(field, 'the file ends with CRLF').toBe('');
  return records;
}

const DEMO_PARTNER = '1';

describe('asking for a report run', () => {
  const window = () => ({ start: now() - 30 * DAY, end: now() - 60 });

  it("answers PENDING to a partner key for its own partner and to an operator; another partner's id, retail and vendor keys are FORBIDDEN", async () => {
    const own = await create(PARTNER, { partnerId: DEMO_PARTNER, type: 'TRANSACTIONS', ...window() });
    expect(own).toMatchObject({ partnerId: DEMO_PARTNER, type: 'TRANSACTIONS', state: 'PENDING', downloadUrl: null });
    const operator = await create(OPERATOR, { partnerId: DEMO_PARTNER, type: 'AGEING' });
    expect(operator).toMatchObject({ type: 'AGEING', state: 'PENDING', start: null, end: null });
    expect(Math.abs(operator.asOf - now())).toBeLessThan(60);
    const other = await refusal({ 'x-api-key': 'other-partner-key' }, { partnerId: DEMO_PARTNER, type: 'AGEING' });
    expect(other.extensions.code).toBe('FORBIDDEN');
    for (const key of ['demo-retail-key', 'demo-vendor-key']) {
      const error = await refusal({ 'x-api-key': key }, { partnerId: DEMO_PARTNER, type: 'AGEING' });
      expect(error.extensions.code).toBe('FORBIDDEN');
    }
    expect((await refusal(OPERATOR, { partnerId: '999999', type: 'AGEING' })).extensions.code).toBe(
      'RESOURCE_NOT_FOUND',
    );
    await worker.drain();
  });

  it('refuses a window missing, reversed, too long or in the future, and arguments the type does not take', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ type: 'TRANSACTIONS', end: now() - DAY }, 'input.start'],
      [{ type: 'TRANSACTIONS', start: now() - DAY }, 'input.end'],
      [{ type: 'TRANSACTIONS', start: now() - DAY, end: now() - 2 * DAY }, 'input.end'],
      [{ type: 'TRANSACTIONS', start: now() - 400 * DAY, end: now() - DAY }, 'input.end'],
      [{ type: 'TRANSACTIONS', start: now() - DAY, end: now() + DAY }, 'input.end'],
      [{ type: 'PORTFOLIO_HISTORY', start: now() - DAY }, 'input.end'],
      [{ type: 'AGEING', asOf: now() + 3600 }, 'input.asOf'],
      [{ type: 'AGEING', start: now() - DAY }, 'input.start'],
      [{ type: 'TRANSACTIONS', start: now() - 2 * DAY, end: now() - DAY, asOf: now() }, 'input.asOf'],
    ];
    for (const [input, argument] of cases) {
      const error = await refusal(PARTNER, { partnerId: DEMO_PARTNER, ...input });
      expect(error.extensions, JSON.stringify(input)).toMatchObject({ code: 'INVALID_ARGUMENT', argument });
    }
  });
});

/** A legacy item as the file's record should hold it, flattened here on its own terms. */
function expectedRecord(item: unknown): string[] {
  return TRANSACTION_COLUMNS.map((column) => {
    let value: unknown = item;
    for (const key of column.split('.')) value = (value as Record<string, unknown> | undefined)?.[key];
    if (value === undefined || value === null) return '';
    if (typeof value === 'number')
      return column === 'time' || column === 'payment.timestamp' ? new Date(value * 1000).toISOString() : String(value);
    return /^[=+\-@\t\r]/.test(String(value)) ? `'${value}` : String(value);
  });
}

async function download(path: string, headers: Record<string, string> = {}) {
  const response = await fixture.service.request(path, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

describe('a TRANSACTIONS file', () => {
  let run: any;
  let listed: unknown[];
  let start: number;
  let end: number;

  beforeAll(async () => {
    // 3,000 transactions over the last 84 days, beside the demo's.
    await addBulkOrders(db(), 1000, new Date(Date.now() - 3600_000));
    start = now() - 200 * DAY;
    end = now() - 60;
    const response = await fixture.service.request(
      `/v1/list-transactions.php?key=demo-partner-key&starttime=${start}&endtime=${end}`,
    );
    expect(response.status).toBe(200);
    listed = ((await response.json()) as { transactions: unknown[] }).transactions;
    expect(listed.length).toBeGreaterThan(3000);
    const { id } = await create(PARTNER, { partnerId: DEMO_PARTNER, type: 'TRANSACTIONS', start, end });
    expect(await worker.drain()).toBeGreaterThan(0);
    run = await readRun(PARTNER, id);
  });

  it('succeeds with exactly the items list-transactions answers, in its order, amounts written as it writes them', async () => {
    expect(run).toMatchObject({ state: 'SUCCEEDED', start, end, asOf: null, failureReason: null });
    expect(run.rowCount).toBe(listed.length);
    expect(run.downloadUrl).toMatch(
      new RegExp(`^/reports/v1/files/${run.id}\\?expires=\\d+&signature=[A-Za-z0-9_-]{43}$`),
    );
    const file = await download(run.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.text.charCodeAt(0)).not.toBe(0xfeff);
    const [header, ...records] = parseCsv(file.text);
    expect(header).toEqual([...TRANSACTION_COLUMNS]);
    expect(records).toHaveLength(listed.length);
    expect(records).toEqual(listed.map(expectedRecord));
    // Amounts as the list writes them: the shortest form of the number (18, not 18.00).
    const cash = records.find((record) => record[0] === 'cash')!;
    expect(cash[2]).toBe('-18');
  });

  it('answers the file streamed from several 256 KiB chunks, with its length, its SHA-256 as the ETag, as an attachment', async () => {
    const file = await download(run.downloadUrl);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="transactions-${run.id}.csv"`);
    expect(Number(file.headers.get('content-length'))).toBe(file.bytes.length);
    expect(file.bytes.length).toBe(run.byteSize);
    expect(file.headers.get('etag')).toBe(`"${createHash('sha256').update(file.bytes).digest('hex')}"`);
    const chunks = await db()('report_file_chunks')
      .where({ run_id: run.id })
      .orderBy('seq')
      .select('seq', db().raw('length(bytes) as size'));
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    expect(chunks.map((chunk) => chunk.seq)).toEqual(chunks.map((_chunk, i) => i));
    for (const chunk of chunks.slice(0, -1)) expect(Number(chunk.size)).toBe(CHUNK_BYTES);
    expect(file.text.split('\r\n').length - 1).toBe(run.rowCount + 1);
  });

  it("is served with the partner key; another partner's key finds no such run (404, and null in reportRun)", async () => {
    const own = await download(`/reports/v1/files/${run.id}`, { authorization: 'Bearer demo-partner-key' });
    expect(own.status).toBe(200);
    expect(own.bytes.length).toBe(run.byteSize);
    expect(own.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    const head = await fixture.service.request(`/reports/v1/files/${run.id}`, {
      method: 'HEAD',
      headers: { authorization: 'Bearer demo-partner-key' },
    });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(run.byteSize);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const post = await fixture.service.request(`/reports/v1/files/${run.id}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const other = await download(`/reports/v1/files/${run.id}`, { authorization: 'Bearer other-partner-key' });
    expect(other.status).toBe(404);
    expect(JSON.parse(other.text)).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const unknown = await download('/reports/v1/files/987654321', { authorization: 'Bearer demo-partner-key' });
    expect(unknown.status).toBe(404);
    expect(await readRun({ 'x-api-key': 'other-partner-key' }, run.id)).toBeNull();
    expect((await readRun(OPERATOR, run.id)).id).toBe(run.id);
    const retail = await download(`/reports/v1/files/${run.id}`, { authorization: 'Bearer demo-retail-key' });
    expect(retail.status).toBe(403);
    const none = await download(`/reports/v1/files/${run.id}`);
    expect(JSON.parse(none.text).error.code).toBe('MISSING_API_KEY');
    expect(none.status).toBe(401);
  });

  it('refuses a link whose signature, id or expiry was altered (403 REPORT_LINK_INVALID)', async () => {
    const url = new URL(run.downloadUrl, 'http://x');
    const expires = url.searchParams.get('expires')!;
    const signature = url.searchParams.get('signature')!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const otherRun = (await db()('report_runs').whereNot({ id: run.id }).first('id')).id;
    for (const path of [
      `/reports/v1/files/${run.id}?expires=${expires}&signature=${flipped}`,
      `/reports/v1/files/${otherRun}?expires=${expires}&signature=${signature}`,
      `/reports/v1/files/${run.id}?expires=${Number(expires) + 3600}&signature=${signature}`,
      `/reports/v1/files/${run.id}?expires=${expires}`,
      `/reports/v1/files/${run.id}?expires=${expires}&signature=${signature}&signature=${signature}`,
    ]) {
      const answer = await download(path);
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.text), path).toEqual({
        error: { code: 'REPORT_LINK_INVALID', message: expect.any(String) },
      });
    }
  });

  it('refuses the link after 15 minutes of real time (403 REPORT_LINK_EXPIRED), whatever the sandbox clock says', async () => {
    // The partner's sandbox clock a year ahead: links and files live by real time.
    await graphqlData(
      fixture.service,
      OPERATOR,
      'mutation($input: SetSandboxClockInput!) { setSandboxClock(input: $input) { now } }',
      {
        input: { partnerId: DEMO_PARTNER, now: now() + 365 * DAY },
      },
    );
    const link = (await readRun(PARTNER, run.id)).downloadUrl;
    expect((await download(link)).status).toBe(200);
    // The same service 16 minutes later by its real clock.
    const later = await startTestService(db(), { now: () => new Date(Date.now() + 16 * 60_000) });
    try {
      const answer = await later.request(link);
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as any).error.code).toBe('REPORT_LINK_EXPIRED');
      const keyed = await later.request(`/reports/v1/files/${run.id}`, {
        headers: { authorization: 'Bearer demo-partner-key' },
      });
      expect(keyed.status).toBe(200);
      await keyed.arrayBuffer();
    } finally {
      await later.close();
    }
    await graphqlData(fixture.service, OPERATOR, 'mutation($id: ID!) { resetSandboxClock(partnerId: $id) { now } }', {
      id: DEMO_PARTNER,
    });
  });
});
