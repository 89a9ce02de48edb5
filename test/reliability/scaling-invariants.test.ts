// What lets the service be sharded by partner (docs/operating.md#scaling), proven from the database itself
// rather than asserted in prose:
//   (a) every table with a partner_id column leads its primary key with it and has it in every unique
//       index (so a distributed Postgres such as Citus can enforce them shard by shard), except the
//       global tables listed below, each with its reason;
//   (b) every foreign key between two partner tables pairs partner_id with partner_id (co-located);
//   (c) every SQL statement a partner request sends pins partner_id for every tenant table it reads
//       or writes (so it can be routed to one shard): checked on the statements actually captured
//       while the demo service answers every partner REST endpoint;
//   (d) a vendor notification, which names no partner, reaches its device through the global
//       device_directory in one lookup, and every later statement pins the partner found there.
// The checker of (c) is plain text analysis of the SQL, proven below to fail on statements that drop
// the filter (one union branch, a join, an OR, a nested subquery), so a regression cannot pass.
import { describe, expect, it } from 'vitest';
import type { Db, DbOrTrx } from '../../src/db/knex.js';
import {
  DEMO_CART_TAG,
  DEMO_CLERK_ID,
  DEMO_DEVICE_IMEI,
  DEMO_DEVICE_TAG,
  DEMO_MERCHANT_ID,
  DEMO_ORDER_ID,
} from '../../src/fixtures/demoIds.js';
import { useSeededService } from '../support/fixtures.js';
import { statementsDuring } from '../support/statements.js';

const NOW = new Date('2026-06-10T15:30:00Z');
const fixture = useSeededService({ now: NOW });
const db = (): Db => fixture.database.db;

// ---------------------------------------------------------------------------------------------------
// The tables that are global on purpose although they carry a partner_id column: in Citus, reference
// tables or tables distributed by their own key (docs/operating.md#scaling). Each entry lists exactly the
// violations of (a) the table is allowed, so anything new on these tables fails too.

/**
 * Tenant tables that keep one unique index across partners. A payment reference's code is what the
 * customer reads out to a vendor, whose notification names no partner, so it is unique across partners
 * the way a device tag is; its primary key leads with partner_id. Sharded by partner, the code would
 * move to a directory table as the device tag did (device_directory): not built while one database holds
 * every partner.
 */
const GLOBAL_UNIQUE_IN_TENANT_TABLES = [
  'payment_references: unique (code)',
  // A device credential is looked up by its hash before the partner is known, like an API key.
  'device_credentials: unique (key_hash)',
];

const GLOBAL_WITH_PARTNER_ID = {
  // Credentials are looked up by their hash before anyone knows the partner; small, read-mostly.
  api_keys: ['api_keys: primary key (id)', 'api_keys: unique (key_hash)', 'api_keys: partner_id nullable'],
  // The operators' append-only trail; partner_id is kept for filtering, many events have none.
  audit_events: ['audit_events: primary key (id)', 'audit_events: partner_id nullable'],
  // IMEI and tag are unique across partners, and this is what routes a partner-less notification:
  // the pointer (partner_id, device_id) is all it holds. Its primary key does lead with partner_id.
  device_directory: ['device_directory: unique (imei)', 'device_directory: unique (tag)'],
  // The same for a notification naming a finance order (ids are unique across partners) or a phone number.
  finance_order_directory: ['finance_order_directory: primary key (id)'],
  customer_phone_directory: [],
  // A vendor's reference is its idempotency key, claimed before the device (and so the partner) is known.
  vendor_notifications: ['vendor_notifications: primary key (vendor_id,reference)'],
} as const;

/** The global catalogue without partner_id: reference tables in Citus (device_families only through device_models). */
const REFERENCE_TABLES = ['device_families', 'device_models', 'operators', 'partners', 'payment_vendors'];

/** Foreign keys from a global table into a tenant table: Citus cannot keep these (docs/operating.md#scaling). */
const GLOBAL_TO_TENANT_KEYS = [
  'customer_phone_directory(partner_id,customer_id) -> customers(partner_id,id)',
  'device_directory(partner_id,device_id) -> devices(partner_id,id)',
  'finance_order_directory(partner_id,id) -> finance_orders(partner_id,id)',
  'vendor_notifications(partner_id,payment_id) -> payments(partner_id,id)',
];

