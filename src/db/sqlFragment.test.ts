// A fragment's values stay with its placeholders however fragments are nested and joined.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinSql, type SqlFragment, sql, sqlText } from './sqlFragment.js';

/** The text with each ? replaced by its binding, as a reader would see the statement run. */
const filled = (fragment: SqlFragment) => {
  let i = 0;
  return fragment.sql.replace(/\?/g, () => `<${JSON.stringify(fragment.bindings[i++])}>`);
};

describe('sql fragments', () => {
  it('bind each value at its own placeholder, a nested fragment bringing its own', () => {
    const inner = sql`b = ${2} and c = any(${[3, 4]}::int[])`;
    const outer = sql`select ${1}, (${inner}) from ${sqlText('t')} where d = ${'d'}`;
    expect(outer.sql).toBe('select ?, (b = ? and c = any(?::int[])) from t where d = ?');
    expect(outer.bindings).toEqual([1, 2, [3, 4], 'd']);
    expect(joinSql([inner, sqlText('true'), sql`e = ${null}`], ' and ').bindings).toEqual([2, [3, 4], null]);
  });

  it('compose any tree of parts to the statement written out whole', () => {
    // A tree of parts: a value, a text, or a fragment of parts; each shown as the statement would read.
    type Part = { value: number } | { text: string } | { parts: Part[] };
    const { part } = fc.letrec<{ part: Part }>((tie) => ({
      part: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.record({ value: fc.integer() }),
        fc.record({ text: fc.constantFrom('a', 'b and', '(c)') }),
        fc.record({ parts: fc.array(tie('part'), { maxLength: 4 }) }),
      ),
    }));
    const build = (p: Part): SqlFragment => {
      if ('value' in p) return sql`${p.value}`;
      if ('text' in p) return sqlText(p.text);
      const built = p.parts.map(build);
      // Composed through the template, each part between fixed text.
      return built.reduce((whole, next) => sql`${whole} [${next}]`, sqlText('{'));
    };
    const written = (p: Part): string => {
      if ('value' in p) return `<${p.value}>`;
      if ('text' in p) return p.text;
      return p.parts.map(written).reduce((whole, next) => `${whole} [${next}]`, '{');
    };
    fc.assert(fc.property(part, (p) => filled(build(p)) === written(p)));
  });
});
