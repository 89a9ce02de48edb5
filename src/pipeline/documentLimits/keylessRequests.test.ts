import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buysAccessToken, refusedWithoutCredential } from './keylessRequests.js';

const MAX_TOKENS = 2000;
const refused = (query: unknown, persistedQuery = false) =>
  refusedWithoutCredential({ query, persistedQuery }, MAX_TOKENS);

describe('buysAccessToken', () => {
  it('is one mutation whose root fields are all createAccessToken, aliases allowed', () => {
    expect(buysAccessToken(parse('mutation { createAccessToken(apiKey: "k") { accessToken } }'))).toBe(true);
    expect(
      buysAccessToken(
        parse(
          'mutation Buy($k: String!) { a: createAccessToken(apiKey: $k) { accessToken } b: createAccessToken(apiKey: "x") { tokenType } }',
        ),
      ),
    ).toBe(true);
  });

  it('is nothing else: a query, another field beside it, a fragment, an inline fragment, two operations', () => {
    expect(buysAccessToken(parse('{ createAccessToken(apiKey: "k") { accessToken } }'))).toBe(false);
    expect(buysAccessToken(parse('mutation { createAccessToken(apiKey: "k") { accessToken } __typename }'))).toBe(
      false,
    );
    expect(
      buysAccessToken(
        parse('mutation { createAccessToken(apiKey: "k") { ...T } } fragment T on AccessToken { accessToken }'),
      ),
    ).toBe(false);
    expect(
      buysAccessToken(parse('mutation { ... on Mutation { createAccessToken(apiKey: "k") { accessToken } } }')),
    ).toBe(false);
    expect(
      buysAccessToken(
        parse(
          'mutation A { createAccessToken(apiKey: "k") { accessToken } } mutation B { createAccessToken(apiKey: "k") { accessToken } }',
        ),
      ),
    ).toBe(false);
    expect(buysAccessToken(parse('subscription { createAccessToken(apiKey: "k") { accessToken } }'))).toBe(false);
  });
});

describe('refusedWithoutCredential', () => {
  it('serves a token purchase, refuses every other document that parses', () => {
    expect(refused('mutation { createAccessToken(apiKey: "k") { accessToken } }')).toBe(false);
    expect(refused('{ __typename }')).toBe(true);
    expect(refused('{ __schema { types { name } } }')).toBe(true);
    const bomb = `query { ...F0 } ${Array.from(
      { length: 8 },
      (_, i) =>
        `fragment F${i} on Query { ${
          i === 7
            ? '__typename'
            : Array(10)
                .fill(`...F${i + 1}`)
                .join(' ')
        } }`,
    ).join(' ')}`;
    expect(refused(bomb)).toBe(true);
  });

  it("leaves a document that does not parse, or none, to Apollo's own 400", () => {
    expect(refused('{ a')).toBe(false);
    expect(refused(`{ ${'a '.repeat(MAX_TOKENS)}}`)).toBe(false); // past the token limit: the parser stops
    expect(refused(undefined)).toBe(false);
    expect(refused('')).toBe(false);
    expect(refused(42)).toBe(false);
  });

  it('refuses a persisted query sent without its text (its document is not in the request to check)', () => {
    expect(refused(undefined, true)).toBe(true);
    expect(refused('mutation { createAccessToken(apiKey: "k") { accessToken } }', true)).toBe(false);
    expect(refused('{ __typename }', true)).toBe(true);
  });
});
