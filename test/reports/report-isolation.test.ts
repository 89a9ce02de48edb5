// Tenant isolation of report runs (docs/decisions.md 45), by the walk of test/graph/tenant-isolation-*:
// with partner A's keys, B's run is answered exactly as a run that does not exist (reportRun null, the
// download 404 with the key, a link for it invalid), B's runs are never listed, and asking for a run of
// B's partner is FORBIDDEN as for a partner that does not exist, writing nothing; retail keys FORBIDDEN.
// Then the same the other way round.
import { describe, expect, it } from 'vitest';
import { asGhost, errorCode, expectNothingOf, gql, rest } from '../support/tenantWalk/answers.js';
import { scalarsOf } from '../support/tenantWalk/graphWalk.js';
import { useTenantWalk, walkBothWays } from '../support/tenantWalk/tenants.js';

useTenantWalk();

walkBothWays((self, victim) => {
  const v = () => victim().known;

  describe('report runs', () => {
    it("reportRun(B's run id) is null with A's partner key, FORBIDDEN with its retail key", async () => {
      const query = `query($id: ID!) { reportRun(id: $id) ${scalarsOf('ReportRun')} }`;
      const own = await asGhost(
        victim(),
        { reportRunId: v().reportRunId },
        (values) => gql(self().partnerKey, query, { id: values.reportRunId }),
        'reportRun',
      );
      expect(own.json).toEqual({ data: { reportRun: null } });
      const retail = await asGhost(
        victim(),
        { reportRunId: v().reportRunId },
        (values) => gql(self().retailKey, query, { id: values.reportRunId }),
        'reportRun, retail key',
      );
      expect(errorCode(retail)).toBe('FORBIDDEN');
    });

    it("reportRuns naming B's partner lists A's own runs only", async () => {
      const listed = await asGhost(
        victim(),
        { partnerId: v().partnerId },
        (values) =>
          gql(self().partnerKey, `query($p: ID) { reportRuns(partnerId: $p) { nodes ${scalarsOf('ReportRun')} } }`, {
            p: values.partnerId,
          }),
        'reportRuns(partnerId)',
      );
      expect(listed.json.data.reportRuns.nodes.map((run: { id: string }) => run.id)).toEqual([
        self().known.reportRunId,
      ]);
    });

    it("the file of B's run with A's partner key is 404 as an unknown run's; a made-up link for it is invalid", async () => {
      const keyed = await asGhost(
        victim(),
        { reportRunId: v().reportRunId },
        (values) => rest(`/reports/v1/files/${values.reportRunId}`, { authorization: `Bearer ${self().partnerKey}` }),
        'report file with a key',
      );
      expect(keyed.status).toBe(404);
      const linked = await asGhost(
        victim(),
        { reportRunId: v().reportRunId },
        (values) => rest(`/reports/v1/files/${values.reportRunId}?expires=9999999999&signature=${'A'.repeat(43)}`),
        'report file by a made-up link',
      );
      expect(linked.json.error.code).toBe('REPORT_LINK_INVALID');
    });

    it("createReportRun for B's partner is FORBIDDEN as for no partner, writing nothing; retail keys: FORBIDDEN", async () => {
      const mutation = 'mutation($p: ID!) { createReportRun(input: { partnerId: $p, type: AGEING }) { id } }';
      for (const key of [self().partnerKey, self().retailKey]) {
        const answer = await asGhost(
          victim(),
          { partnerId: v().partnerId },
          (values) => gql(key, mutation, { p: values.partnerId }),
          'createReportRun',
        );
        expect(errorCode(answer)).toBe('FORBIDDEN');
        expectNothingOf(victim(), answer, 'createReportRun');
      }
    });
  });
});
