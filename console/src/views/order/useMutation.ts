// One mutation of the order view: run with the session's key; its error is kept (the graph's words and
// code) for the action to show beside itself, and nothing else changes.
import { useCallback, useState } from 'react';
import { ask } from '../../graph.js';
import { useSession } from '../../session.js';

export interface Mutation<TData, TVariables> {
  busy: boolean;
  error: unknown;
  /** The answer's data, or null when the graph refused (then `error` says why). */
  run(variables: TVariables): Promise<TData | null>;
  clear(): void;
}

export function useMutation<TData, TVariables extends object>(document: string): Mutation<TData, TVariables> {
  const { key } = useSession();
  const [state, setState] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const run = useCallback(
    async (variables: TVariables) => {
      setState({ busy: true, error: null });
      try {
        const data = await ask<TData, TVariables>(key, document, variables);
        setState({ busy: false, error: null });
        return data;
      } catch (error) {
        setState({ busy: false, error });
        return null;
      }
    },
    [key, document],
  );
  const clear = useCallback(() => setState({ busy: false, error: null }), []);
  return { ...state, run, clear };
}
