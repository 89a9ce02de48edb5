// Forward pages over the graph's cursors, one stack per listing: "Next page" pushes the page's
// endCursor, "First page" empties the stack, and another listing (a filter changed) starts at the top.
import { useState } from 'react';

export interface CursorPages {
  /** What to pass as after: null on the first page. */
  after: string | null;
  /** 1 on the first page. */
  page: number;
  /** To the page after the one shown (its endCursor). */
  next(endCursor: string | null | undefined): void;
  /** Back to the first page; null while on it. */
  first: (() => void) | null;
}

/** `listing` names the filters: when it changes, the pages start again from the first. */
export function useCursorPages(listing: string): CursorPages {
  const [held, setHeld] = useState<{ listing: string; cursors: readonly string[] }>({ listing, cursors: [] });
  // Forgotten at once (React's state adjusted while rendering), so going back to a filter starts at its top too.
  if (held.listing !== listing) setHeld({ listing, cursors: [] });
  const cursors = held.listing === listing ? held.cursors : [];
  return {
    after: cursors.at(-1) ?? null,
    page: cursors.length + 1,
    next: (endCursor) => {
      if (endCursor) setHeld({ listing, cursors: [...cursors, endCursor] });
    },
    first: cursors.length > 0 ? () => setHeld({ listing, cursors: [] }) : null,
  };
}
