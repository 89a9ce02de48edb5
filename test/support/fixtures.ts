// The usual whole-service fixture: a fresh seeded database and the service over it, for one test file.
import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase, type TestDatabaseOptions } from './db.js';
import { startTestService, type TestService, type TestServiceOptions } from './service.js';

export interface ServiceFixture {
  database: TestDatabase;
  service: TestService;
}

/**
 * Registers beforeAll/afterAll hooks; the returned object is filled in before the first test runs.
 * With `now`, the seed and the service share that one fixed clock, so figures relative to T are exact.
 * `service` adds options of the service (its background tasks). Called inside a describe, the database
 * and the service are that describe's alone.
 */
export function useSeededService(
  options: TestDatabaseOptions = {},
  service: Pick<TestServiceOptions, 'background'> = {},
): ServiceFixture {
  const fixture = {} as ServiceFixture;
  beforeAll(async () => {
    fixture.database = await createTestDatabase(options);
    const now = options.now;
    fixture.service = await startTestService(fixture.database.db, { ...service, ...(now ? { now: () => now } : {}) });
  });
  afterAll(async () => {
    await fixture.service?.close();
    await fixture.database?.destroy();
  });
  return fixture;
}
