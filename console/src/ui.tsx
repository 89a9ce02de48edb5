// The pieces every view is made of: a view's frame (its heading, focused when the view opens), an
// error said in words, a loading line, a pager over the graph's cursors, and a status that is never
// colour alone.
import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { GraphError } from './graph.js';

/** A view: its heading is focused when it opens, so a screen reader and the keyboard start there. */
export function View(props: { title: string; actions?: ReactNode; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = `${props.title}: console`;
  }, [props.title]);
  return (
    <section className="view" aria-labelledby="view-title">
      <div className="view-head">
        <h1 id="view-title" tabIndex={-1} ref={heading}>
          {props.title}
        </h1>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** An error as the graph said it: its message, and its code for whoever reports it. */
export function ErrorNote(props: { error: unknown }) {
  const { error } = props;
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof GraphError ? error.code : null;
  return (
    <p className="error" role="alert">
      <span className="error-mark" aria-hidden="true">
        !
      </span>{' '}
      {message}
      {code ? <span className="code"> ({code})</span> : null}
    </p>
  );
}

export function Loading(props: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {props.what}…
    </p>
  );
}

/**
 * Forward paging with the graph's cursors: the page's number, the first page (which gives the focus back
 * to the list's heading, `top`), and the next one while there is one.
 */
export function Pager(props: {
  label: string;
  page: number;
  hasNextPage: boolean;
  onFirst: (() => void) | null;
  onNext: () => void;
  top: RefObject<HTMLElement | null>;
}) {
  const { onFirst, top } = props;
  return (
    <>
      <p className="muted">Page {props.page}</p>
      <nav className="pager" aria-label={`${props.label} pages`}>
        {onFirst ? (
          <button
            type="button"
            onClick={() => {
              onFirst();
              top.current?.focus();
            }}
          >
            First page
          </button>
        ) : null}
        <button type="button" onClick={props.onNext} disabled={!props.hasNextPage}>
          Next page
        </button>
      </nav>
    </>
  );
}

const STATUS_MARKS: Record<string, string> = {
  LOCKED: '■',
  ACTIVE: '●',
  ACTIVE_AND_SECURED: '●',
  PAID_OFF: '✓',
  RELEASED: '✓',
  WRITTEN_OFF: '✕',
  RETURNED: '↩',
};

/** A status as a word with a shape beside it: colour is never the only signal. */
export function Status(props: { value: string }) {
  const word = props.value.toLowerCase().replace(/_/g, ' ');
  return (
    <span className={`status status-${props.value.toLowerCase()}`}>
      <span aria-hidden="true">{STATUS_MARKS[props.value] ?? '•'}</span> {word.charAt(0).toUpperCase() + word.slice(1)}
    </span>
  );
}
