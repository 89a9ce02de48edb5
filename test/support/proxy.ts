// A TCP proxy between the service and Postgres that a test can cut and restore: "the database
// stops" without stopping the server other test files use.
import net from 'node:net';

export interface Proxy {
  port: number;
  /** Stops listening and drops every open connection, like a database that went away. */
  cut: () => Promise<void>;
  /** Listens again on the same port. */
  restore: () => Promise<void>;
  close: () => Promise<void>;
}

export async function startProxy(targetHost: string, targetPort: number): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const cut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return { port, cut, restore: () => listen(port), close: () => (server.listening ? cut() : Promise.resolve()) };
}
