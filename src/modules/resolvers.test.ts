// The shape of a write (STYLE.md): resolvers only check, call and shape. Data access and transaction
// boundaries live in the domain's query and operation files, and the audit trail is written only by
// audited() (audit/record.ts), in the action's own transaction.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const MODULES = new URL('.', import.meta.url).pathname;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const KNEX_CALL = [
  /\bctx\.(primary|reads\.db)\s*[.(<]/, // ctx.primary.transaction(...), ctx.reads.db('table'), ctx.primary<Row>(...)
  /\btrx\b/, // a transaction handled in the resolver
  /\bdb\s*(<[^>]*>)?\s*\(/, // db('table')
  /\.(insert|update|delete|del|where\w*|forUpdate|forShare|raw|transaction|returning|onConflict|count)\(/,
];

describe('resolvers', () => {
  it('make no Knex call and open no transaction: they check, call the domain, and shape', () => {
    const calls = sourcesUnder(MODULES)
      .filter((path) => path.endsWith('/resolvers.ts'))
      .flatMap((path) =>
        readFileSync(path, 'utf8')
          .split('\n')
          .map((line, index) => ({ where: `${path.slice(MODULES.length)}:${index + 1}`, line })),
      )
      .filter(({ line }) => KNEX_CALL.some((pattern) => pattern.test(line)))
      .map(({ where, line }) => `${where}: ${line.trim()}`);
    expect(calls).toEqual([]);
  });

  it("write the audit trail only through audited(), in the action's transaction", () => {
    const writers = sourcesUnder(join(MODULES, '..'))
      .filter((path) => /\binsertAuditEvent\(/.test(readFileSync(path, 'utf8')))
      .map((path) => path.slice(MODULES.length - 'modules/'.length));
    expect(writers.sort()).toEqual(['modules/audit/queries.ts', 'modules/audit/record.ts']);
  });
});
