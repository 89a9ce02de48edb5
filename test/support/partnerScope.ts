// The SQL checker of the sharding invariants (test/reliability/scaling-invariants*.test.ts): does a
// statement pin partner_id for every tenant table it names? Plain text analysis of the SQL.
// ---------------------------------------------------------------------------------------------------
// (c) The checker: does a statement pin partner_id for every tenant table it names?
//
// The SQL (lower-cased, identifiers unquoted, literals emptied) is cut into parenthesised groups, each
// replaced in its parent by a marker ⟦n⟧. A group starting with select, with, insert, update or
// delete is a subquery (or a data-modifying CTE); a subquery split at union/intersect/except gives
// blocks, the scope of table aliases. Each table occurrence (from, join, into, update, a comma in a
// from list) is a source. A tenant source is pinned when, in its own block and not under an OR at the
// same level, its partner_id is
//   - compared with a bound value:       t.partner_id = $1, partner_id in ($1), partner_id = any($1)
//   - part of a tuple matched to values:  (partner_id, id) in (select * from unnest($1::int8[], $2::int8[]))
//   - joined to a pinned source's:        on m.partner_id = t.partner_id (also to an enclosing block's)
//   - written by an insert:               insert into payments (..., partner_id, ...)
// A derived table or CTE counts as pinned when every block of its body has a pinned source. Any
// mention of a tenant table the checker cannot place is reported too, so new SQL shapes fail loudly.

export const VALUE = String.raw`(?:\$\d+|\?)(?:::[a-z0-9_]+(?:\[\])?)?(?![a-z0-9_])`;
export const NOT_AN_ALIAS = new Set([
  'where',
  'join',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'natural',
  'on',
  'using',
  'order',
  'group',
  'limit',
  'offset',
  'set',
  'values',
  'returning',
  'union',
  'intersect',
  'except',
  'for',
  'having',
  'window',
  'select',
  'default',
  'lateral',
  'with',
  'and',
  'or',
  'as',
  'from',
  'fetch',
  'do',
  'tablesample',
  'is',
  'not',
  'in',
]);

// A table (or function call, or parenthesised group) after from / join / into / update / a comma, and
// its alias: a word that is not a keyword (a keyword is never consumed, so the next source is found).
export const SOURCE = new RegExp(
  String.raw`(\bfrom\b|\bjoin\b|\binto\b|\bupdate\b|,)\s*(?:only\s+|lateral\s+)?(?:public\.)?` +
    String.raw`(?:([a-z_][a-z0-9_]*)(?![a-z0-9_.])(?:\s*(⟦\d+⟧))?|(⟦\d+⟧))` +
    String.raw`(?:\s+(?:as\s+)?(?!(?:${[...NOT_AN_ALIAS].join('|')})\b)([a-z_][a-z0-9_]*)(?![a-z0-9_.]))?`,
  'g',
);

export interface Group {
  text: string;
  kind: 'subquery' | 'values' | 'other';
  parent: number | null;
}

export interface Source {
  block: number;
  kind: 'table' | 'cte' | 'derived' | 'parameters';
  table?: string;
  alias: string;
  /** The body of a derived table or CTE. */
  body?: number;
  /** An insert's column list. */
  insertColumns?: string;
  /** The text after the source up to the next source (for `using (...)`). */
  tail: string;
}

export function parseGroups(sql: string): Group[] {
  const text = sql
    .toLowerCase()
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"/g, '')
    .replace(/\s+/g, ' ');
  const groups: Group[] = [{ text: '', kind: 'subquery', parent: null }];
  const open = [0];
  for (const ch of text) {
    const current = open[open.length - 1]!;
    if (ch === '(') {
      groups.push({ text: '', kind: 'other', parent: current });
      groups[current]!.text += `⟦${groups.length - 1}⟧`;
      open.push(groups.length - 1);
    } else if (ch === ')' && open.length > 1) {
      const closed = groups[open.pop()!]!;
      closed.kind = /^\s*(select|with|insert|update|delete)\b/.test(closed.text)
        ? 'subquery'
        : /^\s*values\b/.test(closed.text)
          ? 'values'
          : 'other';
    } else {
      groups[current]!.text += ch;
    }
  }
  return groups;
}

/** A group's text with its children spelled out, subqueries left as markers unless `deep`. */
export function spell(groups: Group[], text: string, deep: boolean): string {
  return text.replace(/⟦(\d+)⟧/g, (marker, n: string) => {
    const child = groups[Number(n)]!;
    return child.kind === 'subquery' && !deep ? marker : `(${spell(groups, child.text, deep)})`;
  });
}

/** Whether an OR sits in the same parenthesised condition as position `at` (so the filter could be bypassed). */
export function underOr(text: string, at: number): boolean {
  let start = 0;
  for (let i = at - 1, depth = 0; i >= 0; i--) {
    if (text[i] === ')') depth++;
    else if (text[i] === '(' && depth-- === 0) {
      start = i + 1;
      break;
    }
  }
  for (let i = start, depth = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && depth-- === 0) break;
    else if (depth === 0 && /^\bor\b/.test(text.slice(i)) && !/[a-z0-9_]/.test(text[i - 1] ?? ' ')) return true;
  }
  return false;
}