// ---------------------------------------------------------------------------------------------------
// The catalogue (pg_catalog: the same on PGlite and Postgres).

interface Catalogue {
  /** Every table of the schema with its columns and whether partner_id is nullable. */
  tables: Map<string, { columns: Set<string>; partnerIdNullable: boolean | null }>;
  /** Primary keys and unique indexes (constraint-backed or not, partial or not): key columns in order. */
  uniques: Array<{ table: string; primary: boolean; columns: string[] }>;
  foreignKeys: Array<{ from: string; fromColumns: string[]; to: string; toColumns: string[] }>;
}

// A month of a partitioned table (decisions.md 25) is read as its parent, not as a table of its own.
async function readCatalogue(dbOrTrx: DbOrTrx): Promise<Catalogue> {
  const columns: Array<{ table: string; column: string; nullable: boolean }> = (
    await dbOrTrx.raw(`
    select c.relname as "table", a.attname as "column", not a.attnotnull as "nullable"
      from pg_class c join pg_attribute a on a.attrelid = c.oid
     where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p') and not c.relispartition and a.attnum > 0 and not a.attisdropped`)
  ).rows;
  const uniques: Array<{ table: string; primary: boolean; columns: string }> = (
    await dbOrTrx.raw(`
    select t.relname as "table", x.indisprimary as "primary",
           (select string_agg(coalesce(a.attname, '(expression)'), ',' order by k.n)
              from unnest(x.indkey::int2[]) with ordinality as k(attnum, n)
              left join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.attnum
             where k.n <= x.indnkeyatts) as "columns"
      from pg_index x join pg_class t on t.oid = x.indrelid
     where x.indisunique and t.relnamespace = current_schema()::regnamespace and not t.relispartition`)
  ).rows;
  const foreignKeys: Array<{ from: string; fromColumns: string; to: string; toColumns: string }> = (
    await dbOrTrx.raw(`
    select s.relname as "from", d.relname as "to",
           (select string_agg(a.attname, ',' order by k.n) from unnest(f.conkey) with ordinality as k(attnum, n)
              join pg_attribute a on a.attrelid = f.conrelid and a.attnum = k.attnum) as "fromColumns",
           (select string_agg(a.attname, ',' order by k.n) from unnest(f.confkey) with ordinality as k(attnum, n)
              join pg_attribute a on a.attrelid = f.confrelid and a.attnum = k.attnum) as "toColumns"
      from pg_constraint f join pg_class s on s.oid = f.conrelid join pg_class d on d.oid = f.confrelid
     where f.contype = 'f' and s.relnamespace = current_schema()::regnamespace and not s.relispartition`)
  ).rows;

  const tables: Catalogue['tables'] = new Map();
  for (const { table, column, nullable } of columns) {
    const entry = tables.get(table) ?? { columns: new Set<string>(), partnerIdNullable: null };
    entry.columns.add(column);
    if (column === 'partner_id') entry.partnerIdNullable = nullable;
    tables.set(table, entry);
  }
  return {
    tables,
    uniques: uniques.map((row) => ({ ...row, columns: row.columns.split(',') })),
    foreignKeys: foreignKeys.map((row) => ({
      ...row,
      fromColumns: row.fromColumns.split(','),
      toColumns: row.toColumns.split(','),
    })),
  };
}

const hasPartnerId = (catalogue: Catalogue, table: string) =>
  catalogue.tables.get(table)?.columns.has('partner_id') ?? false;

/** Tables sharded by partner: a partner_id column, and not global by design. */
function tenantTables(catalogue: Catalogue): Set<string> {
  return new Set(
    [...catalogue.tables.keys()].filter(
      (table) => hasPartnerId(catalogue, table) && !(table in GLOBAL_WITH_PARTNER_ID),
    ),
  );
}

