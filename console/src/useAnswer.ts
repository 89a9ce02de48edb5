// A view's read: the answer to one query with the session's key, asked again when its variables change
// or when reload() is called (after a mutation the view re-reads what it shows; no cache to mend).
import { useCallback, useEffect, useState } from 'react';
import { ask } from './graph.js';
import { useSession } from './session.js';

export interface Answer<TData> {
  data: TData | null;
  error: unknown;
  loading: boolean;
  reload(): void;
}

export function useAnswer<TData, TVariables extends object>(
  document: string,
  variables: TVariables | null,
): Answer<TData> {
  const { key } = useSession();
  const [state, setState] = useState<{ data: TData | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: variables !== null,
  });
  const [asked, setAsked] = useState(0);
  const reload = useCallback(() => setAsked((count) => count + 1), []);
  const variablesText = JSON.stringify(variables);
  useEffect(() => {
    if (variablesText === 'null') return;
    let current = true;
    setState((held) => ({ ...held, loading: true }));
    ask<TData, TVariables>(key, document, JSON.parse(variablesText) as TVariables).then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) => current && setState({ data: null, error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [key, document, variablesText, asked]);
  return { ...state, reload };
}
