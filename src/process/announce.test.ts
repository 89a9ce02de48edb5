import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Config } from '../kernel/config.js';
import { announcePreparing } from './announce.js';

const development = { production: false } as Config;
const production = { production: true } as Config;

function capture() {
  const lines: string[] = [];
  const logger = pino(
    { base: undefined, timestamp: false },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk).trim());
        done();
      },
    }),
  );
  return { lines, logger };
}

describe('announcePreparing', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says one plain-text line outside production, naming the work', () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((text) => {
      written.push(String(text));
      return true;
    });
    const { lines, logger } = capture();
    announcePreparing(development, logger, { migrations: 27, demoData: true });
    announcePreparing(development, logger, { migrations: 1, demoData: false });
    announcePreparing(development, logger, { migrations: 0, demoData: true });
    expect(written).toEqual([
      'preparing the database: applying 27 migrations, then loading the demo data set ...\n',
      'preparing the database: applying 1 migration ...\n',
      'preparing the database: loading the demo data set ...\n',
    ]);
    expect(lines).toEqual([]);
  });

  it('is one JSON line of the log in production', () => {
    const write = vi.spyOn(process.stdout, 'write');
    const { lines, logger } = capture();
    announcePreparing(production, logger, { migrations: 3, demoData: false });
    expect(write).not.toHaveBeenCalled();
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 30, migrations: 3, demoData: false, msg: 'preparing the database' },
    ]);
  });
});
