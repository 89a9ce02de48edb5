// A round-robin TCP load balancer on loopback, in front of several service processes, for the
// many-instances suite. It behaves like the usual balancer settings (haproxy's `balance roundrobin`
// with `option httpchk GET /readyz` and `retry-on conn-failure empty-response`):
// - each new client connection goes to the next backend that passed its last health check;
// - a backend that refuses the connection, or closes it before sending a single byte back, is
//   retried on the next backend with the bytes the client sent so far (nothing reached a service,
//   or the service answered nothing: safe for reads, and for payments, which carry idempotency keys);
// - a backend whose /readyz does not answer 200 is taken out until it does again.
import http from 'node:http';
import net from 'node:net';

export interface Backend {
  host: string;
  port: number;
}

export interface Balancer {
  port: number;
  url: string;
  /** Connections each backend answered (by index), and connections retried on another backend. */
  stats: { served: number[]; retried: number; failed: number };
  /** Backends currently in rotation (by index). */
  healthy: () => number[];
  close: () => Promise<void>;
}

const HEALTH_INTERVAL_MS = 200;

function probe(backend: Backend): Promise<boolean> {
  return new Promise((resolve) => {
    const request = http.get(
      { host: backend.host, port: backend.port, path: '/readyz', agent: false, timeout: 1000 },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200);
      },
    );
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(false));
  });
}

export async function startBalancer(backends: Backend[]): Promise<Balancer> {
  const healthy = new Set(backends.map((_backend, index) => index));
  const stats = { served: backends.map(() => 0), retried: 0, failed: 0 };
  let next = 0;
  let closing = false;
  const sockets = new Set<net.Socket>();

  const checkHealth = async () => {
    const results = await Promise.all(backends.map(probe));
    for (const [index, ok] of results.entries()) {
      if (ok) healthy.add(index);
      else healthy.delete(index);
    }
  };
  await checkHealth();
  const timer = setInterval(() => void checkHealth(), HEALTH_INTERVAL_MS);

  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    const sent: Buffer[] = [];
    let upstream: net.Socket | null = null;
    let connected = false;
    let answered = false;
    // Until the backend answers, the client's bytes are kept (for a retry) and written once connected.
    client.on('data', (chunk: Buffer) => {
      if (!answered) sent.push(chunk);
      if (connected) upstream?.write(chunk);
    });
    client.on('error', () => upstream?.destroy());
    client.on('close', () => upstream?.destroy());

    const tried = new Set<number>();
    const connect = () => {
      // The next healthy backend not tried yet for this connection; any untried one when none is healthy.
      const order = backends.map((_backend, offset) => (next + offset) % backends.length);
      const choice =
        order.find((index) => healthy.has(index) && !tried.has(index)) ?? order.find((index) => !tried.has(index));
      if (choice === undefined || client.destroyed) {
        stats.failed += 1;
        client.destroy();
        return;
      }
      next = (choice + 1) % backends.length;
      tried.add(choice);
      const socket = net.connect(backends[choice]!.port, backends[choice]!.host);
      upstream = socket;
      connected = false;
      sockets.add(socket);
      socket.on('connect', () => {
        connected = true;
        for (const chunk of sent) socket.write(chunk);
      });
      socket.on('data', (chunk: Buffer) => {
        if (!answered) {
          answered = true;
          stats.served[choice]! += 1;
          sent.length = 0;
        }
        client.write(chunk);
      });
      const retryOrClose = () => {
        sockets.delete(socket);
        if (upstream !== socket) return;
        if (!answered && !client.destroyed && !closing) {
          stats.retried += 1;
          connect();
          return;
        }
        client.end();
      };
      socket.on('error', () => socket.destroy());
      socket.on('close', retryOrClose);
    };
    connect();
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    stats,
    healthy: () => [...healthy].sort(),
    close: async () => {
      closing = true;
      clearInterval(timer);
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
