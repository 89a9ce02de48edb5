// Signing in: the person pastes a partner or operator key; a refused key is said in words.
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ErrorNote } from './ui.js';

export function SignIn(props: { onKey(key: string): Promise<void>; error: unknown }) {
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
    document.title = 'Sign in: console';
  }, []);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!key.trim()) return;
    setBusy(true);
    try {
      await props.onKey(key.trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" className="sign-in">
      <h1 tabIndex={-1} ref={heading}>
        Console
      </h1>
      <p>Sign in with a partner key or an operator key. It is kept for this browser tab only.</p>
      <form onSubmit={submit} noValidate>
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-describedby={props.error ? 'sign-in-error' : undefined}
          required
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      {props.error ? (
        <div id="sign-in-error">
          <ErrorNote error={props.error} />
        </div>
      ) : null}
    </main>
  );
}