/** (a) Every way a table with partner_id could not be sharded by it, one line each. */
function shardKeyViolations(catalogue: Catalogue): string[] {
  const found: string[] = [];
  for (const [table, { partnerIdNullable }] of catalogue.tables) {
    if (partnerIdNullable === null) continue;
    if (partnerIdNullable) found.push(`${table}: partner_id nullable`);
    const primary = catalogue.uniques.find((unique) => unique.table === table && unique.primary);
    if (!primary) found.push(`${table}: no primary key`);
    else if (primary.columns[0] !== 'partner_id') found.push(`${table}: primary key (${primary.columns})`);
    for (const unique of catalogue.uniques) {
      if (unique.table === table && !unique.primary && !unique.columns.includes('partner_id'))
        found.push(`${table}: unique (${unique.columns})`);
    }
  }
  return found.sort();
}

/** (b) Foreign keys between two partner tables that do not pair partner_id with partner_id. */
function crossShardForeignKeys(catalogue: Catalogue): string[] {
  return catalogue.foreignKeys
    .filter((key) => hasPartnerId(catalogue, key.from) && hasPartnerId(catalogue, key.to))
    .filter((key) => !key.fromColumns.some((column, i) => column === 'partner_id' && key.toColumns[i] === 'partner_id'))
    .map((key) => `${key.from}(${key.fromColumns}) -> ${key.to}(${key.toColumns})`)
    .sort();
}

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

