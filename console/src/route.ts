// The console's views live in the address's fragment (#/portfolio, #/orders/4000004): the service serves
// one path, a view can be bookmarked, and a view's address never holds a key (decisions.md 46).
import { useEffect, useState } from 'react';

export type Route =
  | { view: 'portfolio' }
  | { view: 'live' }
  | { view: 'devices' }
  | { view: 'order'; orderId: string }
  | { view: 'sandbox' };

/** The route of a fragment; anything unknown is the portfolio. */
export function routeOf(hash: string): Route {
  const path = hash.replace(/^#\/?/, '');
  const [head, id] = path.split('/');
  if (head === 'live') return { view: 'live' };
  if (head === 'devices') return { view: 'devices' };
  if (head === 'sandbox') return { view: 'sandbox' };
  if (head === 'orders' && id && /^[0-9]{1,19}$/.test(id)) return { view: 'order', orderId: id };
  return { view: 'portfolio' };
}

export const hrefOf = {
  portfolio: '#/portfolio',
  live: '#/live',
  devices: '#/devices',
  sandbox: '#/sandbox',
  order: (orderId: string) => `#/orders/${encodeURIComponent(orderId)}`,
};

/** The current route, following the fragment. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(window.location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
