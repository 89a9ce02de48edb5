// The GraphQL over HTTP conformance audit of the `graphql-http` package, run against /graphql. Every
// audit is a test of its own: a failing MUST fails the suite; a failing SHOULD or MAY is a
// recommendation, listed by the last test (console.info), never a failure.
import { type Audit, type AuditRequirement, type AuditResult, serverAudits } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { useSeededService } from '../support/fixtures.js';

const fixture = useSeededService();
const graphqlUrl = () => `${fixture.service.baseUrl}/graphql`;

// Two headers go with every audit request:
// - X-Api-Key: the audit calls as a dashboard does, with a partner key. The audit itself only asks
//   `{ __typename }`, which no resolver answers and so needs no key (authentication is enforced per
//   field, a missing key being a MISSING_API_KEY error on the field asked); with the key the audit
//   stays meaningful should authentication ever move in front of the GraphQL pipeline.
// - Apollo-Require-Preflight: Apollo's CSRF prevention refuses a GET (or a POST of a "simple"
//   content type) that carries no preflight header, because a browser sends such a request
//   cross-site without a CORS preflight. The audit client is not a browser, and any non-browser
//   client can send the header, so with it the audit tests GraphQL over HTTP and not the CSRF guard.
//   The last describe block checks that the guard still refuses a bare GET.
const AUDIT_HEADERS: Record<string, string> = { 'x-api-key': 'demo-partner-key', 'apollo-require-preflight': 'true' };

function auditFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(AUDIT_HEADERS)) headers.set(name, value);
  return fetch(input, { ...init, headers });
}

const audits = serverAudits({ url: graphqlUrl, fetchFn: auditFetch });
const requirementOf = (audit: Audit): AuditRequirement => audit.name.split(' ', 1)[0] as AuditRequirement;

interface Failure {
  id: string;
  name: string;
  reason: string;
  response: string;
}

const results = new Map<string, AuditResult>();
const recommendationsNotMet: Failure[] = [];

/** Runs one audit; a failure comes back with the reason and the start of the response it judged. */
async function runAudit(audit: Audit): Promise<{ result: AuditResult; failure?: Failure }> {
  const result = await audit.fn();
  results.set(audit.id, result);
  if (result.status === 'ok') return { result };
  const body = await result.response.text().catch(() => '(body unreadable)');
  const response = `${result.response.status} ${result.response.headers.get('content-type') ?? '(no content-type)'} ${body.trim().slice(0, 300)}`;
  return { result, failure: { id: audit.id, name: audit.name, reason: result.reason, response } };
}

describe('graphql-http server audits on /graphql', () => {
  it('lists MUST audits to run', () => {
    // Guards against a vacuous suite, should a new graphql-http name its audits otherwise.
    expect(audits.filter((audit) => requirementOf(audit) === 'MUST').length).toBeGreaterThan(10);
    for (const audit of audits) expect(['MUST', 'SHOULD', 'MAY']).toContain(requirementOf(audit));
  });

  for (const audit of audits) {
    const requirement = requirementOf(audit);
    it(`${audit.name} (${audit.id})`, async () => {
      const { result, failure } = await runAudit(audit);
      if (requirement === 'MUST') {
        expect(result.status, failure && `${failure.reason}; the response: ${failure.response}`).toBe('ok');
      } else if (failure) {
        recommendationsNotMet.push(failure);
      }
    });
  }

  it('lists the SHOULD and MAY audits not met (recommendations, not failures)', () => {
    expect(results.size).toBe(audits.length);
    const count = (requirement: AuditRequirement) => {
      const ofLevel = audits.filter((audit) => requirementOf(audit) === requirement);
      const passed = ofLevel.filter((audit) => results.get(audit.id)?.status === 'ok').length;
      return `${requirement} ${passed}/${ofLevel.length}`;
    };
    const lines = recommendationsNotMet.map(
      (failure) => `  ${failure.name} (${failure.id}): ${failure.reason}; the response: ${failure.response}`,
    );
    console.info(
      [`graphql-http audit of /graphql, passed: ${count('MUST')}, ${count('SHOULD')}, ${count('MAY')}`]
        .concat(lines.length > 0 ? ['SHOULD/MAY audits not met:', ...lines] : ['every SHOULD and MAY audit is met'])
        .join('\n'),
    );
  });
});

describe("the audit's client", () => {
  it('carries the partner key: a field that needs one is answered', async () => {
    const response = await auditFetch(graphqlUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ viewer { __typename } }' }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { viewer: { __typename: 'Viewer' } } });
  });

  it('needs its preflight header: CSRF prevention still refuses a GET without one', async () => {
    const url = `${graphqlUrl()}?query=${encodeURIComponent('{ __typename }')}`;
    const bare = await fetch(url, { headers: { 'x-api-key': 'demo-partner-key' } });
    expect(bare.status).toBe(400);
    expect(await bare.text()).toContain('Cross-Site Request Forgery');
    const withPreflight = await auditFetch(url);
    expect(withPreflight.status).toBe(200);
    expect(await withPreflight.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
