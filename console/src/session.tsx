// Who is signed in: the pasted key (kept in this tab's sessionStorage only), what the graph says it is,
// and the partner every view shows (a partner key's own; the one an operator picks). Decisions.md 46.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import partnersDocument from '../operations/partners.graphql';
import viewerDocument from '../operations/viewer.graphql';
import type { ConsolePartnersQuery, ConsoleViewerQuery } from './__generated__/operations.js';
import { ask, GraphError } from './graph.js';

const KEY_ITEM = 'console.key';
const PARTNER_ITEM = 'console.partner';

export interface Partner {
  id: string;
  name: string;
}

export interface Session {
  /** The key every request carries (X-Api-Key; the WebSocket's connection_init). */
  key: string;
  kind: 'OPERATOR' | 'PARTNER';
  /** The partner the views show; null while an operator has none to pick. */
  partner: Partner | null;
  /** Operators: the partners to pick from; a partner key: its own. */
  partners: readonly Partner[];
  pickPartner(partnerId: string): void;
  signOut(): void;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in session; only views under a signed-in SessionProvider call this. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}

interface SignedIn {
  key: string;
  kind: 'OPERATOR' | 'PARTNER';
  partners: readonly Partner[];
}

/** What a key is, asked of the graph; a key the console cannot use is a GraphError said in words. */
export async function signInWith(key: string): Promise<SignedIn> {
  let viewer: ConsoleViewerQuery['viewer'];
  try {
    ({ viewer } = await ask<ConsoleViewerQuery>(key, viewerDocument));
  } catch (error) {
    if (error instanceof GraphError && error.code !== 'OFFLINE')
      throw new GraphError(`This key was refused: ${error.message}`, error.code);
    throw error;
  }
  if (viewer.keyKind === 'OPERATOR') {
    const { partners } = await ask<ConsolePartnersQuery>(key, partnersDocument);
    return { key, kind: 'OPERATOR', partners };
  }
  if (viewer.keyKind === 'PARTNER' && viewer.partner) return { key, kind: 'PARTNER', partners: [viewer.partner] };
  const what = viewer.keyKind === 'RETAIL' ? 'a retail key' : 'a vendor key';
  throw new GraphError(`This is ${what}: the console needs a partner key or an operator key.`, 'FORBIDDEN');
}

export function SessionProvider(props: { signedIn: SignedIn; onSignOut(): void; children: ReactNode }) {
  const { signedIn, onSignOut } = props;
  const [partnerId, setPartnerId] = useState<string | null>(() => {
    const kept = sessionStorage.getItem(PARTNER_ITEM);
    return signedIn.partners.some((partner) => partner.id === kept) ? kept : (signedIn.partners[0]?.id ?? null);
  });
  useEffect(() => {
    if (partnerId) sessionStorage.setItem(PARTNER_ITEM, partnerId);
  }, [partnerId]);
  const signOut = useCallback(() => {
    forgetKey();
    onSignOut();
  }, [onSignOut]);
  const session = useMemo<Session>(
    () => ({
      key: signedIn.key,
      kind: signedIn.kind,
      partners: signedIn.partners,
      partner: signedIn.partners.find((partner) => partner.id === partnerId) ?? null,
      pickPartner: setPartnerId,
      signOut,
    }),
    [signedIn, partnerId, signOut],
  );
  return <SessionContext.Provider value={session}>{props.children}</SessionContext.Provider>;
}

/** The key kept for this tab: sessionStorage, never localStorage or a cookie. */
export const keptKey = (): string | null => sessionStorage.getItem(KEY_ITEM);
export const keepKey = (key: string): void => sessionStorage.setItem(KEY_ITEM, key);
export function forgetKey(): void {
  sessionStorage.removeItem(KEY_ITEM);
  sessionStorage.removeItem(PARTNER_ITEM);
}