/** The paren group starting at `at` in `text` (which starts with '('), without its parens. */
export function parenAt(text: string, at: number): string {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(at + 1, i);
  }
  return text.slice(at + 1);
}

export interface StatementScope {
  /** Tenant tables the statement names. */
  tenantTables: string[];
  /** Every catalogue table the statement names. */
  tables: string[];
  /** Tenant sources left without a partner_id pin, and tenant mentions the checker could not place. */
  problems: string[];
}

export function partnerScope(
  sql: string,
  catalogue: { tables: Set<string>; tenant: Set<string>; withPartnerId: Set<string> },
): StatementScope {
  const groups = parseGroups(sql);
  const blocks: Array<{ group: number; text: string }> = [];
  groups.forEach((group, id) => {
    if (group.kind === 'subquery')
      for (const text of group.text.split(/\b(?:union(?: all)?|intersect|except)\b/)) blocks.push({ group: id, text });
  });

  /** The block holding the marker of group `id` (through any non-subquery groups in between). */
  const ownerBlock = (id: number): number | null => {
    const parent = groups[id]!.parent;
    if (parent === null) return null;
    if (groups[parent]!.kind !== 'subquery') return ownerBlock(parent);
    return blocks.findIndex((block) => block.group === parent && block.text.includes(`⟦${id}⟧`));
  };
  const enclosing = blocks.map((block) => ownerBlock(block.group));

  const cteNames = new Map<string, number>();
  for (const group of groups) {
    for (const match of group.text.matchAll(
      /(?:\bwith(?: recursive)?|,)\s+([a-z_][a-z0-9_]*)\s+as\s+(?:(?:not )?materialized\s+)?⟦(\d+)⟧/g,
    )) {
      if (groups[Number(match[2])]!.kind === 'subquery') cteNames.set(match[1]!, Number(match[2]));
    }
  }

  const sources: Source[] = [];
  const problems: string[] = [];
  const named = new Set<string>();
  blocks.forEach((block, b) => {
    const matches = [...block.text.matchAll(SOURCE)];
    matches.forEach((match, i) => {
      const [whole, keyword, name, call, markerOnly, alias] = match;
      const tail = block.text.slice(match.index + whole.length, matches[i + 1]?.index ?? block.text.length);
      const groupOf = (marker: string | undefined) => (marker ? Number(marker.slice(1, -1)) : undefined);
      if (name && catalogue.tables.has(name)) {
        named.add(name);
        const insertColumns = keyword === 'into' && call ? groups[groupOf(call)!]!.text : undefined;
        sources.push({ block: b, kind: 'table', table: name, alias: alias ?? name, insertColumns, tail });
      } else if (name && cteNames.has(name)) {
        sources.push({ block: b, kind: 'cte', alias: alias ?? name, body: cteNames.get(name), tail });
      } else if (name === 'unnest' && call && alias) {
        sources.push({ block: b, kind: 'parameters', alias, tail });
      } else if (markerOnly && alias && keyword !== ',') {
        const body = groupOf(markerOnly)!;
        const kind = groups[body]!.kind;
        if (kind === 'values') sources.push({ block: b, kind: 'parameters', alias, tail });
        else if (kind === 'subquery') sources.push({ block: b, kind: 'derived', alias, body, tail });
      }
    });
    // A tenant table mentioned anywhere else in the block (not as a qualifier) is a shape the checker
    // does not understand: report it rather than guess.
    for (const mention of block.text.matchAll(/(?<![a-z0-9_.])([a-z_][a-z0-9_]*)(?![a-z0-9_.])/g)) {
      if (!catalogue.tenant.has(mention[1]!)) continue;
      const atSource = matches.some(
        (match) => mention.index >= match.index && mention.index < match.index + match[0].length,
      );
      const asOutputName = /\bas\s+$/.test(block.text.slice(0, mention.index));
      const cteDefinition = /^\s+as\s+(?:(?:not )?materialized\s+)?⟦/.test(
        block.text.slice(mention.index + mention[0].length),
      );
      if (!atSource && !asOutputName && !cteDefinition)
        problems.push(`${mention[1]} is mentioned where the checker cannot place it`);
    }
  });
  // Tenant tables inside non-subquery parentheses (e.g. a parenthesised join) are not placed either.
  groups.forEach((group) => {
    if (group.kind === 'subquery') return;
    for (const mention of group.text.matchAll(/(?<![a-z0-9_.])([a-z_][a-z0-9_]*)(?![a-z0-9_.])/g)) {
      if (catalogue.tenant.has(mention[1]!))
        problems.push(`${mention[1]} is mentioned where the checker cannot place it`);
    }
  });

  const partnerBearing = (source: Source) => source.kind !== 'table' || catalogue.withPartnerId.has(source.table!);
  const resolve = (alias: string, b: number | null): Source | undefined => {
    for (let block = b; block !== null; block = enclosing[block] ?? null) {
      const found = sources.find((source) => source.block === block && source.alias === alias);
      if (found) return found;
    }
    return undefined;
  };
  const pinned = new Set<Source>();
  const isPinnedOrParameters = (source: Source | undefined) =>
    source !== undefined && (source.kind === 'parameters' || pinned.has(source));
  const bodyPinned = (body: number) =>
    blocks.every(
      (block, b) =>
        block.group !== body || sources.some((source) => source.block === b && isPinnedOrParameters(source)),
    );

  /** The right-hand side of an IN / = ANY / tuple match: bound values, unnest of them, or tenant subqueries (checked on their own). */
  const rightSideOk = (text: string, b: number): boolean => {
    for (const match of text.matchAll(/\b(?:from|join)\s+(?:lateral\s+)?([a-z_][a-z0-9_]*)/g)) {
      const name = match[1]!;
      if (!(catalogue.tenant.has(name) || name === 'unnest' || cteNames.has(name))) return false;
    }
    const local = new Set(
      [...text.matchAll(/\b(?:from|join)\s+(?:lateral\s+)?[a-z_][a-z0-9_]*(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/g)].map(
        (match) => match[1],
      ),
    );
    for (const match of text.matchAll(/(?<![a-z0-9_.])([a-z_][a-z0-9_]*)\.[a-z_]/g)) {
      if (!local.has(match[1]) && !isPinnedOrParameters(resolve(match[1]!, b))) return false;
    }
    return true;
  };

  const pins = (source: Source): boolean => {
    if (source.kind === 'parameters') return true;
    if (source.kind === 'derived' || source.kind === 'cte') return bodyPinned(source.body!);
    if (source.insertColumns !== undefined) return /\bpartner_id\b/.test(source.insertColumns);
    const b = source.block;
    let text = spell(groups, blocks[b]!.text, false);
    // An update's SET assigns, it does not filter.
    text = text.replace(/^(\s*update\b.*?)\bset\b.*?(?=\bfrom\b|\bwhere\b|\breturning\b|$)/, '$1');
    const alone = sources.filter((other) => other.block === b && partnerBearing(other)).length === 1;
    const refs = [`${source.alias}\\.partner_id`, ...(alone ? ['partner_id'] : [])].map(
      (ref) => `(?<![a-z0-9_.])${ref}(?![a-z0-9_])`,
    );
    const spelledRight = (at: number, marker: string | undefined) =>
      marker ? spell(groups, groups[Number(marker.slice(1, -1))]!.text, true) : parenAt(text, at);
    for (const ref of refs) {
      const checks: Array<[RegExp, (match: RegExpExecArray) => boolean]> = [
        [new RegExp(`${ref}\\s*=\\s*${VALUE}`, 'g'), () => true],
        [new RegExp(`${VALUE}\\s*=\\s*${ref}`, 'g'), () => true],
        [
          new RegExp(`${ref}\\s*(?:=\\s*any\\s*|in\\s*)(?:(\\()|(⟦\\d+⟧))`, 'g'),
          (m) => rightSideOk(spelledRight(m.index + m[0].length - 1, m[2]), b),
        ],
        [
          new RegExp(`\\([^()]*${ref}[^()]*\\)\\s*(?:in|=)\\s*(?:(\\()|(⟦\\d+⟧))`, 'g'),
          (m) => rightSideOk(spelledRight(m.index + m[0].length - 1, m[2]), b),
        ],
        [new RegExp(`${ref}\\s*=\\s*([a-z_][a-z0-9_]*)\\.([a-z_][a-z0-9_]*)`, 'g'), (m) => joinedTo(m[1]!, m[2]!)],
        [
          new RegExp(`(?<![a-z0-9_.])([a-z_][a-z0-9_]*)\\.([a-z_][a-z0-9_]*)\\s*=\\s*${ref}`, 'g'),
          (m) => joinedTo(m[1]!, m[2]!),
        ],
      ];
      for (const [pattern, holds] of checks) {
        for (const match of text.matchAll(pattern)) if (holds(match) && !underOr(text, match.index)) return true;
      }
    }
    // join ... using (partner_id, ...): pinned along with any pinned partner-bearing source of the block.
    if (/^\s*using\s*\([^)]*\bpartner_id\b/.test(spell(groups, source.tail, false))) {
      return sources.some(
        (other) => other !== source && other.block === b && partnerBearing(other) && pinned.has(other),
      );
    }
    return false;

    function joinedTo(alias: string, column: string): boolean {
      if (alias === source.alias) return false;
      const other = resolve(alias, b);
      return other !== undefined && (other.kind === 'parameters' || (column === 'partner_id' && pinned.has(other)));
    }
  };

  for (let changed = true; changed; ) {
    changed = false;
    for (const source of sources) {
      if (!pinned.has(source) && pins(source)) {
        pinned.add(source);
        changed = true;
      }
    }
  }
  for (const source of sources) {
    if (source.kind === 'table' && catalogue.tenant.has(source.table!) && !pinned.has(source)) {
      problems.push(
        `${source.table}${source.alias !== source.table ? ` (as ${source.alias})` : ''} is not pinned by partner_id`,
      );
    }
  }
  return {
    tenantTables: [...named].filter((table) => catalogue.tenant.has(table)).sort(),
    tables: [...named].sort(),
    problems,
  };
}
