// Which rows a transactions query will read through each transaction, from the operation's own
// selection: the listing joins exactly those into its one statement (queries.ts), so a page costs
// one statement with its merchants, clerks, orders, devices, payments and adjustments, and a query
// that selects none of them joins nothing.
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import type { TransactionLink } from './rows.js';

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

/** The links the transactions field's selection reads, under nodes { ... } or edges { node { ... } }. */
export function linksSelected(info: GraphQLResolveInfo): Set<TransactionLink> {
  const links = new Set<TransactionLink>();
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
    if (link) links.add(link);
  }
  return links;
}
