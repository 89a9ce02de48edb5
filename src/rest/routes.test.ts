// The route table declares what each route needs of its caller, and its types reach the handler
// without casts: what the table says is what the handler checks and what the mappers receive.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LEGACY_ROUTES } from './routes.js';

describe('the legacy route table', () => {
  it('declares the principal each route needs: partner routes a partner tenant, the token route none', () => {
    const needs = Object.fromEntries(LEGACY_ROUTES.map((route) => [route.name, route.principal]));
    expect(needs).toEqual({
      'create-access-token': 'none',
      'create-payment-notification': 'any',
      'reverse-payment': 'any',
      'get-repayment-options': 'any',
      'list-clerks': 'partner-tenant',
      'list-merchants': 'partner-tenant',
      'lookup-customer': 'partner-tenant',
      'lookup-cart': 'partner-tenant',
      'list-transactions': 'partner-tenant',
      'record-customer-payment': 'partner-tenant',
    });
    // A route that reads no credential cannot need a principal, and one that reads one needs one.
    for (const route of LEGACY_ROUTES)
      expect(route.credential.in === 'none', route.name).toBe(route.principal === 'none');
  });

  it('is typed end to end: no cast to never or string, no route of never, anywhere in src/rest', () => {
    const folder = new URL('./', import.meta.url);
    const offending = readdirSync(folder)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .flatMap((file) =>
        readFileSync(new URL(file, folder), 'utf8')
          .split('\n')
          .map((line, index) => ({ where: `${file}:${index + 1}`, line }))
          .filter(({ line }) => /as never|as string|LegacyRoute<never>/.test(line)),
      );
    expect(offending).toEqual([]);
  });

  it('keeps its rule out of the door: the handler calls no per-route principal check of the auth module', () => {
    const handler = readFileSync(new URL('./handler.ts', import.meta.url), 'utf8');
    expect(handler).not.toMatch(/requirePrincipal\b|requirePartnerTenant\b/);
    expect(handler).toMatch(/requireRoutePrincipal\(contextValue, route\.principal\)/);
  });
});
