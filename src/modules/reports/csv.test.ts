// The files' CSV (docs/decisions.md 45): RFC 4180 quoting, CRLF, the formula guard on text only, amounts
// as the legacy list writes them, and chunks of exactly 256 KiB with the file's size and hash.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, ChunkedFile } from './chunkedFile.js';
import { csvLine, isoTime, majorUnits, majorUnitsOf, text } from './csv.js';

describe('csvLine', () => {
  it('quotes a field holding a comma, a quote or a line break, doubling quotes, and ends with CRLF', () => {
    expect(csvLine([text('plain'), text('a,b'), text('say "hi"'), text('two\nlines'), text('cr\rhere')])).toBe(
      'plain,"a,b","say ""hi""","two\nlines","cr\rhere"\r\n',
    );
    expect(csvLine([null, text(null), '', 0])).toBe(',,,0\r\n');
  });

  it("writes a text field a spreadsheet would take for a formula after a ', and numbers as they are", () => {
    expect(csvLine(['=1+1', '-18', -18, 3.5].map((value, i) => (i === 0 ? text(String(value)) : value)))).toBe(
      "'=1+1,-18,-18,3.5\r\n",
    );
    for (const start of ['=', '+', '-', '@', '\t']) expect(csvLine([text(`${start}x`)])).toBe(`'${start}x\r\n`);
    expect(csvLine([text('\rx')])).toBe(`"'\rx"\r\n`);
    expect(csvLine([text('=HYPERLINK("http://x")')])).toBe(`"'=HYPERLINK(""http://x"")"\r\n`);
  });

  it('writes amounts in major units as the legacy list does, times ISO 8601 with milliseconds', () => {
    expect(['18.00', '0.90', '-214.50', '420'].map(majorUnits)).toEqual(['18', '0.9', '-214.5', '420']);
    expect(majorUnitsOf(1800n, 'USD')).toBe('18');
    expect(majorUnitsOf('-5', 'USD')).toBe('-0.05');
    expect(isoTime(new Date(Date.UTC(2026, 10, 28, 10)))).toBe('2026-11-28T10:00:00.000Z');
  });
});

describe('ChunkedFile', () => {
  it('stores full 256 KiB chunks as they fill and the rest at the end, with the size and SHA-256 of the whole', async () => {
    const stored: Buffer[] = [];
    const file = new ChunkedFile(async (seq, bytes) => {
      expect(seq).toBe(stored.length);
      stored.push(Buffer.from(bytes));
    });
    const line = `${'é'.repeat(500)},x\r\n`;
    let whole = '';
    for (let i = 0; i < 700; i++) {
      await file.append(line);
      whole += line;
      // Never more than a chunk held back.
      expect(Buffer.byteLength(whole) - stored.reduce((n, chunk) => n + chunk.length, 0)).toBeLessThan(CHUNK_BYTES);
    }
    const written = await file.finish();
    const bytes = Buffer.from(whole, 'utf8');
    expect(Buffer.concat(stored).equals(bytes)).toBe(true);
    expect(stored.slice(0, -1).every((chunk) => chunk.length === CHUNK_BYTES)).toBe(true);
    expect(written).toEqual({
      byteSize: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      chunks: stored.length,
    });
    expect(stored.length).toBe(Math.ceil(bytes.length / CHUNK_BYTES));
  });
});
