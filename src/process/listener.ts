// The port, taken before anything slow (decisions.md 27): a port in use fails the start in its one line
// before the database is opened, migrated or seeded. Held, not tried and let go: between a trial and the
// real listen another process could take it, and PORT=0 chooses a port once. What arrives before the
// service is ready (requests, WebSocket upgrades) waits for it.
import type { IncomingMessage, RequestListener, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../kernel/config.js';
import { createHttpServer } from '../ops/httpLimits.js';

/** What the listener serves once the service is ready. */
interface ReadyFront {
  app: RequestListener;
  /** The WebSocket door takes its upgrades from the server. */
  attach?: (server: Server) => void;
}

interface EarlyListener {
  server: Server;
  port: number;
  /** From now on requests go to the front; those that waited are handed over in their order. */
  serve: (front: ReadyFront) => void;
}

type Upgrade = [request: IncomingMessage, socket: Duplex, head: Buffer];

/** Listens on PORT and HOST at once, with the server's timeouts; rejects with listen's own error (EADDRINUSE ...). */
export async function listenFirst(config: Pick<Config, 'port' | 'host' | 'requestTimeoutMs'>): Promise<EarlyListener> {
  let app: RequestListener | undefined;
  const waiting: Array<() => void> = [];
  const server = createHttpServer((req, res) => {
    if (app) app(req, res);
    else waiting.push(() => app!(req, res));
  }, config.requestTimeoutMs);
  // Without an 'upgrade' listener Node would hand an upgrade to the request listener as a plain GET.
  const heldUpgrades: Upgrade[] = [];
  const holdUpgrade = (...upgrade: Upgrade) => heldUpgrades.push(upgrade);
  server.on('upgrade', holdUpgrade);
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : config.port,
    serve: (front) => {
      app = front.app;
      for (const request of waiting.splice(0)) request();
      server.off('upgrade', holdUpgrade);
      front.attach?.(server);
      for (const [request, socket, head] of heldUpgrades.splice(0)) {
        if (front.attach && !socket.destroyed) server.emit('upgrade', request, socket, head);
        else socket.destroy();
      }
    },
  };
}
