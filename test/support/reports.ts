// Report runs in the suites (docs/decisions.md 45): asking for one on the graph, running the workers'
// batches until none is left, and reading a run back.
import { expect } from 'vitest';
import type { Db } from '../../src/db/knex.js';
import { createLogger } from '../../src/kernel/logger.js';
import { startPartnerPolicies } from '../../src/modules/partners/policies.js';
import { type ReportWorkerDeps, runNextReport } from '../../src/modules/reports/run.js';
import type { TestService } from './service.js';

export const REPORT_RUN_FIELDS =
  'id partnerId type state start end asOf createdAt startedAt finishedAt failureReason rowCount byteSize expiresAt downloadUrl';

export const CREATE_REPORT_RUN = `mutation ($input: CreateReportRunInput!) { createReportRun(input: $input) { ${REPORT_RUN_FIELDS} } }`;
export const REPORT_RUN = `query ($id: ID!) { reportRun(id: $id) { ${REPORT_RUN_FIELDS} } }`;

export const PARTNER = { 'x-api-key': 'demo-partner-key' };
export const OPERATOR = { 'x-api-key': 'demo-operator-key' };

/** The graph's answer, failing the test on any error. */
export async function graphqlData(
  service: TestService,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<any> {
  const { status, body } = await service.graphql(query, headers, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}

/** The one error of a refused operation. */
export async function graphqlRefusal(
  service: TestService,
  headers: Record<string, string>,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ message: string; extensions: { code: string } }> {
  const { body } = await service.graphql(query, headers, variables);
  expect(body.errors, 'a refusal').toHaveLength(1);
  return body.errors[0];
}

/** A worker's dependencies over `db`, with the partners' clocks as the database has them. */
export async function reportWorker(db: Db, overrides: Partial<ReportWorkerDeps> = {}) {
  const running = await startPartnerPolicies(db, {
    realNow: () => new Date(),
    production: false,
    logger: createLogger('silent'),
  });
  const deps: ReportWorkerDeps = {
    db,
    logger: createLogger('silent'),
    now: () => new Date(),
    policies: running.policies,
    perPartner: 2,
    retentionDays: 30,
    ...overrides,
  };
  return {
    deps,
    /** Runs batches until none claims a run; answers how many were claimed. */
    drain: async () => {
      let claimed = 0;
      while ((await runNextReport(deps)) > 0) claimed++;
      return claimed;
    },
    close: () => running.close(),
  };
}
