// Which rows a transactions query will read through each transaction, and which of their columns,
// from the operation's own selection: the listing joins exactly those into its one statement
// (queries.ts), so a page costs one statement with its merchants, clerks, orders, devices, payments
// and adjustments, each with only the columns its selected fields read (linkColumns.ts), and a query
// that selects none of them joins nothing.
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import { LINK_FIELD_COLUMNS } from './linkColumns.js';
import { EVERY_COLUMN, type LinkColumns, type TransactionLink } from './rows.js';

/** The transaction fields that are links, and the rows each reads. */
const LINK_FIELDS: Readonly<Record<string, TransactionLink>> = {
  merchant: 'merchant',
  salesClerk: 'clerk',
  financeOrder: 'order',
  device: 'device',
  payment: 'payment',
  adjustment: 'adjustment',
};

/** The fields selected directly in a selection set, through inline fragments and fragment spreads. */
function selectedFields(
  selectionSet: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
  into: FieldNode[] = [],
): FieldNode[] {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) into.push(selection);
    else if (selection.kind === Kind.INLINE_FRAGMENT) selectedFields(selection.selectionSet, info, into);
    else selectedFields(info.fragments[selection.name.value]?.selectionSet, info, into);
  }
  return into;
}

/** The columns of a link that its selected fields read; its id always (a missing row reads as a null id). */
function columnsRead(link: TransactionLink, selectionSet: SelectionSetNode | undefined, info: GraphQLResolveInfo) {
  const columns = ['id'];
  for (const field of selectedFields(selectionSet, info)) {
    const name = field.name.value;
    if (name === '__typename') continue;
    // Every field is in the map (typechecked); a field it does not know is answered from the whole row.
    columns.push(...(LINK_FIELD_COLUMNS[link][name] ?? [EVERY_COLUMN]));
  }
  return columns;
}

/**
 * The links the transactions field's selection reads, under nodes { ... } or edges { node { ... } },
 * each with the columns its fields read (a link selected in several places reads their union).
 */
export function linksSelected(info: GraphQLResolveInfo): LinkColumns {
  const links: Partial<Record<TransactionLink, Set<string>>> = {};
  const transactionFields = (connection: FieldNode) =>
    selectedFields(connection.selectionSet, info).flatMap((field) => {
      if (field.name.value === 'nodes') return selectedFields(field.selectionSet, info);
      if (field.name.value !== 'edges') return [];
      return selectedFields(field.selectionSet, info)
        .filter((edgeField) => edgeField.name.value === 'node')
        .flatMap((node) => selectedFields(node.selectionSet, info));
    });
  for (const field of info.fieldNodes.flatMap(transactionFields)) {
    const link = LINK_FIELDS[field.name.value];
    if (!link) continue;
    const columns = links[link] ?? new Set();
    links[link] = columns;
    for (const column of columnsRead(link, field.selectionSet, info)) columns.add(column);
  }
  const selected: LinkColumns = {};
  for (const [link, columns] of Object.entries(links) as Array<[TransactionLink, Set<string>]>) {
    selected[link] = [...columns];
  }
  return selected;
}
