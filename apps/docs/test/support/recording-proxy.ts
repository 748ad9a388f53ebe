import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';

/** One response that went through the proxy. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
}

export interface RecordingProxy {
  /** `http://127.0.0.1:PORT`: the origin samples are pointed at instead of the server's. */
  origin: string;
  /** Returns every exchange since the last call, and starts a new record. */
  take(): Exchange[];
  close(): Promise<void>;
}

/**
 * A reverse proxy on loopback that forwards every request unchanged to `target` and records each response's status.
 * Samples print what they like (`-o /dev/null`, `-w '%{http_code}'`, the SDK's errors…); the proxy is how the test
 * sees every status all the same, whatever the client and however the sample shows it.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  let exchanges: Exchange[] = [];
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        const status = answer.statusCode ?? 0;
        exchanges.push({ method: incoming.method ?? '', path: incoming.url ?? '', status });
        outgoing.writeHead(status, answer.statusMessage, answer.rawHeaders);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', (error) => {
      exchanges.push({ method: incoming.method ?? '', path: incoming.url ?? '', status: 502 });
      outgoing.writeHead(502, { 'content-type': 'text/plain' }).end(`recording proxy: ${error.message}`);
    });
    incoming.pipe(forwarded);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('recording proxy: no port');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    take() {
      const taken = exchanges;
      exchanges = [];
      return taken;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
