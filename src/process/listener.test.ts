import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { listenFirst } from './listener.js';

const CONFIG = { port: 0, host: '127.0.0.1', requestTimeoutMs: 60_000 };
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('listenFirst', () => {
  it('fails with listen’s own error on a port in use', async () => {
    const other = createServer().listen(0, '127.0.0.1');
    servers.push(other);
    await new Promise((resolve) => other.once('listening', resolve));
    const { port } = other.address() as { port: number };
    await expect(listenFirst({ ...CONFIG, port })).rejects.toMatchObject({ code: 'EADDRINUSE', syscall: 'listen' });
  });

  it('holds a request and a WebSocket upgrade that arrive before the service is ready, then serves both', async () => {
    const listener = await listenFirst(CONFIG);
    servers.push(listener.server);
    const base = `127.0.0.1:${listener.port}`;
    const answer = fetch(`http://${base}/readyz`).then((response) => response.text());
    const socket = new WebSocket(`ws://${base}/graphql`);
    const opened = new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    let settled = false;
    void answer.finally(() => {
      settled = true;
    });
    // Both have reached the server (its connections) and neither is answered.
    await expect
      .poll(async () => new Promise((resolve) => listener.server.getConnections((_error, count) => resolve(count))))
      .toBe(2);
    expect(settled).toBe(false);

    const sockets = new WebSocketServer({ noServer: true });
    listener.serve({
      app: (_req, res) => res.end('ready'),
      attach: (server) =>
        server.on('upgrade', (request, duplex, head) =>
          sockets.handleUpgrade(request, duplex, head, (ws) => sockets.emit('connection', ws)),
        ),
    });
    expect(await answer).toBe('ready');
    await opened;
    socket.close();
    sockets.close();
  });
});
