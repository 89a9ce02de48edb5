import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from './databaseUrl.js';

describe('parseDatabaseUrl', () => {
  it('keeps a single-host URL as it is, with no session requirement', () => {
    expect(parseDatabaseUrl('postgres://app:secret@db:5432/financing')).toEqual({
      hostUrls: ['postgres://app:secret@db:5432/financing'],
      hostNames: ['db:5432'],
      targetSessionAttrs: 'any',
    });
  });

  it("splits libpq's multi-host form into one URL per host, in order, without target_session_attrs", () => {
    const address = parseDatabaseUrl(
      'postgresql://app:p%40ss@10.0.0.1:5432,10.0.0.2:5433,db3/financing?sslmode=disable&target_session_attrs=read-write',
    );
    expect(address.hostUrls).toEqual([
      'postgresql://app:p%40ss@10.0.0.1:5432/financing?sslmode=disable',
      'postgresql://app:p%40ss@10.0.0.2:5433/financing?sslmode=disable',
      'postgresql://app:p%40ss@db3/financing?sslmode=disable',
    ]);
    expect(address.hostNames).toEqual(['10.0.0.1:5432', '10.0.0.2:5433', 'db3:5432']);
    expect(address.targetSessionAttrs).toBe('read-write');
    expect(parseDatabaseUrl('postgres://a,b/x?target_session_attrs=primary').targetSessionAttrs).toBe('read-write');
  });

  it('refuses what would connect wrongly: other schemes, empty hosts, bad ports, several hosts without read-write', () => {
    expect(() => parseDatabaseUrl('mysql://db/x')).toThrow(/postgres:\/\//);
    expect(() => parseDatabaseUrl('postgres://a,,b/x?target_session_attrs=read-write')).toThrow(/empty host/);
    expect(() => parseDatabaseUrl('postgres://a:1,b:port/x?target_session_attrs=read-write')).toThrow(/b:port/);
    expect(() => parseDatabaseUrl('postgres://a,b/x')).toThrow(/target_session_attrs=read-write/);
    expect(() => parseDatabaseUrl('postgres://a,b/x?target_session_attrs=standby')).toThrow(/standby/);
  });
});