const VALUE = String.raw`(?:\$\d+|\?)(?:::[a-z0-9_]+(?:\[\])?)?(?![a-z0-9_])`;
const NOT_AN_ALIAS = new Set([
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
const SOURCE = new RegExp(
  String.raw`(\bfrom\b|\bjoin\b|\binto\b|\bupdate\b|,)\s*(?:only\s+|lateral\s+)?(?:public\.)?` +
    String.raw`(?:([a-z_][a-z0-9_]*)(?![a-z0-9_.])(?:\s*(⟦\d+⟧))?|(⟦\d+⟧))` +
    String.raw`(?:\s+(?:as\s+)?(?!(?:${[...NOT_AN_ALIAS].join('|')})\b)([a-z_][a-z0-9_]*)(?![a-z0-9_.]))?`,
  'g',
);

interface Group {
  text: string;
  kind: 'subquery' | 'values' | 'other';
  parent: number | null;
}

interface Source {
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

function parseGroups(sql: string): Group[] {
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
function spell(groups: Group[], text: string, deep: boolean): string {
  return text.replace(/⟦(\d+)⟧/g, (marker, n: string) => {
    const child = groups[Number(n)]!;
    return child.kind === 'subquery' && !deep ? marker : `(${spell(groups, child.text, deep)})`;
  });
}

/** Whether an OR sits in the same parenthesised condition as position `at` (so the filter could be bypassed). */
function underOr(text: string, at: number): boolean {
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
function parenAt(text: string, at: number): string {
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(at + 1, i);
  }
  return text.slice(at + 1);
}

interface StatementScope {
  /** Tenant tables the statement names. */
  tenantTables: string[];
  /** Every catalogue table the statement names. */
  tables: string[];
  /** Tenant sources left without a partner_id pin, and tenant mentions the checker could not place. */
  problems: string[];
}

function partnerScope(
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

// ---------------------------------------------------------------------------------------------------
// Capturing what the service sends.

interface Exchange {
  status: number;
  statements: string[];
}

async function captured(work: () => Promise<Response>): Promise<Exchange> {
  const { result, statements } = await statementsDuring(db(), async () => {
    const response = await work();
    await response.text();
    return response.status;
  });
  return { status: result, statements: statements.map((statement) => statement.sql) };
}

let scopeTables: Parameters<typeof partnerScope>[1] | undefined;
async function scopeCatalogue() {
  if (!scopeTables) {
    const catalogue = await readCatalogue(db());
    scopeTables = {
      tables: new Set(catalogue.tables.keys()),
      tenant: tenantTables(catalogue),
      withPartnerId: new Set([...catalogue.tables.keys()].filter((table) => hasPartnerId(catalogue, table))),
    };
  }
  return scopeTables;
}

/** Every statement's problems, and the tenant and other tables the exchange touched. */
async function audit(exchange: Exchange) {
  const catalogue = await scopeCatalogue();
  const problems: string[] = [];
  const tenant = new Set<string>();
  const global = new Set<string>();
  for (const sql of exchange.statements) {
    const scope = partnerScope(sql, catalogue);
    for (const problem of scope.problems) problems.push(`${problem}: ${sql}`);
    for (const table of scope.tenantTables) tenant.add(table);
    for (const table of scope.tables) if (!catalogue.tenant.has(table)) global.add(table);
    // A statement naming no table must be one the checker knows to be tableless, not one it misread.
    if (
      scope.tables.length === 0 &&
      !/^(begin|commit|rollback|select pg_advisory_xact_lock\(|select pg_notify\()/i.test(sql.trim())
    ) {
      problems.push(`names no table the checker recognises: ${sql}`);
    }
  }
  return { problems, tenant: [...tenant].sort(), global: [...global].sort() };
}

// ---------------------------------------------------------------------------------------------------

describe('(a, b) the schema can be sharded by partner (pg_catalog)', () => {
  it('every table with partner_id leads its primary key with it and has it in every unique index, except the global tables', async () => {
    const catalogue = await readCatalogue(db());
    expect(shardKeyViolations(catalogue)).toEqual(
      [...Object.values(GLOBAL_WITH_PARTNER_ID).flat(), ...GLOBAL_UNIQUE_IN_TENANT_TABLES].sort(),
    );
    // The tenant tables themselves, so a new one is seen here (and must satisfy the rule to get in).
    expect([...tenantTables(catalogue)].sort()).toEqual([
      'adjustments',
      'carts',
      'clerks',
      'customers',
      'device_commands',
      'device_credentials',
      'devices',
      'events',
      'finance_orders',
      'idempotency_keys',
      'lock_timeline',
      'merchants',
      'payment_references',
      'payments',
      'sandbox_clocks',
      'transactions',
      'webhook_attempts',
      'webhook_deliveries',
      'webhook_endpoints',
    ]);
  });

  it('every foreign key between two partner tables pairs partner_id with partner_id (co-located)', async () => {
    const catalogue = await readCatalogue(db());
    expect(crossShardForeignKeys(catalogue)).toEqual([]);
    const tenant = tenantTables(catalogue);
    const between = catalogue.foreignKeys.filter((key) => tenant.has(key.from) && tenant.has(key.to));
    expect(between.length, 'there are foreign keys to check').toBeGreaterThan(10);
    // A tenant table references only tenant tables (co-located) or reference tables (copied to every node).
    const referenced = catalogue.foreignKeys
      .filter((key) => tenant.has(key.from) && !hasPartnerId(catalogue, key.to))
      .map((key) => key.to);
    expect([...new Set(referenced)].sort()).toEqual(REFERENCE_TABLES.filter((table) => table !== 'device_families'));
    for (const table of REFERENCE_TABLES) expect(hasPartnerId(catalogue, table), table).toBe(false);
    // And what a distributed Postgres could not keep: global tables pointing into tenant tables.
    const intoTenant = catalogue.foreignKeys
      .filter((key) => !tenant.has(key.from) && tenant.has(key.to))
      .map((key) => `${key.from}(${key.fromColumns}) -> ${key.to}(${key.toColumns})`)
      .sort();
    expect(intoTenant).toEqual(GLOBAL_TO_TENANT_KEYS);
  });

  it('the catalogue checks fail on a table that breaks them (proof they can fail)', async () => {
    const trx = await db().transaction();
    try {
      await trx.raw(
        'create table scaling_bad_parent (partner_id bigint not null, id bigint, code text unique, primary key (partner_id, id))',
      );
      await trx.raw('create unique index scaling_bad_parent_id on scaling_bad_parent (id)');
      await trx.raw(
        'create table scaling_bad_child2 (partner_id bigint not null, id bigint, parent_id bigint, primary key (partner_id, id), foreign key (parent_id) references scaling_bad_parent (id))',
      );
      const catalogue = await readCatalogue(trx);
      const violations = shardKeyViolations(catalogue).filter((line) => line.startsWith('scaling_'));
      expect(violations).toEqual(['scaling_bad_parent: unique (code)', 'scaling_bad_parent: unique (id)']);
      expect(crossShardForeignKeys(catalogue).filter((line) => line.startsWith('scaling_'))).toEqual([
        'scaling_bad_child2(parent_id) -> scaling_bad_parent(id)',
      ]);
    } finally {
      await trx.rollback();
    }
  });
});

// The partner endpoints, with every locator kind and every payment path. Ids from the demo data set.
const WINDOW = 'starttime=1749513600&endtime=1781136000';
const PARTNER_REQUESTS: Array<{ name: string; path: string; headers?: Record<string, string>; status?: number }> = [
  { name: 'list-clerks', path: '/v1/list-clerks.php?key=demo-partner-key' },
  { name: 'list-merchants', path: '/v1/list-merchants.php?key=demo-retail-key' },
  {
    name: 'lookup-customer by IMEI',
    path: `/v1/lookup-customer.php?key=demo-partner-key&customerLocator=${DEMO_DEVICE_IMEI}`,
  },
  {
    name: 'lookup-customer by device tag',
    path: `/v1/lookup-customer.php?key=demo-retail-key&customerLocator=${DEMO_DEVICE_TAG}&fields=device.description`,
  },
  { name: 'lookup-customer by phone', path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=5512345679' },
  {
    name: 'lookup-customer by customer id',
    path: '/v1/lookup-customer.php?key=demo-retail-key&customerLocator=4000007',
  },
  {
    name: 'lookup-customer, not found (every rule tried)',
    path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=999999999999999',
    status: 404,
  },
  {
    name: "lookup-customer, another partner's IMEI",
    path: '/v1/lookup-customer.php?key=demo-partner-key&customerLocator=123456789012370',
    status: 404,
  },
  {
    name: 'lookup-cart, every field',
    path: `/v1/lookup-cart.php?key=demo-partner-key&cartTag=${DEMO_CART_TAG}&fields=customer.id,customer.name,customer.phoneNumber,customer.email,customer.address,customer.nationalId,device.description`,
  },
  { name: 'list-transactions', path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}` },
  {
    name: 'list-transactions, device filter',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=device.imei:${DEMO_DEVICE_IMEI}`,
  },
  {
    name: 'list-transactions, order and merchant filters',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=financeOrder.id:${DEMO_ORDER_ID}&filter=merchant.name:DEMO`,
  },
  {
    name: 'list-transactions, clerk and payment filters',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=salesClerk.name:DemoClerk1&filter=payment.amount:18`,
  },
  {
    name: 'list-transactions, adjustment and amount filters',
    path: `/v1/list-transactions.php?key=demo-partner-key&${WINDOW}&filter=adjustment.type:payment&filter=amount:-18`,
  },
  ...(['scaling-1', 'scaling-1', undefined] as const).map((key, i) => ({
    name: `record-customer-payment ${key ? (i === 0 ? 'with a new Idempotency-Key' : 'replayed') : 'without an Idempotency-Key'}`,
    path: `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=${DEMO_ORDER_ID}&amount=1.00&currency=USD`,
    headers: key ? { 'idempotency-key': key } : undefined,
  })),
  {
    name: "record-customer-payment, another partner's order",
    path: `/v1/record-customer-payment.php?key=demo-retail-key&merchantId=${DEMO_MERCHANT_ID}&salesClerkId=${DEMO_CLERK_ID}&financeOrderId=5000002&amount=1.00&currency=USD`,
    status: 404,
  },
];

/**
 * Global tables a partner request may read: the key lookup and the device directory (global by
 * design), the catalogue, and on Postgres the request limits' counts (by key and by address, no
 * partner: they ride on the key's statement, src/pipeline/rateLimits/postgresCounts.ts).
 */
const GLOBAL_READS_OF_PARTNER_REQUESTS = [
  'api_keys',
  'rate_limits',
  'device_directory',
  'device_families',
  'device_models',
  'partners',
];

describe('(c) every statement of a partner request pins partner_id for each tenant table', () => {
  const touched = new Set<string>();

  // Sequential on purpose: the payment requests depend on each other (new key, then its replay).
  for (const request of PARTNER_REQUESTS) {
    it(request.name, async () => {
      const exchange = await captured(() => fixture.service.request(request.path, { headers: request.headers ?? {} }));
      expect(exchange.status).toBe(request.status ?? 200);
      const { problems, tenant, global } = await audit(exchange);
      for (const table of tenant) touched.add(table);
      expect(problems).toEqual([]);
      expect(tenant.length, 'the request read a tenant table').toBeGreaterThan(0);
      // The auth key lookup (api_keys by hash) and device_directory lookups are global by design:
      // a key or an IMEI names its partner, the directory is one unique-index lookup.
      expect(global.filter((table) => !GLOBAL_READS_OF_PARTNER_REQUESTS.includes(table))).toEqual([]);
    });
  }

  it('between them, the requests touched every tenant table a partner request can reach', () => {
    // A payment writes its events (the event log), pinned to the partner like every other write.
    expect([...touched].sort()).toEqual([
      'adjustments',
      'carts',
      'clerks',
      'customers',
      // A payment reads its device's live credential and moves its unlock counter (decisions.md 21).
      'device_credentials',
      'devices',
      'events',
      'finance_orders',
      'idempotency_keys',
      'lock_timeline',
      'merchants',
      'payments',
      'transactions',
    ]);
  });
});

describe('(d) a vendor notification finds its device without visiting every shard', () => {
  let token = '';
  const notify = async (locator: Record<string, unknown>, reference: string) => {
    if (!token) {
      const response = await fixture.service.request('/payments/v1/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ apiKey: 'demo-vendor-key' }),
      });
      token = ((await response.json()) as { data: { access_token: string } }).data.access_token;
    }
    const body = { paymentVendor: 'demo-vendor', amount: '1.00', currency: 'USD', reference, ...locator };
    return captured(() =>
      fixture.service.request('/payments/v1/notification', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      }),
    );
  };

  for (const [name, locator] of [
    ['device tag', { deviceTag: 'DTSTBBD' }],
    ['IMEI', { imei: DEMO_DEVICE_IMEI }],
  ] as const) {
    it(`by ${name}: one device_directory lookup, then every statement pins the partner found`, async () => {
      const exchange = await notify(locator, `scaling-${name}`);
      expect(exchange.status).toBe(200);
      expect((await audit(exchange)).problems).toEqual([]);
      const directory = exchange.statements.filter((sql) => /"device_directory"/.test(sql));
      expect(directory).toHaveLength(1);
      expect(directory[0]).toMatch(/where "(imei|tag)" = \$1/);
    });
  }

  // A phone number or a finance order id has its own global directory (migration 000900).
  it.each([
    ['phone number', { phoneNumber: '14084930580' }, 'customer_phone_directory', /where "phone_number" = \$1/],
    ['finance order id', { financeOrderId: DEMO_ORDER_ID }, 'finance_order_directory', /where "id" = \$1/],
  ] as const)(
    'by %s: one directory lookup, then every statement pins the partner found',
    async (name, locator, directoryTable, lookup) => {
      const exchange = await notify(locator, `scaling-${name}`);
      expect(exchange.status).toBe(200);
      expect((await audit(exchange)).problems).toEqual([]);
      const directory = exchange.statements.filter((sql) => sql.includes(`"${directoryTable}"`));
      expect(directory).toHaveLength(1);
      expect(directory[0]).toMatch(lookup);
    },
  );
});

describe('the SQL checker fails on statements that drop the partner filter (proof it can fail)', () => {
  const TENANT = ['customers', 'devices', 'finance_orders', 'payments', 'transactions', 'merchants', 'clerks'];
  const catalogue = {
    tables: new Set([...TENANT, 'device_directory', 'api_keys', 'device_models', 'partners']),
    tenant: new Set(TENANT),
    withPartnerId: new Set([...TENANT, 'device_directory', 'api_keys']),
  };
  const problemsOf = (sql: string) => partnerScope(sql, catalogue).problems;

  it.each([
    ['a bound value', 'select * from "customers" where "partner_id" = $1 and "id" = $2'],
    ['an IN list', 'select * from "clerks" where "partner_id" in ($1) order by "id"'],
    [
      'unnest of tenant keys',
      'select * from "payments" where ("partner_id", "id") in (select * from unnest($1::int8[], $2::int8[]))',
    ],
    [
      'a join chain',
      'select * from "transactions" as "t" left join "finance_orders" as "o" on "o"."partner_id" = "t"."partner_id" and "o"."id" = "t"."finance_order_id" left join "devices" as "d" on "d"."partner_id" = "o"."partner_id" and "d"."id" = "o"."device_id" where "t"."partner_id" = $1',
    ],
    [
      'UNION ALL, each branch pinned',
      'select id from payments where partner_id = $1 union all select id from payments where partner_id = $2 and id = $3',
    ],
    [
      'a join to unnested keys',
      'select p.* from unnest($1::int8[], $2::int8[]) as k(partner_id, id) join payments p on p.partner_id = k.partner_id and p.id = k.id',
    ],
    [
      'a CTE',
      'with o as (select * from finance_orders where partner_id = $1 and id = $2) select * from o join payments p on p.partner_id = o.partner_id',
    ],
    [
      'a correlated subquery',
      'select o.*, (select count(*) from payments p where p.partner_id = o.partner_id and p.finance_order_id = o.id) from finance_orders o where o.partner_id = $1',
    ],
    ['an insert', 'insert into "transactions" ("amount_minor", "partner_id") values ($1, $2) returning "id"'],
    [
      'an update',
      'update "finance_orders" set "total_paid_minor" = total_paid_minor + $1::int8 where "partner_id" = $2 and "id" = $3',
    ],
    [
      'a lateral join',
      'select * from devices d left join lateral (select * from finance_orders o where o.partner_id = d.partner_id order by o.id desc limit 1) as last on true where d.partner_id = $1',
    ],
  ])('passes %s', (_, sql) => {
    expect(problemsOf(sql)).toEqual([]);
  });

  it.each([
    [
      'an id alone',
      'select * from "finance_orders" where "id" = $1 limit $2',
      ['finance_orders is not pinned by partner_id'],
    ],
    [
      'a phone number alone',
      'select * from "customers" where "phone_number" = $1 order by "partner_id" asc',
      ['customers is not pinned by partner_id'],
    ],
    [
      'one UNION ALL branch without it',
      'select id from payments where partner_id = $1 union all select id from payments where id = $2',
      ['payments is not pinned by partner_id'],
    ],
    [
      'a join on the id alone',
      'select * from transactions t left join merchants m on m.id = t.merchant_id where t.partner_id = $1',
      ['merchants (as m) is not pinned by partner_id'],
    ],
    [
      'a filter under OR',
      'select * from customers where partner_id = $1 or phone_number = $2',
      ['customers is not pinned by partner_id'],
    ],
    [
      'a filter that belongs to a nested subquery',
      'select * from payments where id in (select payment_id from transactions where partner_id = $1)',
      ['payments is not pinned by partner_id'],
    ],
    [
      'partner ids taken from a global table',
      'select * from devices where (partner_id, id) in (select partner_id, device_id from device_directory where imei = $1)',
      ['devices is not pinned by partner_id'],
    ],
    [
      'an update that sets partner_id',
      'update payments set partner_id = $1 where id = $2',
      ['payments is not pinned by partner_id'],
    ],
    [
      'an insert without partner_id',
      'insert into payments (id, amount_minor) values ($1, $2)',
      ['payments is not pinned by partner_id'],
    ],
    [
      'a join to an unpinned table',
      'select * from customers c join devices d on d.partner_id = c.partner_id where c.id = $1',
      ['customers (as c) is not pinned by partner_id', 'devices (as d) is not pinned by partner_id'],
    ],
    [
      'a CTE without it',
      'with o as (select * from finance_orders where id = $1) select * from o join payments p on p.partner_id = o.partner_id',
      ['finance_orders is not pinned by partner_id', 'payments (as p) is not pinned by partner_id'],
    ],
    [
      'a shape it cannot place',
      'select * from (payments p join transactions t on t.partner_id = p.partner_id) where p.partner_id = $1',
      [
        'payments is mentioned where the checker cannot place it',
        'transactions is mentioned where the checker cannot place it',
      ],
    ],
  ])('fails %s', (_, sql, expected) => {
    expect(problemsOf(sql).sort()).toEqual([...expected].sort());
  });
});
