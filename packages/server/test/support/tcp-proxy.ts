import { once } from 'node:events';
import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy on a loopback port in front of a PostgreSQL server, which a test can take down and bring back: down,
 * it drops every connection and stops listening, so new ones are refused as when the database's host is restarting.
 */
export interface TcpProxy {
  port: number;
  /** Resets every open connection and closes the port: connecting fails with ECONNREFUSED. Also the cleanup. */
  down(): Promise<void>;
  /** Listens again on the same port, forwarding to the target. */
  up(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  };

  const up = async () => {
    if (server) return;
    const listening = createServer((client) => {
      const upstream = connect(target.port, target.host);
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    listening.listen(port, '127.0.0.1');
    await once(listening, 'listening');
    const address = listening.address();
    if (!address || typeof address === 'string') throw new Error('the proxy has no TCP address');
    port = address.port;
    server = listening;
  };

  const down = async () => {
    const listening = server;
    if (!listening) return;
    server = null;
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    await new Promise<void>((resolve) => listening.close(() => resolve()));
  };

  await up();
  return {
    get port() {
      return port;
    },
    up,
    down,
  };
}
