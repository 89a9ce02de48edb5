// The console's frame: signing in, then the header (partner, live status, sign out), the views' menu
// and the view the address's fragment names. Every view reads the graph itself.
import { useCallback, useEffect, useState } from 'react';
import { LiveProvider, useLive } from './live.js';
import { hrefOf, type Route, useRoute } from './route.js';
import { SignIn } from './SignIn.js';
import { keepKey, keptKey, SessionProvider, signInWith, useSession } from './session.js';
import { Devices } from './views/Devices.js';
import { LiveView } from './views/Live.js';
import { Order } from './views/Order.js';
import { Portfolio } from './views/Portfolio.js';
import { Sandbox } from './views/Sandbox.js';

type SignedIn = Awaited<ReturnType<typeof signInWith>>;

export function App(props: { sandbox: boolean }) {
  const [signedIn, setSignedIn] = useState<SignedIn | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [restoring, setRestoring] = useState(() => keptKey() !== null);

  const signIn = useCallback(async (key: string) => {
    try {
      const session = await signInWith(key);
      keepKey(key);
      setError(null);
      setSignedIn(session);
    } catch (refusal) {
      setError(refusal);
    }
  }, []);

  useEffect(() => {
    const key = keptKey();
    if (key) void signIn(key).finally(() => setRestoring(false));
  }, [signIn]);

  // Another key, or none: nothing read with the previous one stays (the providers below remount).
  const signOut = useCallback(() => setSignedIn(null), []);

  if (restoring)
    return (
      <main id="main">
        <p role="status">Signing in…</p>
      </main>
    );
  if (!signedIn) return <SignIn onKey={signIn} error={error} />;
  return (
    <SessionProvider key={signedIn.key} signedIn={signedIn} onSignOut={signOut}>
      <SignedInConsole sandbox={props.sandbox} />
    </SessionProvider>
  );
}

function SignedInConsole(props: { sandbox: boolean }) {
  const { partner } = useSession();
  return (
    <LiveProvider key={partner?.id ?? 'none'}>
      <Header sandbox={props.sandbox} />
      <main id="main">{partner ? <CurrentView sandbox={props.sandbox} /> : <p>There is no partner to show.</p>}</main>
    </LiveProvider>
  );
}

const MENU: ReadonlyArray<{ view: Route['view']; label: string; href: string; sandbox?: true }> = [
  { view: 'portfolio', label: 'Portfolio', href: hrefOf.portfolio },
  { view: 'live', label: 'Live', href: hrefOf.live },
  { view: 'devices', label: 'Devices', href: hrefOf.devices },
  { view: 'sandbox', label: 'Sandbox', href: hrefOf.sandbox, sandbox: true },
];

function Header(props: { sandbox: boolean }) {
  const route = useRoute();
  const session = useSession();
  const { status } = useLive();
  return (
    <header className="top">
      <a className="skip" href="#main">
        Skip to the view
      </a>
      <p className="brand">Device financing · console</p>
      <nav aria-label="Views">
        <ul>
          {MENU.filter((item) => props.sandbox || !item.sandbox).map((item) => (
            <li key={item.view}>
              <a href={item.href} aria-current={route.view === item.view ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="who">
        {session.kind === 'OPERATOR' ? (
          <label>
            Partner{' '}
            <select value={session.partner?.id ?? ''} onChange={(event) => session.pickPartner(event.target.value)}>
              {session.partners.map((partner) => (
                <option key={partner.id} value={partner.id}>
                  {partner.name} ({partner.id})
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span>{session.partner?.name}</span>
        )}
        <span className={`live-status live-${status}`} role="status">
          <span aria-hidden="true">{status === 'online' ? '●' : '○'}</span>{' '}
          {status === 'online' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Offline: reconnecting'}
        </span>
        <button type="button" onClick={session.signOut}>
          Sign out
        </button>
      </div>
    </header>
  );
}

function CurrentView(props: { sandbox: boolean }) {
  const route = useRoute();
  switch (route.view) {
    case 'live':
      return <LiveView />;
    case 'devices':
      return <Devices />;
    case 'order':
      return <Order key={route.orderId} orderId={route.orderId} />;
    case 'sandbox':
      return props.sandbox ? <Sandbox /> : <Portfolio />;
    default:
      return <Portfolio />;
  }
}
